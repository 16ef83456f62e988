import path from 'node:path';
import { partRiskRank, type CommandPart, type PartEffect } from '../../shared/commandParts';
import type { SimpleCommand } from './commandAnalysis';
import { publishes } from './sendsData';
import { isTransparentWrapper } from './wrapperSpecs';

/**
 * Each part of a command line in words a person weighs: "curl sends out.txt to example.com",
 * "rm deletes out.txt", "tee writes out.txt", "npm test runs code". Read from what the shell
 * analysis found (the program after its wrappers, its arguments, the files its redirections write
 * and read), never from the raw line. It explains a request; the engine's verdict never reads it.
 */
export function describeParts(commands: readonly SimpleCommand[]): CommandPart[] {
  return commands.map((command) => {
    const redirects = redirectEffects(command);
    // A reader whose output a redirection writes to a file does not "only read": the redirection says what it writes.
    const program = programEffects(command).filter((effect) => !(redirects.length > 0 && effect.text.endsWith(ONLY_READS)));
    const effects = dedupe([...program, ...redirects]);
    if (effects.length === 0) effects.push({ risk: 'runs', text: `${named(command)} runs code` });
    effects.sort((a, b) => partRiskRank(b.risk) - partRiskRank(a.risk));
    return { words: [...command.argv], risk: effects[0]!.risk, effects };
  });
}

/** How a program that changes nothing is described; a redirection of its output makes it untrue. */
const ONLY_READS = ' only reads';

/** The most names an effect lists before it says how many more there are. */
const MAX_NAMED = 3;

/** Devices a redirection or a tee writes to without keeping anything. */
const NOT_FILES = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty', '-']);

type Describe = (command: SimpleCommand, args: readonly string[]) => PartEffect[];

/** Programs that delete what their operands name. */
export const DELETERS = new Set(['rm', 'rmdir', 'unlink', 'shred']);

/** Programs that change the files their operands name, as a verb phrase. */
export const CHANGERS: Record<string, string> = {
  mkdir: 'creates',
  touch: 'touches',
  chmod: 'changes the mode of',
  chown: 'changes the owner of',
  chgrp: 'changes the group of',
  truncate: 'truncates',
};

/** Remote shells and raw sockets: what they connect to is the first operand, a port may follow. */
const SOCKETS = new Set(['nc', 'ncat', 'netcat', 'telnet']);

/** Options whose value is the next word, per program, so it is not taken for an operand. */
const VALUE_OPTIONS: Record<string, ReadonlySet<string>> = {
  curl: new Set([
    '-d',
    '--data',
    '--data-binary',
    '--data-raw',
    '--data-ascii',
    '--data-urlencode',
    '-F',
    '--form',
    '--form-string',
    '-H',
    '--header',
    '-X',
    '--request',
    '-o',
    '--output',
    '-T',
    '--upload-file',
    '-u',
    '--user',
    '-A',
    '--user-agent',
    '-e',
    '--referer',
    '-b',
    '--cookie',
    '-c',
    '--cookie-jar',
    '--json',
    '-x',
    '--proxy',
    '-w',
    '--write-out',
    '-m',
    '--max-time',
    '--connect-timeout',
    '-K',
    '--config',
    '-r',
    '--range',
    '--retry',
    '-E',
    '--cert',
    '--key',
    '--cacert',
    '--url',
  ]),
  wget: new Set([
    '-O',
    '--output-document',
    '-o',
    '--output-file',
    '-P',
    '--directory-prefix',
    '-U',
    '--user-agent',
    '--header',
    '--post-data',
    '--post-file',
    '--body-data',
    '--body-file',
    '--method',
    '-t',
    '--tries',
    '-T',
    '--timeout',
    '-i',
    '--input-file',
  ]),
  ssh: new Set(['-b', '-c', '-D', '-E', '-e', '-F', '-I', '-i', '-J', '-L', '-l', '-m', '-O', '-o', '-p', '-Q', '-R', '-S', '-W', '-w']),
  scp: new Set(['-c', '-F', '-i', '-J', '-l', '-o', '-P', '-S']),
  rsync: new Set([
    '-e',
    '--rsh',
    '--exclude',
    '--include',
    '--filter',
    '-f',
    '--port',
    '--password-file',
    '--log-file',
    '--chmod',
    '--rsync-path',
  ]),
  nc: new Set(['-p', '-s', '-w', '-i', '-q', '-x', '-X', '-e', '-c', '-O', '-I', '-T', '-V']),
  git: new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path']),
  sed: new Set(['-e', '--expression', '-f', '--file', '-l', '--line-length']),
};
VALUE_OPTIONS.ncat = VALUE_OPTIONS.nc!;
VALUE_OPTIONS.netcat = VALUE_OPTIONS.nc!;

