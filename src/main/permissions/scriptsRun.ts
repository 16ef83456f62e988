import path from 'node:path';
import type { ScriptRun, ScriptStep } from '../../shared/scriptRun';
import type { SimpleCommand } from '../shell/commandAnalysis';

/**
 * What the runners of a command line run, read from the workspace's files: the package.json script
 * behind `npm test`, `npm run build`, `yarn lint`, `pnpm dev` (with the pre and post scripts the
 * package manager runs around it), the recipe behind `make` and `make build` (the default target when
 * none is named), and the options pytest's configuration adds (`addopts`, which can load plugins and
 * run code). For the request only: the rules judge the command line, never this.
 *
 * Files are read through `read` (a path relative to the workspace; undefined when there is none), so
 * the same reading works on the files as they are and as they were when the session started. What is
 * missing or malformed is said in `problem`; nothing here throws.
 */
export type ReadWorkspaceFile = (relative: string) => string | undefined;

export interface ScriptsRunOptions {
  /** Where the line runs, absolute. */
  cwd: string;
  workspaceRoot: string;
  read: ReadWorkspaceFile;
}

export function scriptsRun(commands: readonly SimpleCommand[], options: ScriptsRunOptions): ScriptRun[] {
  const runs: ScriptRun[] = [];
  for (const command of commands) {
    const run = runOf(command.argv, options);
    if (run && !runs.some((seen) => seen.command === run.command && seen.file === run.file)) runs.push(run);
  }
  return runs;
}

/**
 * Marks the steps that differ from what the same files said when the session started (`before`: the
 * same runs read from the session's first snapshot), and every step of a file the session wrote.
 */
export function markChanged(
  now: readonly ScriptRun[],
  before: readonly ScriptRun[],
  existedBefore: (file: string) => boolean,
): ScriptRun[] {
  return now.map((run) => {
    const then = before.find((old) => old.command === run.command && old.file === run.file);
    const created = !existedBefore(run.file);
    return {
      ...run,
      steps: run.steps.map((step) => {
        const old = then?.steps.find((candidate) => candidate.name === step.name);
        return created || !old || old.text !== step.text ? { ...step, changed: true } : step;
      }),
    };
  });
}

/** The runner commands a package manager runs a script with, besides `run <name>`. */
const NPM_SHORTHANDS = new Set(['test', 't', 'tst', 'start', 'stop', 'restart']);
/** yarn's and pnpm's own commands: any other first word names a script. */
const YARN_COMMANDS = new Set([
  'add',
  'audit',
  'autoclean',
  'bin',
  'cache',
  'check',
  'config',
  'constraints',
  'create',
  'dedupe',
  'dlx',
  'exec',
  'explain',
  'generate-lock-entry',
  'global',
  'help',
  'import',
  'info',
  'init',
  'install',
  'licenses',
  'link',
  'list',
  'login',
  'logout',
  'node',
  'npm',
  'outdated',
  'owner',
  'pack',
  'patch',
  'patch-commit',
  'plugin',
  'policies',
  'publish',
  'rebuild',
  'remove',
  'search',
  'set',
  'stage',
  'tag',
  'team',
  'unlink',
  'unplug',
  'up',
  'upgrade',
  'upgrade-interactive',
  'version',
  'versions',
  'why',
  'workspace',
  'workspaces',
]);
const PNPM_COMMANDS = new Set([
  'add',
  'audit',
  'bin',
  'config',
  'create',
  'dedupe',
  'deploy',
  'dlx',
  'doctor',
  'env',
  'exec',
  'fetch',
  'help',
  'i',
  'import',
  'init',
  'install',
  'install-test',
  'it',
  'licenses',
  'link',
  'list',
  'ln',
  'ls',
  'outdated',
  'pack',
  'patch',
  'patch-commit',
  'prune',
  'publish',
  'rb',
  'rebuild',
  'recursive',
  'remove',
  'rm',
  'root',
  'server',
  'setup',
  'store',
  'un',
  'uninstall',
  'unlink',
  'up',
  'update',
  'why',
]);

