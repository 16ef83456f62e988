/**
 * Environment and shell variables that change which program runs, or make a program run other
 * code than the one named: setting one of them (`PATH=./bin ls`, `env LD_PRELOAD=x.so cat`,
 * `export GIT_SSH_COMMAND=...`) means the command line cannot be pinned down.
 */

const EXACT = new Set([
  // Where programs, libraries and modules are found.
  'PATH',
  'CDPATH',
  'HOME',
  'GCONV_PATH',
  'HOSTALIASES',
  'NODE_OPTIONS',
  'NODE_PATH',
  'NODE_REPL_EXTERNAL_MODULE',
  'CLASSPATH',
  'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS',
  'JDK_JAVA_OPTIONS',
  'MAVEN_OPTS',
  'GRADLE_OPTS',
  'GOFLAGS',
  'RUSTC',
  'RUSTC_WRAPPER',
  'RUSTC_WORKSPACE_WRAPPER',
  'RUSTDOC',
  'RIPGREP_CONFIG_PATH',
  'GREP_OPTIONS',
  'CC',
  'CXX',
  'LD',
  'MAKEFLAGS',
  'MFLAGS',
  'MAKEFILES',
  'SHELL',
  'TERMINFO',
  'TERMINFO_DIRS',
  // Programs other programs start.
  'EDITOR',
  'VISUAL',
  'PAGER',
  'MANPAGER',
  'BROWSER',
  'SSH_ASKPASS',
  'SUDO_ASKPASS',
  'SUDO_EDITOR',
  'SYSTEMD_PAGER',
  // The shell's own start-up and parsing.
  'ENV',
  'IFS',
  'PROMPT_COMMAND',
  'PS0',
  'PS1',
  'PS2',
  'PS4',
  'SHELLOPTS',
  'GLOBIGNORE',
  'INPUTRC',
  'ZDOTDIR',
  'POSIXLY_CORRECT',
  'TMOUT',
  'EXECIGNORE',
  'OPTERR',
  'FUNCNEST',
]);

const PREFIXES = [
  'LD_',
  'DYLD_',
  'GIT_',
  'BASH_',
  'BASH',
  'PYTHON',
  'PERL',
  'RUBY',
  'GEM_',
  'BUNDLE_',
  'NPM_CONFIG_',
  'YARN_',
  'PNPM_',
  'CARGO_',
  'PIP_',
  'UV_',
  'LESS',
  'XDG_',
  'SSH_',
  'DOCKER_',
  'KUBECONFIG',
  'PHP',
  'LUA_',
  'R_PROFILE',
  'R_ENVIRON',
  'JULIA_',
  'DENO_',
  'BUN_',
  'TCL',
  'LUA',
];

/** Variables a project sets everyday and that run nothing by themselves. */
const KNOWN_HARMLESS = new Set([
  'PYTHONUNBUFFERED',
  'PYTHONDONTWRITEBYTECODE',
  'PYTHONIOENCODING',
  'PYTHONHASHSEED',
  'PYTHONUTF8',
  'CARGO_TERM_COLOR',
]);

/** True when setting `name` can change which program runs or what code it loads. */
export function isDangerousVariable(name: string): boolean {
  if (KNOWN_HARMLESS.has(name)) return false;
  if (EXACT.has(name)) return true;
  // npm reads its configuration from the environment in any letter case.
  if (name.toLowerCase().startsWith('npm_config_')) return true;
  return PREFIXES.some((prefix) => name.startsWith(prefix));
}
