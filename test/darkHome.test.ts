import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initShellParser } from '../src/main/shell/analyzeCommand';
import { createCommandSandbox, type CommandSandbox } from '../src/main/sandbox/commandSandbox';
import { LIT_HOME_FOLDERS } from '../src/main/sandbox/litHomeFolders';
import { runtimeStopped } from '../src/main/sandbox/sandboxRuntime';
import { createPtyTerminal } from '../src/main/terminal/pty';
import { runCommand } from '../src/main/tools/runCommand';
import { outsideTempDir, removeTempDirs } from './support/tempDirs';
import { makeToolContext } from './support/toolContext';

// Issue 31: the home folder is dark inside the fence. A generated home full of other agents',
// browsers' and tools' secrets shows none of them to a command, however it looks (head, cat, ls,
// find, grep -r), while the toolchains installed there, the person's git identity and a workspace in
// the home folder work as outside. Real bubblewrap, real git; the home is a test home outside /tmp.

/** Where secrets live in a developer's home: 50 stores, each a file with its own marker. */
const STORES = [
  '.claude/.credentials.json',
  '.claude.json',
  '.codex/auth.json',
  '.config/github-copilot/apps.json',
  '.config/github-copilot/hosts.json',
  '.local/share/keyrings/login.keyring',
  '.gnupg/private-keys-v1.d/key.key',
  '.mozilla/firefox/abc.default/logins.json',
  '.mozilla/firefox/abc.default/cookies.sqlite',
  '.config/google-chrome/Default/Login Data',
  '.config/google-chrome/Default/Cookies',
  '.config/chromium/Default/Login Data',
  '.config/BraveSoftware/Brave-Browser/Default/Cookies',
  '.password-store/email/work.gpg',
  '.bash_history',
  '.zsh_history',
  '.python_history',
  '.psql_history',
  '.mysql_history',
  '.node_repl_history',
  '.m2/settings.xml',
  '.gradle/gradle.properties',
  '.my.cnf',
  '.yarnrc.yml',
  '.config/rclone/rclone.conf',
  '.databrickscfg',
  '.boto',
  '.s3cfg',
  '.oci/config',
  '.config/tether-other/settings.json',
  '.config/tether-other/tether.db',
  '.ssh/id_ed25519',
  '.aws/credentials',
  '.netrc',
  '.npmrc',
  '.pypirc',
  '.pgpass',
  '.docker/config.json',
  '.kube/config',
  '.config/gh/hosts.yml',
  '.config/gcloud/credentials.db',
  '.azure/accessTokens.json',
  '.cargo/credentials.toml',
  '.cargo/config.toml',
  '.git-credentials',
  '.config/git/credentials',
  '.vault-token',
  '.terraform.d/credentials.tfrc.json',
  '.config/hub',
  '.local/share/fish/fish_history',
];

const terminal = createPtyTerminal();
const sandboxes: CommandSandbox[] = [];

beforeAll(async () => {
  await initShellParser();
});
afterEach(() => {
  for (const sandbox of sandboxes.splice(0)) sandbox.dispose();
  removeTempDirs();
});
afterAll(async () => {
  terminal.dispose();
  await new Promise((resolve) => setTimeout(resolve, 100));
  await runtimeStopped();
});

function write(file: string, text: string, mode?: number): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text, mode === undefined ? undefined : { mode });
}

/** A home with the 50 stores (each holding `SECRET-<n>`), a workspace in it and Tether's data folder in it. */
function generatedHome(): { home: string; ws: string; dataDir: string } {
  const home = outsideTempDir('tether-home-');
  STORES.forEach((store, index) => write(path.join(home, store), `SECRET-${index}-${store}\n`));
  const ws = path.join(home, 'code', 'app');
  fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
  fs.writeFileSync(path.join(ws, 'src', 'app.js'), 'console.log("app");\n');
  return { home, ws, dataDir: path.join(home, '.config', 'tether') };
}

