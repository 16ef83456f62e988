import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { provenForms } from '../../src/main/tools/provenForms';
import { initShellParser } from '../../src/main/shell/analyzeCommand';
import { createCommandSandbox, type CommandSandbox } from '../../src/main/sandbox/commandSandbox';
import { createPtyTerminal } from '../../src/main/terminal/pty';

/**
 * A developer's everyday loop, run inside the fence and outside it on identical copies of a small
 * project (issue 30): for each toolchain on this machine, install from a registry (a tiny one this
 * module serves on loopback, reached through the fence's proxy), test, build, lint; scratch work in
 * /tmp; and the git workflow agents run most. The bench (bench/dailyWork.bench.ts) runs all of it and
 * prints the figures; test/dailyWork.test.ts runs a part of it as a test.
 */

export interface DailyCommand {
  /** The toolchain or the kind of work, as the report groups it. */
  group: string;
  command: string;
}

export interface CommandOutcome {
  command: DailyCommand;
  outside: { exitCode: number | null; output: string; ms: number };
  inside: { exitCode: number | null; output: string; ms: number };
  /** Fence hits and notes of the run inside. */
  hits: string[];
  notes: string[];
  identical: boolean;
}

export interface DailyWorkReport {
  outcomes: CommandOutcome[];
  /** Connections the fence asked about (none expected: the registry is allowed, as the registries preset allows npm's). */
  prompts: string[];
  toolchains: string[];
}

