/**
 * Files in a project that the person's own tools run by themselves, later, outside any sandbox: an
 * editor opening the folder, git committing, a shell entering it, a package manager installing. What
 * the agent writes there is a way out of the fence that waits for the person's next ordinary action,
 * so such a write asks in every mode, before it happens, saying what would run it and when.
 *
 * One table, read by the built-in rules (permissions/defaultRules.ts). Each entry names the tool that
 * runs the file and where that tool documents it. A pattern is a path rule's specifier
 * (permissions/ruleMatchPath.ts): no slash is a name at any depth, and a folder covers what is in it.
 *
 * Left out on purpose: CI configuration (`.github/workflows`, `.gitlab-ci.yml`), which runs when the
 * person pushes, not by itself; and the project's own code and build files (Makefile, conftest.py,
 * setup.py, eslint.config.js), which run only when the person runs them and which the agent is there to
 * change. `package.json` is judged by what a change does to its lifecycle scripts (lifecycleScriptChange).
 */
export interface AutorunFile {
  /** Path rule specifier. */
  pattern: string;
  /** What runs it and when, completing "… outside any sandbox". */
  runs: string;
  /** Where the tool documents the behaviour. */
  source: string;
}

export const AUTORUN_FILES: readonly AutorunFile[] = [
  {
    pattern: '.vscode',
    runs: 'VS Code runs the tasks marked to run on folder open, and programs its settings and launch configurations name, when you open this folder',
    source: 'https://code.visualstudio.com/docs/debugtest/tasks#_run-behavior',
  },
  {
    pattern: '.idea',
    runs: 'JetBrains IDEs run its startup tasks, run configurations and external tools when you open or run this project',
    source: 'https://www.jetbrains.com/help/idea/settings-tools-startup-tasks.html',
  },
  {
    pattern: '.zed',
    runs: 'Zed runs the tasks and language-server binaries it names when you open this folder',
    source: 'https://zed.dev/docs/tasks',
  },
  {
    pattern: '.devcontainer',
    runs: 'Dev Containers run its initializeCommand on your machine (and its other commands) when you reopen the folder in a container',
    source: 'https://containers.dev/implementors/json_reference/#lifecycle-scripts',
  },
  {
    pattern: '.devcontainer.json',
    runs: 'Dev Containers run its initializeCommand on your machine when you reopen the folder in a container',
    source: 'https://containers.dev/implementors/spec/#devcontainerjson',
  },
  {
    pattern: '.husky',
    runs: 'git runs these hooks on your next commit, checkout or push (husky points core.hooksPath here)',
    source: 'https://typicode.github.io/husky/how-to.html',
  },
  {
    pattern: '.pre-commit-config.yaml',
    runs: 'pre-commit runs the hooks it lists (local ones are any command) on your next commit',
    source: 'https://pre-commit.com/#repository-local-hooks',
  },
  {
    pattern: '{.,}lefthook{,-local}.{yml,yaml,json,jsonc,toml}',
    runs: 'lefthook runs the commands it lists on your next commit or push',
    source: 'https://lefthook.dev/configuration/',
  },
  {
    pattern: '.lefthook',
    runs: 'lefthook runs the scripts in it on your next commit or push',
    source: 'https://lefthook.dev/configuration/source_dir.html',
  },
  {
    // Runs nothing, but decides where the person's own next push sends their files: the same way out,
    // waiting for the same ordinary action.
    pattern: '.lfsconfig',
    runs: 'git-lfs sends your large files to the address it names (lfs.url, lfs.pushurl) on your next git push',
    source: 'https://github.com/git-lfs/git-lfs/blob/main/docs/man/git-lfs-config.adoc#lfsconfig',
  },
  {
    pattern: '.envrc',
    runs: 'direnv runs it in your shell when you next enter this folder (once allowed)',
    source: 'https://direnv.net/man/direnv-stdlib.1.html',
  },
  {
    pattern: '{.,}mise{,.local}.toml',
    runs: 'mise runs its hooks and the scripts its environment sources when you next enter this folder',
    source: 'https://mise.jdx.dev/hooks.html',
  },
  {
    pattern: '.npmrc',
    runs: 'npm reads it on every npm command in this project (script-shell and node-options name programs npm starts)',
    source: 'https://docs.npmjs.com/cli/v10/using-npm/config#script-shell',
  },
  {
    pattern: '.yarnrc.yml',
    runs: 'Yarn runs the file its yarnPath names, and its plugins, on every yarn command in this project',
    source: 'https://yarnpkg.com/configuration/yarnrc#yarnPath',
  },
  {
    pattern: '.yarnrc',
    runs: 'Yarn 1 runs the file its yarn-path names on every yarn command in this project',
    source: 'https://classic.yarnpkg.com/en/docs/yarnrc#toc-yarn-path',
  },
  {
    pattern: '/.yarn/{releases,plugins}',
    runs: 'Yarn runs these files (the release yarnPath names, the plugins) on every yarn command in this project',
    source: 'https://yarnpkg.com/configuration/yarnrc#plugins',
  },
  {
    pattern: '.pnpmfile.cjs',
    runs: 'pnpm runs its hooks on your next pnpm install',
    source: 'https://pnpm.io/pnpmfile',
  },
  {
    pattern: 'binding.gyp',
    runs: 'npm compiles it with node-gyp (which can run commands) on your next npm install when no install script is set',
    source: 'https://docs.npmjs.com/cli/v10/configuring-npm/package-json#scripts',
  },
  {
    pattern: '.claude',
    runs: 'Claude Code runs the hooks, status line and MCP servers its settings name when you next use it in this folder',
    source: 'https://docs.claude.com/en/docs/claude-code/hooks',
  },
  {
    pattern: '.mcp.json',
    runs: 'Claude Code starts the MCP servers it lists when you next use it in this folder',
    source: 'https://docs.claude.com/en/docs/claude-code/mcp#project-scope',
  },
  {
    pattern: '.cursor',
    runs: 'Cursor starts the MCP servers and runs the hooks it lists when you next open this folder',
    source: 'https://cursor.com/docs/context/mcp',
  },
  {
    pattern: '.gemini',
    runs: 'Gemini CLI starts the MCP servers and runs the hooks its settings name when you next use it in this folder',
    source: 'https://github.com/google-gemini/gemini-cli/blob/main/docs/get-started/configuration.md',
  },
  {
    pattern: '{.,}opencode.json{,c}',
    runs: 'opencode starts the MCP servers and runs the commands it names when you next use it in this folder',
    source: 'https://opencode.ai/docs/config/',
  },
  {
    pattern: '{.exrc,.vimrc,.nvimrc,.nvim.lua}',
    runs: "Vim and Neovim run it when you start them in this folder with 'exrc' set",
    source: 'https://neovim.io/doc/user/options.html#%27exrc%27',
  },
  {
    pattern: '.dir-locals{,-2}.el',
    runs: 'Emacs evaluates its eval forms when you next open a file in this folder (after asking, or not, per your settings)',
    source: 'https://www.gnu.org/software/emacs/manual/html_node/emacs/Directory-Variables.html',
  },
];