function inside(ws: string, home: string, dataDir: string, litHome: string[] = []) {
  const sandbox = createCommandSandbox({
    workspace: ws,
    dataDir,
    home,
    ...(litHome.length > 0
      ? { custom: { allowWrite: [], denyWrite: [], denyRead: [], allowedDomains: [], packageRegistries: false, litHome } }
      : {}),
  });
  sandboxes.push(sandbox);
  const ctx = makeToolContext(ws, { terminal, sandbox, confirm: async () => ({ allowed: false }) });
  return async (text: string) => {
    const result = await runCommand.execute(runCommand.parameters.parse({ command: text, timeout_ms: 60_000 }), ctx);
    return result.output;
  };
}

describe('the home folder is dark', () => {
  it('none of 50 stores is seen through head, cat, ls, find or grep, and neither are other homes', async () => {
    const { home, ws, dataDir } = generatedHome();
    const run = inside(ws, home, dataDir);
    // By the home's own path, not $HOME: what a command reads does not depend on what HOME says.
    const quoted = STORES.map((store) => `"${home}/${store}"`).join(' ');
    const looks = [
      `for f in ${quoted}; do head -c 100 "$f"; done 2>&1`,
      `cat ${quoted} 2>&1`,
      `ls -laR ${home} 2>&1`,
      `find ${home} -type f -exec head -c 100 {} + 2>&1`,
      `grep -r SECRET ${home} 2>&1`,
      `cat /proc/self/root${home}/.codex/auth.json /proc/1/root${home}/.netrc 2>&1`,
    ];
    const seen = new Set<string>();
    for (const look of looks) {
      const output = await run(look);
      STORES.forEach((store, index) => {
        if (output.includes(`SECRET-${index}-`)) seen.add(store);
      });
    }
    expect([...seen]).toEqual([]);
    // Absent, not unreadable: no store's name shows, only what is lit and the fence's own places.
    const listing = await run(`find ${home} | sort`);
    const shared = new Set(['.config', '.local', '.cargo']);
    // ~/.npmrc is there as Tether's derived copy (derivedNpmrc.ts): its name shows, none of its secrets (checked above).
    const derived = new Set(['.npmrc']);
    for (const store of STORES.filter((name) => !derived.has(name))) {
      expect(listing, store).not.toContain(`/${store}`);
      const top = store.split('/')[0]!;
      if (!shared.has(top)) expect(listing, store).not.toContain(`${home}/${top}\n`);
    }
    expect((await run('ls -A /root /home')).split('\n').filter((line) => line && !line.endsWith(':') && !line.startsWith('exit'))).toEqual(
      [],
    );
  }, 120_000);

  it('is dark for any name: a property over random names and depths in the home folder', async () => {
    const { home, ws, dataDir } = generatedHome();
    const run = inside(ws, home, dataDir);
    const litTops = new Set([...LIT_HOME_FOLDERS.map((entry) => entry.path.split('/')[0]), 'code', '.config', '.gitconfig']);
    const name = fc
      .string({ minLength: 1, maxLength: 24, unit: 'grapheme' })
      .filter((text) => !text.includes('/') && !text.includes('\0') && text !== '.' && text !== '..');
    let round = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(name, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 6 }), async (paths) => {
        round += 1;
        const marker = `PLANTED-${round}-`;
        const planted = paths.filter((parts) => !litTops.has(parts[0]!));
        for (const parts of planted) {
          try {
            write(path.join(home, ...parts), `${marker}${parts.join('/')}\n`);
          } catch {
            // A name that is a folder already at another depth: skip it.
          }
        }
        const output = await run(`grep -r "${marker}" ${home} 2>&1; find ${home} -type f -exec cat {} + 2>/dev/null | grep -c "${marker}"`);
        expect(output).not.toContain(`${marker}`.concat(planted[0]?.join('/') ?? '\u0000'));
        expect(/^0$/m.test(output), output).toBe(true);
      }),
      { numRuns: 12 },
    );
  });

  it('a home of 3,000 entries, with unreadable folders, dangling links and a FIFO, is as dark and costs no more to fence', async () => {
    const { home, ws, dataDir } = generatedHome();
    const timeFirstCommand = async (run: (text: string) => Promise<string>) => {
      const started = performance.now();
      const output = await run('true');
      return { ms: performance.now() - started, output };
    };
    const small = await timeFirstCommand(inside(ws, home, dataDir));
    for (let i = 0; i < 3_000; i++) fs.writeFileSync(path.join(home, `.entry-${i}`), `SECRET-bulk-${i}\n`);
    fs.mkdirSync(path.join(home, '.locked', 'inner'), { recursive: true });
    fs.writeFileSync(path.join(home, '.locked', 'inner', 'key'), 'SECRET-locked\n');
    fs.chmodSync(path.join(home, '.locked'), 0o000);
    fs.symlinkSync(path.join(home, 'nowhere'), path.join(home, '.dangling'));
    fs.symlinkSync('/nonexistent/x', path.join(home, '.nvm'));
    execFileSync('mkfifo', [path.join(home, '.fifo')]);
    try {
      const run = inside(ws, home, dataDir);
      const large = await timeFirstCommand(run);
      expect(large.output).toContain('exit code 0');
      const output = await run(`ls -A ${home}; grep -r SECRET ${home} 2>&1 | head -3; ls ${home}/.locked 2>&1`);
      expect(output).not.toContain('SECRET-');
      expect(output).not.toMatch(/\.entry-|\.locked\n|\.fifo|\.dangling/);
      // The first command of a session compiles the profile: no slower for 3,000 entries (the cover hides them whole; nothing is listed).
      expect(large.ms).toBeLessThan(small.ms * 3 + 2_000);
    } finally {
      fs.chmodSync(path.join(home, '.locked'), 0o700);
    }
  }, 120_000);

  it('the workspace in the home folder is visible and writable, and a write elsewhere in home is a fence hit', async () => {
    const { home, ws, dataDir } = generatedHome();
    const run = inside(ws, home, dataDir);
    const output = await run('echo made > src/new.txt && cat src/app.js && touch ~/.bashrc-planted');
    expect(output).toContain('console.log("app");');
    expect(fs.readFileSync(path.join(ws, 'src', 'new.txt'), 'utf8')).toBe('made\n');
    expect(output).toMatch(/the write fence: \S*\.bashrc-planted/);
    expect(fs.existsSync(path.join(home, '.bashrc-planted'))).toBe(false);
  });
});