/** The toolchains whose part of the loop can run here. */
export function installedToolchains(): string[] {
  const found = (program: string) => {
    try {
      execFileSync('/bin/sh', ['-c', `command -v ${program}`], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  };
  const toolchains = ['git', 'scratch', 'node', 'c'];
  if (found('python3')) toolchains.push('python');
  if (found('cargo')) toolchains.push('rust');
  if (found('go')) toolchains.push('go');
  if (found('javac')) toolchains.push('java');
  return toolchains;
}

/** The loop, in the order a developer runs it; `$T` is this run's scratch folder in /tmp. */
export function dailyCommands(toolchains: readonly string[], registry: string): DailyCommand[] {
  const on = (name: string, commands: string[]) => (toolchains.includes(name) ? commands.map((command) => ({ group: name, command })) : []);
  const pip = `.venv/bin/pip install -q --disable-pip-version-check --no-input --index-url ${registry}/simple/ --trusted-host 127.0.0.1`;
  return [
    ...on('git', ['ls -a', 'git status --porcelain', 'git add -A && git commit -q -m "first" && git log --format=%s']),
    ...on('node', [
      'cd node && npm install',
      'cd node && npm test',
      'cd node && npm run build && cat dist/out.txt',
      'cd node && npm run lint',
      'cd node && npx dw-lint src',
      'cd node && npm ci && ls node_modules',
      'node -e "console.log(require(\'os\').tmpdir())"',
    ]),
    ...on('python', [
      'cd py && python3 -m venv .venv',
      `cd py && ${pip} dwcolor && .venv/bin/python -c "import dwcolor; print(dwcolor.paint(\'ok\'))"`,
      'cd py && .venv/bin/python -m unittest -q 2>&1',
      'cd py && python3 -m compileall -q src && ls src/__pycache__ | wc -l',
      'python3 -c "import tempfile; f = tempfile.NamedTemporaryFile(delete=False); print(f.name.startswith(\'/tmp/\'))"',
    ]),
    ...on('c', [
      'cd c && make',
      'cd c && ./hello',
      'cd c && make test',
      'mkdir -p $T && cd c && gcc -o $T/hello hello.c greet.c && $T/hello',
      'cd c && make clean && ls',
    ]),
    ...on('rust', [
      'cd rs && cargo build -q --offline 2>&1',
      'cd rs && cargo test -q --offline 2>&1 | grep "test result"',
      'cd rs && ./target/debug/rs',
    ]),
    ...on('go', ['cd go && go build ./... && go test ./... 2>&1 | sed "s/\\t[0-9.]*s$//"']),
    ...on('java', ['cd java && javac -d build src/Main.java 2>&1', 'cd java && java -cp build Main 2>&1']),
    ...on('scratch', [
      'mkdir -p $T/build && echo scratch > $T/note.txt && cat $T/note.txt',
      'cat $T/note.txt && ls $T | sort',
      'tar czf $T/src.tgz c && tar tzf $T/src.tgz | sort',
      'd=$(mktemp -d) && echo x > "$d/f" && case "$d" in /tmp/*) echo in-tmp ;; esac',
      'echo log >> /tmp/dw-scratch.log && wc -l < /tmp/dw-scratch.log',
    ]),
    ...on('git', [
      'git status --porcelain && git add -A && git commit -q -m "built" && git log --format=%s',
      'git checkout -q -b feature && echo "/* feature */" >> c/greet.c && git commit -qam feature && git log --format=%s -1',
      'git checkout -q main && git merge -q --no-ff --no-edit feature && git log --format=%s -2',
      'git commit -q --amend -m "merged feature" && git log --format="%s %H" -1',
      'git tag v1.0 && git tag -a -m release v1.1 && git tag -l && git describe --tags',
      'echo wip > untracked.txt && echo change >> c/hello.c && git stash -u && git status --porcelain && git stash list && git stash pop -q && git status --porcelain',
      'git clean -nd',
      'git add -A && git commit -q -m wip && git worktree add -q .worktrees/topic -b topic && git worktree list | wc -l && git -C .worktrees/topic status --porcelain && git worktree remove .worktrees/topic',
      // Each rewrites .git/config: git drops or moves a branch's section (even when there is none), adds a remote's.
      'git branch -D -q topic',
      'git branch -q later && git branch -m later renamed && git branch --list renamed',
      'git remote add upstream https://example.com/upstream.git && git remote -v',
      'git config user.email dev@example.com && git config user.email',
      'git rebase -q --onto feature main~1 main 2>&1; git log --format=%s -3',
      'find . -path ./.git -prune -o -path ./node/node_modules -prune -o -path ./py/.venv -prune -o -path ./rs/target -prune -o -print | sort',
      'tar cf - --sort=name --mtime=2026-01-01 --owner=0 --group=0 --exclude=./.git --exclude=./py/.venv --exclude=./rs/target --exclude=__pycache__ . | sha1sum',
      'git status --porcelain && git fsck -q && git count-objects | cut -d" " -f1 | tr -d 0-9; echo ok',
    ]),
  ];
}

/** Writes the project: one folder per toolchain, a .gitignore, a git repository with a fixed identity. */
export function writeProject(workspace: string, registry: string): void {
  const put = (relative: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(workspace, relative)), { recursive: true });
    fs.writeFileSync(path.join(workspace, relative), text);
  };
  put(
    '.gitignore',
    ['node_modules/', 'dist/', '.venv/', '__pycache__/', 'target/', 'build/', '/c/hello', '*.o', '.worktrees/', ''].join('\n'),
  );
  put('README.md', '# daily work\n');
  put(
    'node/package.json',
    JSON.stringify(
      {
        name: 'daily',
        version: '1.0.0',
        private: true,
        scripts: { test: 'node test.js', build: 'node build.js', lint: 'dw-lint src' },
        dependencies: { 'dw-greet': '^1.0.0' },
        devDependencies: { 'dw-lint': '^1.0.0' },
      },
      null,
      2,
    ),
  );
  put('node/.npmrc', `registry=${registry}/\nupdate-notifier=false\naudit=false\nfund=false\nloglevel=warn\n`);
  put('node/src/index.js', "const greet = require('dw-greet');\nmodule.exports = () => greet('world');\n");
  put(
    'node/test.js',
    "const assert = require('assert');\nassert.strictEqual(require('./src')(), 'hello, world');\nconsole.log('1 passing');\n",
  );
  put(
    'node/build.js',
    "const fs = require('fs');\nfs.mkdirSync('dist', { recursive: true });\nfs.writeFileSync('dist/out.txt', require('./src')() + '\\n');\n",
  );
  put('py/src/app.py', 'def add(a, b):\n    return a + b\n');
  put('py/src/__init__.py', '');
  put(
    'py/test_app.py',
    'import unittest\nfrom src.app import add\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(1, 2), 3)\n',
  );
  put(
    'c/Makefile',
    'hello: hello.c greet.c\n\tcc -Wall -o hello hello.c greet.c\n\ntest: hello\n\t./hello | grep -q hello && echo test ok\n\nclean:\n\trm -f hello\n',
  );
  put('c/hello.c', '#include <stdio.h>\nconst char *greet(void);\nint main(void) { printf("%s\\n", greet()); return 0; }\n');
  put('c/greet.c', 'const char *greet(void) { return "hello from c"; }\n');
  put('rs/Cargo.toml', '[package]\nname = "rs"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n');
  put(
    'rs/src/main.rs',
    'fn add(a: i32, b: i32) -> i32 { a + b }\nfn main() { println!("{}", add(2, 3)); }\n#[cfg(test)]\nmod tests { #[test] fn adds() { assert_eq!(super::add(1, 1), 2); } }\n',
  );
  put('go/go.mod', 'module daily\n\ngo 1.20\n');
  put('go/main.go', 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hello from go") }\n');
  put('go/main_test.go', 'package main\n\nimport "testing"\n\nfunc TestX(t *testing.T) {}\n');
  put('java/src/Main.java', 'public class Main { public static void main(String[] a) { System.out.println("hello from java"); } }\n');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: workspace, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'Daily Dev');
  git('config', 'user.email', 'dev@example.com');
  git('config', 'commit.gpgsign', 'false');
  // A project as it is usually had, cloned: adding a first remote is where the person's push will go, and asks.
  git('remote', 'add', 'origin', 'https://example.com/daily.git');
}