function runOf(argv: readonly string[], options: ScriptsRunOptions): ScriptRun | undefined {
  const [program, ...args] = argv;
  if (program === undefined) return undefined;
  const name = path.posix.basename(program);
  const words = args.filter((word) => !word.startsWith('-'));
  if (name === 'npm') {
    const [sub, script] = words;
    if (sub === 'run' || sub === 'run-script' || sub === 'rum' || sub === 'urn')
      return script ? packageScript('npm', script, options) : undefined;
    if (sub && NPM_SHORTHANDS.has(sub)) return packageScript('npm', sub === 't' || sub === 'tst' ? 'test' : sub, options, `npm ${sub}`);
    return undefined;
  }
  if (name === 'yarn' || name === 'pnpm') {
    const [sub, script] = words;
    if (sub === undefined) return undefined;
    if (sub === 'run') return script ? packageScript(name, script, options) : undefined;
    const own = name === 'yarn' ? YARN_COMMANDS : PNPM_COMMANDS;
    return own.has(sub) ? undefined : packageScript(name, sub, options, `${name} ${sub}`);
  }
  if (name === 'make' || name === 'gmake') return makeRecipe(name, args, options);
  if (name === 'pytest' || name === 'py.test') return pytestOptions(name, options);
  if (/^python(\d(\.\d+)?)?$/.test(name) && args[0] === '-m' && args[1] === 'pytest') return pytestOptions(`${name} -m pytest`, options);
  return undefined;
}

/** The nearest file of that name from `cwd` up to the workspace's root (a package manager looks up for package.json too). */
function nearest(names: readonly string[], options: ScriptsRunOptions): { file: string; text: string } | undefined {
  let folder = path.relative(options.workspaceRoot, options.cwd);
  if (folder.startsWith('..') || path.isAbsolute(folder)) folder = '';
  for (;;) {
    for (const name of names) {
      const file = folder ? path.posix.join(folder.split(path.sep).join('/'), name) : name;
      const text = options.read(file);
      if (text !== undefined) return { file, text };
    }
    if (!folder) return undefined;
    const up = path.dirname(folder);
    folder = up === '.' ? '' : up;
  }
}

function packageScript(manager: string, script: string, options: ScriptsRunOptions, shown = `${manager} run ${script}`): ScriptRun {
  const found = nearest(['package.json'], options);
  if (!found)
    return { command: shown, file: 'package.json', steps: [], problem: 'there is no package.json here, so it is not known what it runs' };
  let scripts: Record<string, unknown>;
  try {
    const parsed = JSON.parse(found.text) as { scripts?: unknown };
    scripts = parsed && typeof parsed.scripts === 'object' && parsed.scripts !== null ? (parsed.scripts as Record<string, unknown>) : {};
  } catch (error) {
    return { command: shown, file: found.file, steps: [], problem: `${found.file} is not valid JSON (${(error as Error).message})` };
  }
  const body = scripts[script];
  // npm test and npm start have defaults of their own when package.json names none.
  if (typeof body !== 'string') {
    const fallback = script === 'start' ? 'node server.js (npm’s default)' : undefined;
    if (!fallback) return { command: shown, file: found.file, steps: [], problem: `${found.file} has no "${script}" script` };
    return { command: shown, file: found.file, steps: [{ name: script, text: fallback }] };
  }
  const steps: ScriptStep[] = [];
  for (const name of [`pre${script}`, script, `post${script}`]) {
    const text = scripts[name];
    if (typeof text === 'string') steps.push({ name, text });
  }
  return { command: shown, file: found.file, steps };
}