const describers: Record<string, Describe> = {
  curl: curlEffects,
  wget: wgetEffects,
  scp: copyOverNetwork,
  rsync: copyOverNetwork,
  sftp: (command, args) => [{ risk: 'sends', text: `${named(command)} connects to ${hostOf(operands(command, args)[0]) ?? 'a server'}` }],
  ftp: (command, args) => [{ risk: 'sends', text: `${named(command)} connects to ${operands(command, args)[0] ?? 'a server'}` }],
  ssh: sshEffects,
  git: gitEffects,
  tee: (command, args) => {
    const files = operands(command, args).filter((file) => !NOT_FILES.has(file));
    return files.length
      ? [
          {
            risk: 'writes',
            text: `${named(command)} ${args.some((a) => /^-[a-z]*a|^--append$/.test(a)) ? 'appends to' : 'writes'} ${list(files)}`,
          },
        ]
      : [];
  },
  cp: (command, args) => copyLike(command, args, 'copies', 'to'),
  mv: (command, args) => copyLike(command, args, 'moves', 'to'),
  ln: (command, args) => copyLike(command, args, 'links', 'as'),
  install: (command, args) => copyLike(command, args, 'installs', 'as'),
  find: (command, args) =>
    args.includes('-delete')
      ? [{ risk: 'deletes', text: `${named(command)} deletes what it finds in ${list(operandsBeforeExpression(args)) || '.'}` }]
      : [],
  sed: (command, args) => inPlace(command, args),
  perl: (command, args) =>
    args.some((a) => /^-[a-zA-Z]*i/.test(a)) ? [{ risk: 'writes', text: `${named(command)} edits files in place` }] : [],
  dd: (command, args) => {
    const out = args.find((a) => a.startsWith('of='))?.slice(3);
    return out ? [{ risk: 'writes', text: `${named(command)} writes ${out}` }] : [];
  },
  npm: packageManager,
  pnpm: packageManager,
  yarn: packageManager,
  docker: (command, args) =>
    args[0] === 'push' ? [{ risk: 'sends', text: `${named(command)} push sends ${args[1] ?? 'an image'} to its registry` }] : [],
};

function programEffects(command: SimpleCommand): PartEffect[] {
  const program = command.argv[0];
  if (program === undefined) return [];
  const base = path.posix.basename(program);
  const args = command.argv.slice(1);
  if (DELETERS.has(base)) {
    const targets = operands(command, args);
    return [
      {
        risk: 'deletes',
        text: `${named(command)} deletes ${targets.length ? list(targets) : appended(command) ? 'the files named in its input' : 'nothing it names'}${via(command)}`,
      },
    ];
  }
  if (base in CHANGERS) {
    const targets = operands(command, args).slice(base.startsWith('ch') ? 1 : 0);
    return [
      {
        risk: 'writes',
        text: `${named(command)} ${CHANGERS[base]} ${targets.length ? list(targets) : 'the files named in its input'}${via(command)}`,
      },
    ];
  }
  if (SOCKETS.has(base)) return socketEffects(command, args);
  if (base === 'socat') return [{ risk: 'sends', text: `${named(command)} connects ${list(args.filter((a) => !a.startsWith('-')))}` }];
  const describe = describers[base];
  const described = describe ? describe(command, args) : [];
  // What the engine counts as publishing (shell/sendsData.ts) is said to send, however the describer put it.
  const published = publishes(base, args);
  if (published && !described.some((effect) => effect.risk === 'sends')) described.unshift({ risk: 'sends', text: published });
  if (described.length) return described.map((effect) => ({ ...effect, text: effect.text + via(command) }));
  // Which operands a reader reads is the analysis's business (readTargets); a person only needs to know it reads.
  if (command.readOnly || command.readsBesideWrites) return [{ risk: 'reads', text: `${named(command)}${ONLY_READS}` }];
  return [{ risk: 'runs', text: `${named(command)} runs code${via(command)}` }];
}