describe('what work needs is lit', () => {
  it('node and npm from ~/.nvm, python from ~/.pyenv, programs in ~/.cargo/bin, ~/go/bin and ~/.local/bin run', async () => {
    const { home, ws, dataDir } = generatedHome();
    const nodeBin = path.join(home, '.nvm', 'versions', 'node', 'v22.0.0', 'bin');
    fs.mkdirSync(nodeBin, { recursive: true });
    fs.symlinkSync(fs.realpathSync(execFileSync('which', ['node'], { encoding: 'utf8' }).trim()), path.join(nodeBin, 'node'));
    write(path.join(nodeBin, 'npm'), `#!/bin/sh\nexec "$(dirname "$0")/node" /usr/lib/node_modules/npm/bin/npm-cli.js "$@"\n`, 0o755);
    const pyBin = path.join(home, '.pyenv', 'versions', '3.11.0', 'bin');
    fs.mkdirSync(pyBin, { recursive: true });
    fs.symlinkSync('/usr/bin/python3', path.join(pyBin, 'python3'));
    write(path.join(home, '.pyenv', 'shims', 'python3'), `#!/bin/sh\nexec "$HOME/.pyenv/versions/3.11.0/bin/python3" "$@"\n`, 0o755);
    write(path.join(home, '.cargo', 'bin', 'ripcheck'), '#!/bin/sh\necho cargo-installed\n', 0o755);
    write(path.join(home, 'go', 'bin', 'gotool'), '#!/bin/sh\necho go-installed\n', 0o755);
    write(path.join(home, '.local', 'bin', 'pipxtool'), '#!/bin/sh\necho pipx-installed\n', 0o755);
    const run = inside(ws, home, dataDir);
    const output = await run(
      [
        'export PATH="$HOME/.nvm/versions/node/v22.0.0/bin:$HOME/.pyenv/shims:$HOME/.cargo/bin:$HOME/go/bin:$HOME/.local/bin:$PATH"',
        'node -e "console.log(\'node-\' + process.version.length)"',
        'npm --version >/dev/null && echo npm-ran',
        'python3 -c "print(\'python-ran\')"',
        'ripcheck && gotool && pipxtool',
        'ls ~/.cargo',
      ].join(' && '),
    );
    for (const expected of ['node-', 'npm-ran', 'python-ran', 'cargo-installed', 'go-installed', 'pipx-installed'])
      expect(output).toContain(expected);
    // cargo's programs are lit, not its credentials.
    expect(output).not.toContain('credentials');
  });

  it('settings files inside a lit installation that may hold tokens stay dark: a global npmrc, a .condarc, pip.conf, gemrc', async () => {
    const { home, ws, dataDir } = generatedHome();
    const token = '//registry.npmjs.org/:_authToken=npm_SECRETinsideNVM';
    const planted = [
      ['.nvm/versions/node/v22.0.0/etc/npmrc', token],
      ['.npm-global/etc/npmrc', token],
      ['.volta/tools/image/node/20.1.0/etc/npmrc', token],
      ['miniconda3/.condarc', 'channels:\n  - https://user:SECRETconda@conda.example.com/channel\n'],
      ['miniconda3/envs/work/.condarc', 'channel_alias: https://t/SECRETenv/\n'],
      ['.pyenv/versions/3.11.0/pip.conf', '[global]\nindex-url = https://me:SECRETpip@pypi.example.com/simple\n'],
      ['.rbenv/versions/3.3.0/etc/gemrc', ':rubygems_api_key: SECRETgem\n'],
    ] as const;
    for (const [file, text] of planted) write(path.join(home, file), text);
    // What the installation is lit for still works: the folder and its programs are there.
    write(path.join(home, '.nvm/versions/node/v22.0.0/bin/tool'), '#!/bin/sh\necho nvm-tool-ran\n', 0o755);
    const run = inside(ws, home, dataDir);
    const output = await run(
      [
        ...planted.map(([file]) => `cat ~/${file}; echo`),
        'grep -r SECRET ~ 2>/dev/null; echo grep-done',
        '~/.nvm/versions/node/v22.0.0/bin/tool',
      ].join('; '),
    );
    expect(output).toContain('grep-done');
    expect(output).toContain('nvm-tool-ran');
    expect(output).not.toContain('SECRET');
  });

  it('npm reads a derived ~/.npmrc: the person’s settings, none of its tokens', async () => {
    const { home, ws, dataDir } = generatedHome();
    write(path.join(home, '.npmrc'), 'omit-lockfile-registry-resolved=true\n//registry.npmjs.org/:_authToken=npm_SECRETnpmrcTOKEN\n');
    const run = inside(ws, home, dataDir);
    const output = await run('cat ~/.npmrc; echo; npm config get omit-lockfile-registry-resolved');
    expect(output).toContain('omit-lockfile-registry-resolved=true');
    expect(output).toMatch(/^true\r?$/m);
    expect(output).not.toContain('SECRET');
  });

  it('pip reads a derived pip.conf: where it finds packages, not the password in an index URL', async () => {
    const { home, ws, dataDir } = generatedHome();
    write(
      path.join(home, '.config/pip/pip.conf'),
      '[global]\nfind-links = /opt/wheels\nindex-url = https://me:SECRETpipconf@pypi.example/simple\n',
    );
    const run = inside(ws, home, dataDir);
    const output = await run('cat ~/.config/pip/pip.conf; python3 -m pip config list 2>/dev/null || true');
    expect(output).toContain('find-links = /opt/wheels');
    expect(output).not.toContain('SECRET');
  });

  it('a link in a lit folder that leads into the dark home reaches nothing, and a lit folder that is such a link is not lit', async () => {
    const { home, ws, dataDir } = generatedHome();
    fs.mkdirSync(path.join(home, '.nvm'));
    fs.symlinkSync(path.join(home, '.ssh', 'id_ed25519'), path.join(home, '.nvm', 'key'));
    fs.symlinkSync('../.aws/credentials', path.join(home, '.nvm', 'relative'));
    fs.symlinkSync(path.join(home, '.password-store'), path.join(home, '.local', 'lib'));
    fs.mkdirSync(path.join(home, '.local', 'bin'), { recursive: true });
    fs.symlinkSync(path.join(home, '.config', 'gh'), path.join(home, '.local', 'bin', 'gh-config'));
    const run = inside(ws, home, dataDir, ['~/.config/mytool']);
    const output = await run(
      'cat ~/.nvm/key ~/.nvm/relative ~/.local/bin/gh-config/hosts.yml 2>&1; ls -la ~/.local/lib/ ~/.local/lib/email 2>&1; ls ~/.nvm',
    );
    expect(output).not.toMatch(/SECRET-/);
    expect(output).toContain('key');
  });

  it('what the person lights for the project is seen, read-only', async () => {
    const { home, ws, dataDir } = generatedHome();
    write(path.join(home, '.config', 'mytool', 'settings.toml'), 'theme = "dark"\n');
    const run = inside(ws, home, dataDir, ['~/.config/mytool']);
    const output = await run('cat ~/.config/mytool/settings.toml && echo x >> ~/.config/mytool/settings.toml');
    expect(output).toContain('theme = "dark"');
    expect(output).toMatch(/Read-only file system|the write fence/);
    expect(fs.readFileSync(path.join(home, '.config', 'mytool', 'settings.toml'), 'utf8')).toBe('theme = "dark"\n');
  });

  it('git commits with the person’s identity from a derived ~/.gitconfig that has no credential helper, token or signing', async () => {
    const { home, ws, dataDir } = generatedHome();
    write(
      path.join(home, '.gitconfig'),
      [
        '[user]',
        '\tname = Pat Person',
        '\temail = pat@example.com',
        '[alias]',
        '\tst = status --short',
        '[credential]',
        '\thelper = store --file ~/.git-credentials',
        '[http "https://github.com/"]',
        '\textraHeader = Authorization: Bearer ghp_abcdefghijklmnopqrstuvwxyz0123456789',
        '[url "https://pat:hunter2-token@github.com/"]',
        '\tinsteadOf = https://github.com/',
        '[url "git@github.com:"]',
        '\tpushInsteadOf = https://github.com/',
        '[commit]',
        '\tgpgSign = true',
        '[include]',
        '\tpath = ~/.gitconfig-extra',
        '\tpath = .gitconfig',
        '\tpath = ~/.gitconfig-fifo',
        `[includeIf "gitdir:${ws}/"]`,
        '\tpath = ~/.gitconfig-work',
      ].join('\n') + '\n',
    );
    write(
      path.join(home, '.gitconfig-extra'),
      '[alias]\n\tlg = log --oneline\n[credential "https://example.com"]\n\thelper = !echo password=extra-secret\n',
    );
    write(
      path.join(home, '.gitconfig-work'),
      '[user]\n\temail = pat@work.example\n[github]\n\ttoken = ghp_workworkworkworkworkworkworkwork0000\n',
    );
    execFileSync('mkfifo', [path.join(home, '.gitconfig-fifo')]);
    execFileSync('git', ['init', '-q', '-b', 'main', ws]);
    const run = inside(ws, home, dataDir);
    const output = await run(
      'git add -A && git commit -qm first && git log --format="%an <%ae>" && git lg | wc -l && git st && git config --list --show-origin; cat ~/.gitconfig',
    );
    expect(output).toContain('Pat Person <pat@work.example>');
    expect(output).not.toMatch(/hunter2|ghp_|extra-secret/);
    // (The machine's /etc/gitconfig is not the home folder's, and is read as it is.)
    const fromHome = output.split('\n').filter((line) => line.startsWith(`file:${home}`));
    expect(fromHome.length).toBeGreaterThan(3);
    expect(fromHome.join('\n')).not.toMatch(/\t(credential\.|http\..*extraheader|commit\.gpgsign|github\.token)/i);
    expect(output).toMatch(/# include ~\/\.gitconfig-extra: followed/);
    expect(output).toMatch(/# include \.gitconfig: dropped \(it includes itself\)/);
    expect(output).toMatch(/\.gitconfig-fifo: not a file that could be read; left out/);
    expect(output).toMatch(/# includeIf "gitdir:.*" ~\/\.gitconfig-work: kept/);
    expect(output).toMatch(
      /dropped from .*\.gitconfig: credential\.helper, http\.https:\/\/github\.com\/\.extraheader, url\.\(a URL with a credential\)\.insteadof/,
    );
    // The commit is there outside, made by the person (read without the test home's circular config).
    const log = execFileSync('git', ['-C', ws, 'log', '--format=%an <%ae>'], {
      encoding: 'utf8',
      env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' },
    });
    expect(log.trim()).toBe('Pat Person <pat@work.example>');
  });
});