function makeRecipe(name: string, args: readonly string[], options: ScriptsRunOptions): ScriptRun {
  let makefile: string | undefined;
  let folder = options.cwd;
  const targets: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === '-f' || arg === '--file' || arg === '--makefile') makefile = args[++index];
    else if (arg.startsWith('--file=') || arg.startsWith('--makefile=')) makefile = arg.slice(arg.indexOf('=') + 1);
    else if (arg === '-C' || arg === '--directory') folder = path.resolve(folder, args[++index] ?? '.');
    else if (arg.startsWith('--directory=')) folder = path.resolve(folder, arg.slice('--directory='.length));
    else if (/^-[jlo]$|^-[IW]$/.test(arg)) index++;
    else if (!arg.startsWith('-') && !arg.includes('=')) targets.push(arg);
  }
  const shown = [name, ...targets].join(' ');
  const where = { ...options, cwd: folder };
  const relative = (file: string) => path.relative(options.workspaceRoot, path.resolve(folder, file)).split(path.sep).join('/');
  const found = makefile
    ? ((text) => (text === undefined ? undefined : { file: relative(makefile), text }))(options.read(relative(makefile)))
    : firstOf(['GNUmakefile', 'makefile', 'Makefile'].map(relative), where);
  if (!found)
    return {
      command: shown,
      file: makefile ? relative(makefile) : relative('Makefile'),
      steps: [],
      problem: 'there is no Makefile here, so it is not known what it runs',
    };
  const parsed = readMakefile(found.text);
  const wanted = targets.length > 0 ? targets : parsed.first ? [parsed.first] : [];
  if (wanted.length === 0)
    return { command: shown, file: found.file, steps: [], problem: `${found.file} names no target to run by default` };
  const steps: ScriptStep[] = [];
  const missing: string[] = [];
  for (const target of wanted) {
    const rule = parsed.rules.get(target);
    if (!rule) {
      missing.push(target);
      continue;
    }
    const needs = rule.prerequisites.length > 0 ? ` (first: ${rule.prerequisites.join(' ')})` : '';
    steps.push({ name: `${target}:${needs}`, text: rule.recipe.length > 0 ? rule.recipe.join('\n') : '(no recipe of its own)' });
  }
  return {
    command: targets.length > 0 ? shown : `${shown} (default target ${wanted[0]})`,
    file: found.file,
    steps,
    ...(missing.length > 0
      ? { problem: `${found.file} has no rule for ${missing.join(', ')} (it may come from a pattern or an include)` }
      : {}),
    ...(parsed.includes ? { note: 'it includes other makefiles, whose rules are not shown; variables are not expanded' } : {}),
  };
}

function firstOf(files: readonly string[], options: ScriptsRunOptions): { file: string; text: string } | undefined {
  for (const file of files) {
    const text = options.read(file);
    if (text !== undefined) return { file, text };
  }
  return undefined;
}

interface MakeRule {
  prerequisites: string[];
  recipe: string[];
}