function redirectEffects(command: SimpleCommand): PartEffect[] {
  const files = command.writesTo.filter((file) => !NOT_FILES.has(file) && !file.startsWith('/dev/fd/'));
  if (files.length === 0) return [];
  const who = command.argv.length === 0 ? 'A redirection' : named(command);
  return [{ risk: 'writes', text: `${who} writes ${list(files)}` }];
}

function curlEffects(command: SimpleCommand, args: readonly string[]): PartEffect[] {
  const host = urlHost(command, args) ?? 'a server';
  const sent: string[] = [];
  let method: string | undefined;
  let upload = false;
  const output: string[] = [];
  forEachOption(args, (option, value) => {
    if (/^(-d|--data(-binary|-raw|-ascii|-urlencode)?|--json)$/.test(option)) {
      upload = true;
      if (value?.startsWith('@')) sent.push(value.slice(1));
      else if (value !== undefined && /^[^=]*=@/.test(value) && option === '--data-urlencode')
        sent.push(value.slice(value.indexOf('@') + 1));
    } else if (/^(-F|--form)$/.test(option)) {
      upload = true;
      const file = value?.match(/=[@<]([^;]+)/)?.[1];
      if (file) sent.push(file);
    } else if (/^(-T|--upload-file)$/.test(option)) {
      upload = true;
      if (value) sent.push(value);
    } else if (/^(-X|--request)$/.test(option)) method = value?.toUpperCase();
    else if (/^(-o|--output)$/.test(option) && value && !NOT_FILES.has(value)) output.push(value);
  });
  const effects: PartEffect[] = [];
  if (sent.length) effects.push({ risk: 'sends', text: `${named(command)} sends ${list(sent.map(stdinName))} to ${host}` });
  else if (upload || (method && method !== 'GET' && method !== 'HEAD'))
    effects.push({
      risk: 'sends',
      text: `${named(command)} sends ${method && method !== 'POST' ? `a ${method} request` : 'data'} to ${host}`,
    });
  else effects.push({ risk: 'sends', text: `${named(command)} downloads from ${host}` });
  if (output.length) effects.push({ risk: 'writes', text: `${named(command)} writes ${list(output)}` });
  return effects;
}

function wgetEffects(command: SimpleCommand, args: readonly string[]): PartEffect[] {
  const host = urlHost(command, args) ?? 'a server';
  let file: string | undefined;
  let data = false;
  forEachOption(args, (option, value) => {
    if (option === '--post-file' || option === '--body-file') file = value;
    else if (option === '--post-data' || option === '--body-data') data = true;
  });
  if (file) return [{ risk: 'sends', text: `${named(command)} sends ${stdinName(file)} to ${host}` }];
  if (data) return [{ risk: 'sends', text: `${named(command)} sends data to ${host}` }];
  return [{ risk: 'sends', text: `${named(command)} downloads from ${host}` }];
}