/**
 * npm's lifecycle scripts: what `npm install`, `npm ci`, `npm rebuild`, `npm pack` and `npm publish`
 * run by themselves (pnpm and Yarn run the same install ones). `dependencies` runs after any change
 * to node_modules. https://docs.npmjs.com/cli/v10/using-npm/scripts#life-cycle-scripts
 */
const LIFECYCLE_SCRIPTS: readonly string[] = [
  'preinstall',
  'install',
  'postinstall',
  'prepublish',
  'preprepare',
  'prepare',
  'postprepare',
  'prepack',
  'postpack',
  'prepublishOnly',
  'publish',
  'postpublish',
  'preuninstall',
  'uninstall',
  'postuninstall',
  'dependencies',
];

/**
 * The lifecycle scripts a change to a package.json adds, changes or makes reachable, as
 * `postinstall` names; empty when it leaves them as they were (an ordinary edit). Text that is not a
 * JSON object after the change cannot be judged: it counts as changing every script it might hold.
 */
export function lifecycleScriptChange(before: string | null, after: string): string[] {
  const old = lifecycleScripts(before);
  const next = lifecycleScripts(after);
  if (next === undefined) return ['(any script: the file is no longer a JSON object)'];
  return LIFECYCLE_SCRIPTS.filter((name) => next[name] !== undefined && next[name] !== old?.[name]);
}

function lifecycleScripts(text: string | null): Record<string, string> | undefined {
  if (text === null) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const scripts = (parsed as { scripts?: unknown }).scripts;
  const found: Record<string, string> = {};
  if (scripts === null || typeof scripts !== 'object' || Array.isArray(scripts)) return found;
  for (const name of LIFECYCLE_SCRIPTS) {
    const value = (scripts as Record<string, unknown>)[name];
    // npm runs what it finds under the name; a value that is not a string is still "something there".
    if (value !== undefined) found[name] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return found;
}
