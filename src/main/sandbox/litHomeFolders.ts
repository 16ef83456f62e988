import fs from 'node:fs';
import path from 'node:path';
import { isInside } from '../workspace/filePaths';
import { HOME_CREDENTIAL_STORES } from '../workspace/secretPlaces';

/**
 * What of the person's home folder a sandboxed command sees: the toolchains' installations, and
 * nothing else (darkHome.ts hides the rest). An installation holds programs and libraries, not
 * credentials; where a tool keeps both in one folder (cargo's `~/.cargo` holds `credentials.toml`
 * beside `bin/`), only the programs' part is lit. Caches are not here: commands use Tether's
 * (toolchainCaches.ts). Each line says what needs the folder.
 */
export const LIT_HOME_FOLDERS: ReadonlyArray<{ path: string; why: string }> = [
  { path: '.nvm', why: 'nvm: Node versions and the npm and npx that come with them' },
  { path: '.fnm', why: 'fnm: Node versions' },
  { path: '.local/share/fnm', why: 'fnm (XDG layout): Node versions' },
  { path: '.nodenv', why: 'nodenv: Node versions' },
  { path: '.volta', why: 'Volta: Node, npm, yarn and the tools it pins' },
  { path: '.npm-global', why: 'the npm prefix people set for global installs without sudo' },
  { path: '.bun/bin', why: 'Bun: the bun executable (not its install cache)' },
  { path: '.deno/bin', why: 'Deno: the deno executable and `deno install`ed tools' },
  { path: '.pyenv', why: 'pyenv: Python versions, their shims and site-packages' },
  { path: '.local/bin', why: 'pip --user, pipx, uv tool and many installers put executables here' },
  { path: '.local/lib', why: 'Python’s user site-packages (pip install --user)' },
  { path: '.local/share/pipx', why: 'pipx: the virtual environments ~/.local/bin links into' },
  { path: '.local/pipx', why: 'pipx (older layout): its virtual environments' },
  { path: '.local/share/uv', why: 'uv: the Pythons and tools `uv python install` and `uv tool install` keep' },
  { path: '.pixi/bin', why: 'pixi: its executable and global tools' },
  { path: 'miniconda3', why: 'Miniconda: Python and conda environments' },
  { path: 'miniforge3', why: 'Miniforge: Python and conda environments' },
  { path: 'anaconda3', why: 'Anaconda: Python and conda environments' },
  { path: '.cargo/bin', why: 'rustup’s proxies (cargo, rustc) and `cargo install`ed programs, not cargo’s credentials' },
  { path: '.rustup', why: 'rustup: the Rust toolchains the proxies run' },
  { path: 'go', why: 'Go: GOPATH’s bin and the person’s module cache, read only (builds use Tether’s)' },
  { path: '.go', why: 'Go installed in the home folder' },
  { path: 'sdk', why: 'Go versions installed with `go install golang.org/dl/…`' },
  { path: '.goenv', why: 'goenv: Go versions' },
  { path: '.sdkman', why: 'SDKMAN!: JDKs, Gradle, Maven, Kotlin' },
  { path: '.jdks', why: 'JDKs IntelliJ downloads' },
  { path: '.jenv', why: 'jenv: JDK versions' },
  { path: '.rbenv', why: 'rbenv: Ruby versions and their gems' },
  { path: '.rvm', why: 'RVM: Ruby versions and their gems' },
  { path: '.asdf', why: 'asdf: every tool version it manages, and its shims' },
  { path: '.local/share/mise', why: 'mise: tool versions and shims' },
  { path: '.ghcup', why: 'GHCup: GHC, cabal and stack' },
  { path: '.cabal/bin', why: 'cabal-installed Haskell programs' },
  { path: '.opam', why: 'opam: OCaml switches' },
  { path: '.elan', why: 'elan: Lean toolchains' },
  { path: '.juliaup', why: 'juliaup: Julia versions' },
  { path: '.dotnet', why: '.NET SDKs installed with dotnet-install' },
  { path: '.linuxbrew', why: 'Homebrew on Linux in the home folder' },
  { path: '.cache/ms-playwright', why: 'Playwright’s browsers (PLAYWRIGHT_BROWSERS_PATH points here)' },
  { path: '.cache/Cypress', why: 'Cypress’s binary (CYPRESS_CACHE_FOLDER points here)' },
  { path: '.cache/puppeteer', why: 'Puppeteer’s browsers (PUPPETEER_CACHE_DIR points here)' },
  { path: '.config/git/ignore', why: 'git’s default global ignore file: files ignored outside stay ignored by `git add -A` inside' },
  { path: '.config/git/attributes', why: 'git’s default global attributes file' },
];

/**
 * Variables that name where a toolchain is installed: when one points into the home folder, that
 * folder is lit too (an installation kept somewhere the table does not list). CARGO_HOME and
 * GOPATH are not here: cargo keeps credentials in its home, and both are Tether's inside the fence.
 */