/** scp and rsync: `host:path` operands are remote; the last operand is where it copies to. */
function copyOverNetwork(command: SimpleCommand, args: readonly string[]): PartEffect[] {
  const words = operands(command, args);
  const target = words.at(-1);
  const sources = words.slice(0, -1);
  const remote = (word: string | undefined) => word !== undefined && (/^[a-z]+:\/\//i.test(word) || /^[^/:]+:/.test(word));
  if (remote(target)) {
    const local = sources.filter((word) => !remote(word));
    return [{ risk: 'sends', text: `${named(command)} sends ${local.length ? list(local) : 'files'} to ${hostOf(target) ?? target}` }];
  }
  const from = sources.find(remote);
  if (from) return [{ risk: 'sends', text: `${named(command)} copies from ${hostOf(from) ?? from} into ${target}` }];
  return target ? [{ risk: 'writes', text: `${named(command)} copies ${list(sources)} to ${target}` }] : [];
}

function sshEffects(command: SimpleCommand, args: readonly string[]): PartEffect[] {
  const [destination, ...remote] = operands(command, args);
  const host = hostOf(destination) ?? destination ?? 'a server';
  const input = command.readsFrom ? ` and sends it ${stdinName(command.readsFrom)}` : '';
  return [
    {
      risk: 'sends',
      text: remote.length
        ? `${named(command)} runs \`${remote.join(' ')}\` on ${host}${input}`
        : `${named(command)} connects to ${host}${input}`,
    },
  ];
}

function socketEffects(command: SimpleCommand, args: readonly string[]): PartEffect[] {
  const words = operands(command, args);
  const listening = args.some((a) => /^-[a-zA-Z]*l/.test(a) || a === '--listen');
  const where = words.length >= 2 ? `${words[0]}:${words[1]}` : (words[0] ?? 'a port');
  if (listening) return [{ risk: 'sends', text: `${named(command)} listens on ${where}` }];
  if (command.readsFrom) return [{ risk: 'sends', text: `${named(command)} sends ${command.readsFrom} to ${where}` }];
  if (command.fedByPipe) return [{ risk: 'sends', text: `${named(command)} sends the output before it to ${where}` }];
  return [{ risk: 'sends', text: `${named(command)} connects to ${where}` }];
}

/** git's subcommands: what reaches the network, what deletes, what changes the repository. */
function gitEffects(command: SimpleCommand, args: readonly string[]): PartEffect[] {
  const words = operands(command, args);
  const [sub, ...rest] = words;
  const git = named(command);
  const operand = rest.filter((word) => !word.startsWith('-'));
  switch (sub) {
    case 'push':
      return [{ risk: 'sends', text: `${git} push sends commits to ${operand[0] ?? 'its remote'}` }];
    case 'send-email':
      return [{ risk: 'sends', text: `${git} send-email sends patches by email` }];
    case 'fetch':
    case 'pull':
    case 'ls-remote':
      return [{ risk: 'sends', text: `${git} ${sub} contacts ${operand[0] ?? 'its remote'}` }];
    case 'clone':
      return [{ risk: 'sends', text: `${git} clone downloads ${operand[0] ?? 'a repository'}` }];
    case 'rm':
      return [{ risk: 'deletes', text: `${git} rm deletes ${operand.length ? list(operand) : 'files'}` }];
    case 'clean':
      return [{ risk: 'deletes', text: `${git} clean deletes untracked files` }];
    case undefined:
      return [];
    default:
      if (command.readOnly || command.readsBesideWrites) return [{ risk: 'reads', text: `${git} ${sub}${ONLY_READS}` }];
      return [{ risk: 'writes', text: `${git} ${sub} changes the repository` }];
  }
}

function packageManager(command: SimpleCommand, args: readonly string[]): PartEffect[] {
  const sub = args.find((word) => !word.startsWith('-'));
  const tool = named(command);
  if (sub === 'publish') return [{ risk: 'sends', text: `${tool} publish sends the package to its registry` }];
  if (sub === 'install' || sub === 'i' || sub === 'ci' || sub === 'add' || sub === 'update') {
    return [{ risk: 'runs', text: `${tool} ${sub} downloads packages and runs their install scripts` }];
  }
  return [{ risk: 'runs', text: `${tool}${sub ? ` ${sub}` : ''} runs code` }];
}

function copyLike(command: SimpleCommand, args: readonly string[], verb: string, preposition: string): PartEffect[] {
  const words = operands(command, args);
  if (words.length < 2) return [{ risk: 'writes', text: `${named(command)} ${verb} ${list(words) || 'files'}` }];
  return [{ risk: 'writes', text: `${named(command)} ${verb} ${list(words.slice(0, -1))} ${preposition} ${words.at(-1)}` }];
}

function inPlace(command: SimpleCommand, args: readonly string[]): PartEffect[] {
  if (!args.some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place'))) return [];
  const words = operands(command, args);
  // sed's first operand is its script, unless -e or -f gave one.
  const files = args.some((a) => /^(-e|--expression|-f|--file)/.test(a)) ? words : words.slice(1);
  return [{ risk: 'writes', text: `${named(command)} edits ${files.length ? list(files) : 'files'} in place` }];
}

/** The program as a person names it: its base name, with git's and package managers' first word where that tells more. */
function named(command: SimpleCommand): string {
  const program = command.argv[0];
  return program === undefined ? 'A redirection' : path.posix.basename(program);
}

/**
 * The wrappers a part runs through that a rule must name (sudo, xargs, env...): the ones that only
 * limit, time or detach it (timeout, nice, setsid) are left out, as the rules leave them out.
 */
function via(command: SimpleCommand): string {
  const shown = command.wrappers.filter((wrapper) => !isTransparentWrapper(wrapper));
  return shown.length ? ` (through ${shown.join(', ')})` : '';
}

function appended(command: SimpleCommand): boolean {
  return command.argumentsAppended === true;
}

/** The words that are not options nor an option's value; after `--` every word is an operand. */
function operands(command: SimpleCommand, args: readonly string[]): string[] {
  const base = path.posix.basename(command.argv[0] ?? '');
  const takesValue = VALUE_OPTIONS[base];
  const found: string[] = [];
  let onlyOperands = false;
  for (let index = 0; index < args.length; index++) {
    const word = args[index]!;
    if (onlyOperands) found.push(word);
    else if (word === '--') onlyOperands = true;
    else if (word.startsWith('-') && word !== '-') {
      if (takesValue?.has(word)) index++;
    } else found.push(word);
  }
  return found;
}

/** find's starting points: the operands before its first test or action. */
function operandsBeforeExpression(args: readonly string[]): string[] {
  const end = args.findIndex((word) => word.startsWith('-') || word === '(' || word === '!');
  return (end === -1 ? args : args.slice(0, end)).filter((word) => !['-H', '-L', '-P'].includes(word));
}

/** Calls back with each option and its value (`--opt=value`, `--opt value`, `-d value`, `-dvalue`). */
function forEachOption(args: readonly string[], visit: (option: string, value: string | undefined) => void): void {
  for (let index = 0; index < args.length; index++) {
    const word = args[index]!;
    if (word === '--') return;
    if (!word.startsWith('-') || word === '-') continue;
    const equals = word.indexOf('=');
    if (word.startsWith('--') && equals > 0) {
      visit(word.slice(0, equals), word.slice(equals + 1));
    } else if (!word.startsWith('--') && word.length > 2) {
      visit(word.slice(0, 2), word.slice(2));
    } else {
      visit(word, args[index + 1]);
    }
  }
}

/** The host of the first URL a curl or wget names (an operand, or a --url value). */
function urlHost(command: SimpleCommand, args: readonly string[]): string | undefined {
  let url: string | undefined;
  forEachOption(args, (option, value) => {
    if (option === '--url' && url === undefined) url = value;
  });
  url ??= operands(command, args)[0];
  return hostOf(url);
}

/** `https://example.com/x` → example.com; `user@host:path` → host; `example.com/x` → example.com. */
function hostOf(word: string | undefined): string | undefined {
  if (word === undefined || word === '') return undefined;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(word)) {
    try {
      return new URL(word).host || undefined;
    } catch {
      return undefined;
    }
  }
  const scp = /^(?:[^@/]+@)?(\[[^\]]+\]|[^/:@]+):/.exec(word);
  if (scp) return scp[1];
  const bare = /^(?:[^@/]+@)?([^/:@]+)/.exec(word);
  return bare?.[1];
}

/** curl's `@-` and wget's `-` read standard input. */
function stdinName(file: string): string {
  return file === '-' ? 'its input' : file;
}

function list(names: readonly string[]): string {
  if (names.length <= MAX_NAMED) return names.join(', ');
  return `${names.slice(0, MAX_NAMED).join(', ')} and ${names.length - MAX_NAMED} more`;
}

function dedupe(effects: PartEffect[]): PartEffect[] {
  const seen = new Set<string>();
  return effects.filter((effect) => !seen.has(effect.text) && seen.add(effect.text));
}