/** Explicit rules and their recipes, as written; the first target that is not special or a pattern is the default. */
function readMakefile(text: string): { rules: Map<string, MakeRule>; first?: string; includes: boolean } {
  const rules = new Map<string, MakeRule>();
  let first: string | undefined;
  let includes = false;
  let current: MakeRule[] = [];
  const lines = text.replace(/\\\r?\n/g, ' ').split(/\r?\n/);
  for (const line of lines) {
    if (line.startsWith('\t')) {
      for (const rule of current) rule.recipe.push(line.slice(1).trim());
      continue;
    }
    if (/^\s*(-?include|sinclude)\s/.test(line)) includes = true;
    const rule = /^([^\s:=#][^:=#]*?)\s*::?(?!=)\s*([^=;#]*?)\s*(?:;\s*(.*))?$/.exec(line);
    if (!rule || /^\s*(ifn?eq|ifn?def|else|endif|define|endef|export|override)\b/.test(line)) {
      if (line.trim() !== '' && !line.trim().startsWith('#')) current = [];
      continue;
    }
    const names = rule[1]!.trim().split(/\s+/);
    const made: MakeRule = { prerequisites: rule[2] ? rule[2].split(/\s+/).filter(Boolean) : [], recipe: rule[3] ? [rule[3].trim()] : [] };
    current = [];
    for (const target of names) {
      const existing = rules.get(target);
      const entry = existing ?? made;
      if (existing) existing.prerequisites.push(...made.prerequisites);
      else rules.set(target, made);
      current.push(entry);
      if (first === undefined && !target.startsWith('.') && !target.includes('%')) first = target;
    }
  }
  return { rules, first, includes };
}

/** pytest's configuration files, in the order it looks for them, with the section that holds its options. */
const PYTEST_CONFIGS: ReadonlyArray<{ file: string; section: string; toml?: true }> = [
  { file: 'pytest.ini', section: 'pytest' },
  { file: '.pytest.ini', section: 'pytest' },
  { file: 'pyproject.toml', section: 'tool.pytest.ini_options', toml: true },
  { file: 'tox.ini', section: 'pytest' },
  { file: 'setup.cfg', section: 'tool:pytest' },
];

/** What pytest adds from its configuration (`addopts`: options on every run, `-p` plugins among them), and its conftest.py. */
function pytestOptions(shown: string, options: ScriptsRunOptions): ScriptRun | undefined {
  for (const config of PYTEST_CONFIGS) {
    const found = nearest([config.file], options);
    if (!found) continue;
    const section = config.toml ? tomlSection(found.text, config.section) : iniSection(found.text, config.section);
    // pyproject.toml and setup.cfg count only with pytest's section; pytest.ini always does.
    if (section === undefined && config.file !== 'pytest.ini' && config.file !== '.pytest.ini') continue;
    if (section === null)
      return {
        command: shown,
        file: found.file,
        steps: [],
        problem: `${found.file} could not be read as ${config.toml ? 'TOML' : 'an ini file'}`,
      };
    const steps: ScriptStep[] = [];
    for (const key of ['addopts', 'required_plugins']) {
      const value = section?.get(key);
      if (value) steps.push({ name: key, text: value });
    }
    const conftest = options.read(found.file.includes('/') ? `${path.posix.dirname(found.file)}/conftest.py` : 'conftest.py') !== undefined;
    return {
      command: shown,
      file: found.file,
      steps,
      ...(steps.length === 0 ? { note: 'its configuration adds no options' } : {}),
      ...(conftest
        ? { note: `conftest.py runs too (${steps.length === 0 ? 'the configuration adds no options' : 'it is Python, read it'})` }
        : {}),
    };
  }
  return undefined;
}

/** An ini file's section as key → value (continuation lines joined); undefined when absent, null when unreadable. */
function iniSection(text: string, name: string): Map<string, string> | undefined | null {
  const values = new Map<string, string>();
  let inside = false;
  let seen = false;
  let key: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const header = /^\s*\[([^\]]+)\]\s*$/.exec(raw);
    if (header) {
      inside = header[1]!.trim() === name;
      seen ||= inside;
      key = undefined;
      continue;
    }
    if (!inside || /^\s*[#;]/.test(raw) || raw.trim() === '') continue;
    if (/^\s/.test(raw) && key) {
      values.set(key, `${values.get(key)} ${raw.trim()}`.trim());
      continue;
    }
    const pair = /^([^=:]+)[=:](.*)$/.exec(raw);
    if (!pair) return null;
    key = pair[1]!.trim();
    values.set(key, pair[2]!.trim());
  }
  return seen ? values : undefined;
}

/** The strings and string arrays of one TOML table (enough for pytest's options); undefined when absent, null when unreadable. */
function tomlSection(text: string, name: string): Map<string, string> | undefined | null {
  const values = new Map<string, string>();
  const lines = text.split(/\r?\n/);
  let inside = false;
  let seen = false;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!.trim();
    const header = /^\[([^\]]+)\]$/.exec(line);
    if (header) {
      inside = header[1]!.trim() === name;
      seen ||= inside;
      continue;
    }
    if (!inside || line === '' || line.startsWith('#')) continue;
    const pair = /^([A-Za-z0-9_.-]+)\s*=\s*(.*)$/.exec(line);
    if (!pair) return null;
    let value = pair[2]!;
    if (value.startsWith('[') && !value.includes(']')) {
      while (index + 1 < lines.length && !value.includes(']')) value += ` ${lines[++index]!.trim()}`;
    }
    const strings = [...value.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g)].map((match) => match[1] ?? match[2] ?? '');
    values.set(pair[1]!, value.startsWith('[') || strings.length > 0 ? strings.join(' ') : value);
  }
  return seen ? values : undefined;
}