const INSTALLATION_VARIABLES = [
  'NVM_DIR',
  'PYENV_ROOT',
  'RUSTUP_HOME',
  'GOROOT',
  'SDKMAN_DIR',
  'VOLTA_HOME',
  'BUN_INSTALL',
  'DENO_INSTALL',
  'ASDF_DATA_DIR',
  'RBENV_ROOT',
  'JAVA_HOME',
  'CONDA_PREFIX',
];

/**
 * Folders and files that hold credentials, or whose settings may: never lit, whatever a table, a
 * variable, PATH or the person names. The built-in read fence's stores, and more that other agents,
 * browsers and tools keep.
 */
const NEVER_LIT: readonly string[] = [
  ...HOME_CREDENTIAL_STORES,
  '.claude',
  '.claude.json',
  '.codex',
  '.config/github-copilot',
  '.local/share/keyrings',
  '.password-store',
  '.mozilla',
  '.config/google-chrome',
  '.config/chromium',
  '.config/BraveSoftware',
  '.bash_history',
  '.zsh_history',
  '.python_history',
  '.psql_history',
  '.mysql_history',
  '.m2',
  '.gradle',
  '.my.cnf',
  '.yarnrc.yml',
  '.config/rclone',
  '.databrickscfg',
  '.boto',
  '.s3cfg',
  '.oci',
  '.cargo/config.toml',
  '.cargo/config',
  '.gitconfig',
  '.config/git/config',
];

/** A lit place: the host path bound read-only at `dest` inside the fence (the same path, or a derived file). */
export interface LitPlace {
  source: string;
  dest: string;
}

/** Why an entry the person wants lit is refused, or undefined when it may be lit. */
export function litEntryRefusal(entry: string, home: string): string | undefined {
  const absolute = entry === '~' ? home : entry.startsWith('~/') ? path.join(home, entry.slice(2)) : entry;
  if (!path.isAbsolute(absolute)) return `"${entry}" is not a path in the home folder: write it as ~/folder or ${home}/folder.`;
  const resolved = path.resolve(absolute);
  if (resolved === path.resolve(home)) return 'The whole home folder cannot be lit: name the folders a tool needs (~/.nvm, ~/.local/bin).';
  if (!isInside(resolved, home)) return `${entry} is outside the home folder (${home}); only what is in it is dark.`;
  const store = NEVER_LIT.find((secret) => {
    const place = path.join(home, secret);
    return isInside(resolved, place) || isInside(place, resolved);
  });
  if (store) return `${entry} would light ~/${store}, which holds credentials; it stays dark.`;
  return undefined;
}

/**
 * The places to light for this home: the table's, the installations variables and PATH name, and
 * what the person lit for the project; each where it exists. A place whose real path leads out of
 * what is lit into the dark home (a link from ~/.local/bin to ~/.ssh) is left dark: bubblewrap binds
 * where a link leads, so lighting it would light its target.
 */
export function litHomePlaces(
  home: string,
  env: Readonly<Record<string, string | undefined>>,
  personLit: readonly string[] = [],
): LitPlace[] {
  const candidates = [
    ...LIT_HOME_FOLDERS.map((entry) => path.join(home, entry.path)),
    ...INSTALLATION_VARIABLES.map((name) => env[name]).filter((value): value is string => Boolean(value) && path.isAbsolute(value!)),
    ...(env.PATH ?? '').split(':').filter((entry) => path.isAbsolute(entry)),
    ...personLit.map((entry) => (entry.startsWith('~/') ? path.join(home, entry.slice(2)) : entry)),
  ]
    .map((entry) => path.resolve(entry))
    .filter((entry) => isInside(entry, home) && litEntryRefusal(entry, home) === undefined);
  const unique = [...new Set(candidates)];
  const realHome = realPath(home) ?? home;
  // Where each place would be with no link on the way: a link leading to another lit place stays lit.
  const natural = (entry: string) => path.join(realHome, path.relative(home, entry));
  const places: LitPlace[] = [];
  for (const dest of unique) {
    const real = realPath(dest);
    if (real === undefined) continue;
    if (isInside(real, realHome)) {
      const inHome = path.join(home, path.relative(realHome, real));
      const reachesLit = real === natural(dest) || unique.some((lit) => lit !== dest && isInside(real, natural(lit)));
      if (!reachesLit || litEntryRefusal(inHome, home) !== undefined) continue;
    }
    places.push({ source: real, dest });
  }
  // Outer folders first, so a lit folder inside another is bound on top of it; one that shows just
  // what the outer one shows there (~/.pyenv/shims inside ~/.pyenv) is not bound again: a mount costs
  // every command (bubblewrap reads the mount table for each, apply-seccomp copies them all).
  const outerFirst = places.sort((a, b) => a.dest.length - b.dest.length);
  return outerFirst.filter(
    (place) =>
      !outerFirst.some(
        (outer) =>
          outer !== place &&
          isInside(place.dest, outer.dest) &&
          place.source === path.join(outer.source, path.relative(outer.dest, place.dest)),
      ),
  );
}

function realPath(target: string): string | undefined {
  try {
    return fs.realpathSync(target);
  } catch {
    return undefined;
  }
}