/** The same environment on both sides: fixed git dates so identical work makes identical commits. */
export const SHARED_ENV: Record<string, string> = {
  GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
  GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
  PIP_NO_INPUT: '1',
  NO_COLOR: '1',
};

export interface PackageRegistry {
  url: string;
  requests: string[];
  close(): Promise<void>;
}

/**
 * A tiny registry on loopback: npm's packuments and tarballs for `dw-greet` (a library) and `dw-lint`
 * (a program with a bin), and a PyPI simple index with one wheel, `dwcolor`. Built in `folder`.
 */
export async function serveRegistry(folder: string): Promise<PackageRegistry> {
  const requests: string[] = [];
  const files = new Map<string, Buffer>();
  const server = http.createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    requests.push(pathname);
    const body = files.get(pathname) ?? files.get(pathname.replace(/\/$/, ''));
    if (!body) {
      response.writeHead(404).end('not found');
      return;
    }
    const type =
      pathname.endsWith('.tgz') || pathname.endsWith('.whl')
        ? 'application/octet-stream'
        : pathname.startsWith('/simple')
          ? 'text/html'
          : 'application/json';
    response.writeHead(200, { 'content-type': type, 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const npmPackage = (name: string, files_: Record<string, string>, extra: Record<string, unknown>) => {
    const dir = path.join(folder, name, 'package');
    fs.mkdirSync(dir, { recursive: true });
    const manifest = { name, version: '1.0.0', main: 'index.js', ...extra };
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest));
    for (const [file, text] of Object.entries(files_)) fs.writeFileSync(path.join(dir, file), text, { mode: 0o755 });
    const tarball = path.join(folder, `${name}-1.0.0.tgz`);
    execFileSync('tar', ['czf', tarball, '--mtime=2026-01-01', '--owner=0', '--group=0', '-C', path.join(folder, name), 'package']);
    const bytes = fs.readFileSync(tarball);
    const tarballPath = `/${name}/-/${name}-1.0.0.tgz`;
    files.set(tarballPath, bytes);
    const dist = {
      tarball: `${url}${tarballPath}`,
      shasum: createHash('sha1').update(bytes).digest('hex'),
      integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
    };
    files.set(
      `/${name}`,
      Buffer.from(JSON.stringify({ name, 'dist-tags': { latest: '1.0.0' }, versions: { '1.0.0': { ...manifest, dist } } })),
    );
  };
  npmPackage('dw-greet', { 'index.js': "module.exports = (name) => 'hello, ' + name;\n" }, {});
  npmPackage(
    'dw-lint',
    {
      'cli.js':
        "#!/usr/bin/env node\nconst fs = require('fs');\nconst path = require('path');\nconst dir = process.argv[2] || '.';\nconst files = fs.readdirSync(dir).filter((f) => f.endsWith('.js'));\nconst bad = files.filter((f) => fs.readFileSync(path.join(dir, f), 'utf8').includes('\\t'));\nconsole.log(`lint: ${files.length} files, ${bad.length} problems`);\nprocess.exit(bad.length ? 1 : 0);\n",
    },
    { bin: { 'dw-lint': 'cli.js' } },
  );

  const wheelName = 'dwcolor-1.0-py3-none-any.whl';
  const wheel = path.join(folder, wheelName);
  execFileSync('python3', [
    '-c',
    `import base64, hashlib, sys, zipfile
files = {'dwcolor/__init__.py': b"def paint(text):\\n    return '*' + text + '*'\\n",
  'dwcolor-1.0.dist-info/METADATA': b'Metadata-Version: 2.1\\nName: dwcolor\\nVersion: 1.0\\n',
  'dwcolor-1.0.dist-info/WHEEL': b'Wheel-Version: 1.0\\nGenerator: bench\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n'}
record = ''.join('%s,sha256=%s,%d\\n' % (n, base64.urlsafe_b64encode(hashlib.sha256(b).digest()).rstrip(b'=').decode(), len(b)) for n, b in files.items())
files['dwcolor-1.0.dist-info/RECORD'] = (record + 'dwcolor-1.0.dist-info/RECORD,,\\n').encode()
with zipfile.ZipFile(sys.argv[1], 'w') as z:
    for n, b in files.items():
        z.writestr(zipfile.ZipInfo(n, (2026, 1, 1, 0, 0, 0)), b)`,
    wheel,
  ]);
  const wheelBytes = fs.readFileSync(wheel);
  files.set(`/files/${wheelName}`, wheelBytes);
  const sha = createHash('sha256').update(wheelBytes).digest('hex');
  files.set(
    '/simple/dwcolor',
    Buffer.from(`<!DOCTYPE html><html><body><a href="/files/${wheelName}#sha256=${sha}">${wheelName}</a></body></html>\n`),
  );

  return {
    url,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** What differs between two runs only because they ran in two folders at two speeds. */
export function normalize(output: string, places: ReadonlyArray<[string, string]>): string {
  let text = output.replace(/\r/g, '').replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
  for (const [place, name] of places) text = text.split(place).join(name);
  return text
    .replace(/\b\d+(\.\d+)?\s?(ms|s|m)\b/g, '<t>')
    .replace(/\bin \d+(\.\d+)?s\b/g, 'in <t>')
    .trimEnd();
}

export interface DailyWorkOptions {
  root: string;
  toolchains: readonly string[];
  /** Keeps only the commands a caller wants (the test's subset). */
  pick?: (command: DailyCommand) => boolean;
  onOutcome?: (outcome: CommandOutcome) => void;
}

/**
 * Runs the loop on two identical copies, command by command (outside, then inside, so a machine whose
 * load changes weighs on both alike), in the PTY run_command uses; inside through a session's sandbox
 * whose project allows the registry (as the registries preset allows npm's), every other connection
 * asked about (and counted).
 */
export async function runDailyWork(options: DailyWorkOptions): Promise<DailyWorkReport & { sandbox: CommandSandbox }> {
  await initShellParser();
  const registry = await serveRegistry(path.join(options.root, 'registry'));
  const outsideWs = path.join(options.root, 'outside', 'project');
  const insideWs = path.join(options.root, 'inside', 'project');
  for (const ws of [outsideWs, insideWs]) writeProject(ws, registry.url);
  const run = path.basename(options.root);
  const scratch = `/tmp/dw-${run}`;
  // Outside, the person's caches would be written: the bench gives the outside run caches of its own
  // so that it leaves this machine's alone.
  const outsideCaches = path.join(options.root, 'outside', 'caches');
  const outsideEnv = {
    ...SHARED_ENV,
    T: scratch,
    npm_config_cache: path.join(outsideCaches, 'npm'),
    PIP_CACHE_DIR: path.join(outsideCaches, 'pip'),
    GOCACHE: path.join(outsideCaches, 'go-build'),
    GOMODCACHE: path.join(outsideCaches, 'go-mod'),
  };
  const port = new URL(registry.url).port;
  const sandbox = createCommandSandbox({
    workspace: insideWs,
    dataDir: path.join(options.root, 'data'),
    custom: { allowWrite: [], denyWrite: [], denyRead: [], allowedDomains: [`127.0.0.1:${port}`], packageRegistries: false },
  });
  const terminal = createPtyTerminal();
  const signal = new AbortController().signal;
  const prompts: string[] = [];
  const outcomes: CommandOutcome[] = [];
  const places: Array<[string, string]> = [
    [insideWs, '<ws>'],
    [outsideWs, '<ws>'],
    [sandbox.fence.caches, '<caches>'],
    [outsideCaches, '<caches>'],
  ];
  try {
    for (const command of dailyCommands(options.toolchains, registry.url).filter(options.pick ?? (() => true))) {
      const outsideStart = performance.now();
      const outside = await terminal.run({ command: command.command, cwd: outsideWs, env: outsideEnv, timeoutMs: 300_000, signal });
      const outsideMs = performance.now() - outsideStart;
      const insideStart = performance.now();
      // In the form run_command would pick for it (provenForms.ts).
      const prepared = await sandbox.wrap(command.command, insideWs, {
        ...provenForms(command.command, { cwd: insideWs, workspaceRoot: insideWs }),
        ask: async ({ host, port: asked }) => {
          prompts.push(`${command.command} → ${host}:${asked}`);
          return true;
        },
      });
      const inside = await terminal.run({
        command: prepared.command,
        cwd: insideWs,
        env: { ...prepared.env, ...SHARED_ENV, T: scratch },
        timeoutMs: 300_000,
        signal,
      });
      const outcome = prepared.finish(inside.output, inside.exitCode);
      const insideMs = performance.now() - insideStart;
      const a = normalize(outside.output, places);
      const b = normalize(outcome.output ?? inside.output, places);
      const result: CommandOutcome = {
        command,
        outside: { exitCode: outside.exitCode, output: a, ms: outsideMs },
        inside: { exitCode: inside.exitCode, output: b, ms: insideMs },
        hits: outcome.hits.map((hit) => `${hit.fence}: ${hit.target}`),
        notes: outcome.notes,
        identical: a === b && outside.exitCode === inside.exitCode && outcome.hits.length === 0,
      };
      outcomes.push(result);
      options.onOutcome?.(result);
    }
  } finally {
    terminal.dispose();
    await registry.close();
    fs.rmSync(scratch, { recursive: true, force: true });
    fs.rmSync('/tmp/dw-scratch.log', { force: true });
  }
  return { outcomes, prompts, toolchains: [...options.toolchains], sandbox };
}

/** A fresh folder for a run, outside /tmp (inside the fence /tmp is the session's own). */
export function runRoot(): string {
  fs.mkdirSync('/var/tmp', { recursive: true });
  return fs.realpathSync(fs.mkdtempSync(path.join('/var/tmp', `dw-${process.pid}-`)));
}

/** How a difference reads in the report. */
export function describeDifference(outcome: CommandOutcome): string {
  const lines = [`✗ [${outcome.command.group}] ${outcome.command.command}`];
  if (outcome.outside.exitCode !== outcome.inside.exitCode)
    lines.push(`  exit: outside ${outcome.outside.exitCode}, inside ${outcome.inside.exitCode}`);
  if (outcome.hits.length > 0) lines.push(`  fence hits: ${outcome.hits.join('; ')}`);
  if (outcome.outside.output !== outcome.inside.output) {
    const a = outcome.outside.output.split('\n');
    const b = outcome.inside.output.split('\n');
    for (let i = 0; i < Math.max(a.length, b.length) && lines.length < 14; i++) {
      if (a[i] !== b[i])
        lines.push(`  line ${i + 1}: outside ${JSON.stringify(a[i] ?? '')}`, `          inside  ${JSON.stringify(b[i] ?? '')}`);
    }
  }
  return lines.join('\n');
}
