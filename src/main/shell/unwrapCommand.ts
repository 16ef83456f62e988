import { isDangerousVariable } from './dangerousVariable';
import { globMatches } from './globMatches';
import { invocationIn, type Invocation } from './invocation';
import { asDynamic, literalWord, type Word } from './readWord';
import { scanOptions } from './scanOptions';
import { Findings, innerFrame, type UnwrapFinding } from './unwrapFindings';
import { unwrapInterpreter } from './unwrapInterpreter';
import { wrapperSpecs } from './wrapperSpecs';

/**
 * What a program that runs other programs runs: wrappers (timeout, env, sudo, xargs, ...), shells
 * given a script (bash -c), builtins that run or assign (eval, trap, read, printf -v, ...), find's
 * -exec commands, and interpreters that read their program from stdin.
 *
 * It reads one program's words and answers with data; it keeps no state and calls nothing back.
 * The walk (shellAnalysis.ts) keeps all the state of the line (where it runs, its variables, the
 * commands and reasons found so far) and acts on the answer: it follows the inner command, and
 * walks the scripts and commands handed to it, in the order they were found.
 */
export interface Unwrapped {
  next: Next;
  /** What the analysis must act on, in the order it was found. */
  found: UnwrapFinding[];
}

/**
 * - the words of the command the wrapper runs: go on with them;
 * - 'final': the program is not a wrapper, it is what runs;
 * - 'alone': a wrapper given nothing to run (`nohup`, `env` printing the environment): record the
 *   words as they are, as that program, with this invocation;
 * - 'done': handled here (a script handed to the analysis, a query such as `command -v`);
 * - 'opaque': what it runs cannot be told (a reason says why): record the words as they are.
 */
export type Next = Word[] | 'final' | { alone: Invocation } | 'done' | 'opaque';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A wrapper's options, read, and the words after them. */
interface ParsedWrapper {
  scan: Extract<ReturnType<typeof scanOptions>, { ok: true }>;
  rest: Word[];
}

/**
 * One program, `name` (its recognised name) with `args`, reached with `invocation`, which the
 * wrappers it strips build up (their names, assignments, exec, a directory change...).
 */
export function unwrapCommand(name: string, args: Word[], invocation: Invocation): Unwrapped {
  const found = new Findings();
  const next = unwrapOne(found, name, args, invocation);
  return { next, found: found.list };
}

function unwrapOne(found: Findings, name: string, args: Word[], invocation: Invocation): Next {
  const frame = invocation.frame;
  const wrap = (wrapper: string, rest: Word[], exec = true): Word[] | { alone: Invocation } => {
    invocation.wrappers.push(wrapper);
    if (exec) invocation.viaExec = true;
    if (rest.length === 0) return { alone: { ...invocation, wrappers: invocation.wrappers.slice(0, -1) } };
    return rest;
  };
  const options = (spec: keyof typeof wrapperSpecs): ParsedWrapper | null => {
    const scan = scanOptions(
      args.map((word) => word.text),
      wrapperSpecs[spec]!,
    );
    if (!scan.ok) {
      found.reason(`${name}: ${scan.reason}, so where its command starts is unclear`);
      return null;
    }
    const dynamicInZone = args.slice(0, scan.firstOperand).find((word) => word.kind !== 'literal');
    if (dynamicInZone) {
      found.reason(`${name} has the argument ${dynamicInZone.source}, only known when it runs, so where its command starts is unclear`);
      return null;
    }
    return { scan, rest: args.slice(scan.firstOperand) };
  };

  switch (name) {
    case 'eval': {
      found.reason('eval runs a string as a command');
      invocation.wrappers.push('eval');
      if (!args.every((word) => word.kind === 'literal')) return 'opaque';
      found.script(args.map((word) => word.text).join(' '), innerFrame(invocation, frame.dialect));
      return 'done';
    }
    case 'source':
    case '.':
      found.reason(`${name} runs the commands of a file in this shell`);
      return 'final';
    case 'alias':
      if (args.some((word) => word.text.includes('='))) found.reason('alias makes a name stand for other commands');
      return 'final';
    case 'enable':
      found.reason('enable turns shell builtins on and off or loads new ones');
      return 'final';
    case 'fc':
    case 'bind':
    case 'complete':
    case 'compgen':
    case 'coproc':
      if (name === 'fc' || name === 'coproc' || args.some((word) => /^-[^-]*[CFx]/.test(word.text)))
        found.reason(`${name} can run commands that are not on this line`);
      return 'final';
    case 'builtin':
      if (args.length === 0) return 'final';
      found.reason('builtin with a command runs a shell builtin that bypasses this analysis of functions and wrappers');
      invocation.wrappers.push('builtin');
      return args;
    case 'exec': {
      const parsed = options('exec');
      if (!parsed) return 'opaque';
      if (parsed.rest.length === 0) return 'final';
      found.reason('exec replaces the shell with the command');
      return wrap('exec', parsed.rest);
    }
    case 'command': {
      const parsed = options('command');
      if (!parsed) return 'opaque';
      if (parsed.scan.options.some((option) => option.name === 'v' || option.name === 'V')) return 'final';
      invocation.wrappers.push('command');
      if (parsed.rest.length === 0) return 'done';
      return parsed.rest;
    }
    case 'time': {
      // bash's time keyword takes only -p; anything else is the command it times.
      let index = 0;
      while (args[index]?.kind === 'literal' && (args[index]!.text === '-p' || args[index]!.text === '--')) index++;
      invocation.wrappers.push('time');
      if (index >= args.length) return 'done';
      return args.slice(index);
    }
    case 'nohup': {
      const parsed = options('nohup');
      if (!parsed) return 'opaque';
      // With a terminal on stdout (ours is a PTY), nohup writes nohup.out.
      invocation.blockReadOnly ??= 'nohup writes nohup.out';
      return wrap('nohup', parsed.rest);
    }
    case 'timeout': {
      const parsed = options('timeout');
      if (!parsed) return 'opaque';
      const [duration, ...rest] = parsed.rest;
      if (duration && duration.kind !== 'literal') {
        found.reason(`timeout's duration ${duration.source} is only known when it runs`);
        return 'done';
      }
      return wrap('timeout', rest);
    }
    case 'nice':
    case 'stdbuf':
    case 'setsid': {
      const parsed = options(name);
      if (!parsed) return 'opaque';
      return wrap(name, parsed.rest);
    }
    case 'ionice': {
      const parsed = options('ionice');
      if (!parsed) return 'opaque';
      if (parsed.scan.options.some((option) => ['p', 'P', 'u', 'pid', 'pgid', 'uid'].includes(option.name))) return 'final';
      return wrap('ionice', parsed.rest);
    }
    case 'env':
      return unwrapEnv(found, args, invocation, options);
    case 'sudo':
    case 'doas': {
      const parsed = options(name);
      if (!parsed) return 'opaque';
      const flags = parsed.scan.options.map((option) => option.name);
      if (flags.some((flag) => ['e', 'edit', 'l', 'list', 'v', 'validate', 'k', 'K', 'V', 'L'].includes(flag)) && parsed.rest.length === 0)
        return 'final';
      if (flags.includes('e') || flags.includes('edit')) {
        invocation.blockReadOnly ??= `${name} -e edits files as another user`;
        return 'final';
      }
      if (flags.some((flag) => ['D', 'chdir', 'R', 'chroot'].includes(flag))) invocation.changesDirectory = true;
      invocation.blockReadOnly ??= `${name} runs the command as another user`;
      let rest = parsed.rest;
      while (rest[0]?.kind === 'literal' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(rest[0].text)) {
        const variable = rest[0].text.slice(0, rest[0].text.indexOf('='));
        invocation.assignments.push(variable);
        if (isDangerousVariable(variable)) found.reason(`${name} sets ${variable} for the command, which changes what it runs`);
        rest = rest.slice(1);
      }
      return wrap(name, rest);
    }
    case 'pkexec': {
      const parsed = options('pkexec');
      if (!parsed) return 'opaque';
      invocation.blockReadOnly ??= 'pkexec runs the command as another user';
      return wrap('pkexec', parsed.rest);
    }
    case 'su':
    case 'runuser': {
      const parsed = options(name);
      if (!parsed) return 'opaque';
      invocation.blockReadOnly ??= `${name} runs the command as another user`;
      const script = parsed.scan.options.find((option) => ['c', 'command', 'session-command'].includes(option.name));
      if (script) {
        invocation.wrappers.push(name);
        found.script(script.value ?? '', innerFrame(invocation, 'sh'));
        return 'done';
      }
      // `runuser -u user -- cmd` runs cmd; `su user` and `runuser user` start a shell for that user.
      if (name === 'runuser' && parsed.scan.options.some((option) => option.name === 'u' || option.name === 'user'))
        return wrap(name, parsed.rest);
      if (parsed.rest.length > 1) {
        found.reason(`${name} gives its arguments to a login shell, so what runs is unclear`);
        return 'opaque';
      }
      return 'final';
    }
    case 'xargs':
      return unwrapXargs(found, args, invocation, options);
    case 'watch': {
      const parsed = options('watch');
      if (!parsed) return 'opaque';
      if (parsed.scan.options.some((option) => option.name === 'x' || option.name === 'exec')) return wrap('watch', parsed.rest);
      // Without --exec, watch joins its arguments and hands them to sh -c.
      invocation.wrappers.push('watch');
      if (parsed.rest.some((word) => word.kind !== 'literal')) {
        found.reason('watch runs a shell script built from words only known when it runs');
        return 'opaque';
      }
      if (parsed.rest.length) found.script(parsed.rest.map((word) => word.text).join(' '), innerFrame(invocation, 'sh'));
      return 'done';
    }
    case 'find':
      findExecs(found, args, invocation);
      return 'final';
    case 'trap':
      trap(found, args, invocation);
      return 'final';
    case 'let':
      for (const word of args) {
        if (word.kind !== 'literal') found.reason(`let evaluates ${word.source}, only known when it runs, as arithmetic`);
        else found.arithmetic(word.text);
      }
      return 'final';
    case 'set':
      if (args.some((word, index) => /^-[^-]*k/.test(word.text) || (word.text === '-o' && args[index + 1]?.text === 'keyword'))) {
        found.reason('set -k turns every NAME=value argument into environment for the command');
      }
      return 'final';
    case 'read':
      builtinTargets(found, name, args, 'adinNptu', (option, value) => {
        if (option !== 'a') return [];
        found.array(value.text);
        return [value];
      });
      return 'final';
    case 'mapfile':
    case 'readarray':
      if (args.some((word) => /^-[^-]*C/.test(word.text))) found.reason(`${name} -C runs a callback command for the lines it reads`);
      builtinTargets(found, name, args, 'dnOsuCc', () => []);
      for (const word of args) if (word.kind === 'literal' && IDENTIFIER.test(word.text)) found.array(word.text);
      return 'final';
    case 'printf':
      if (args[0]?.kind === 'literal' && args[0].text.startsWith('-v')) {
        const target = args[0].text === '-v' ? args[1] : literalWord(args[0].text.slice(2));
        if (target) found.variableName(target, 'printf -v');
      }
      return 'final';
    case 'getopts':
      if (args[1]) found.variableName(args[1], 'getopts');
      return 'final';
    case 'wait': {
      const index = args.findIndex((word) => word.text === '-p');
      if (index >= 0 && args[index + 1]) found.variableName(args[index + 1]!, 'wait -p');
      return 'final';
    }
    case 'hash':
      if (args.some((word) => /^-[^-]*p/.test(word.text))) found.reason('hash -p makes a name run a program from another path');
      return 'final';
    case 'declare':
    case 'typeset':
    case 'local':
    case 'export':
    case 'readonly':
      // Reached through `builtin declare` or `command export`: same checks as the declaration syntax.
      for (const word of args) {
        if (word.kind === 'literal' && /^[-+]/.test(word.text)) {
          if (/[in]/.test(word.text.slice(1))) found.reason(`${name} ${word.text} makes assignments evaluate their values`);
        } else found.variableName(word, name);
      }
      return 'final';
    case 'test':
    case '[': {
      const index = args.findIndex((word) => word.text === '-v');
      if (index >= 0 && args[index + 1]) found.variableName(args[index + 1]!, 'test -v');
      return 'final';
    }
    default:
      return unwrapInterpreter(found, name, args, invocation);
  }
}

function unwrapEnv(
  found: Findings,
  args: Word[],
  invocation: Invocation,
  options: (spec: keyof typeof wrapperSpecs) => ParsedWrapper | null,
): Next {
  const parsed = options('env');
  if (!parsed) return 'opaque';
  for (const option of parsed.scan.options) {
    if (option.name === 'S' || option.name === 'split-string') {
      found.reason('env -S splits a string into a command by rules of its own');
      return 'opaque';
    }
    if (option.name === 'C' || option.name === 'chdir') invocation.changesDirectory = true;
  }
  let rest = parsed.rest;
  // `env -` is -i.
  if (rest[0]?.kind === 'literal' && rest[0].text === '-') rest = rest.slice(1);
  while (rest[0] && rest[0].text.includes('=') && !rest[0].text.startsWith('=')) {
    const word = rest[0];
    if (word.kind !== 'literal' && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word.source)) {
      found.reason(`env has the argument ${word.source}, only known when it runs, which could set any variable or be the command`);
      return 'opaque';
    }
    if (word.splits) {
      found.reason(`env's assignment ${word.source} may split into several words when it runs`);
      return 'opaque';
    }
    const variable = (word.kind === 'literal' ? word.text : word.source).split('=', 1)[0]!;
    invocation.assignments.push(variable);
    if (isDangerousVariable(variable)) found.reason(`env sets ${variable} for the command, which changes what it runs`);
    rest = rest.slice(1);
  }
  if (rest.length === 0) {
    // Without a command, env prints the environment.
    return { alone: invocation };
  }
  invocation.wrappers.push('env');
  invocation.viaExec = true;
  return rest;
}

function unwrapXargs(
  found: Findings,
  args: Word[],
  invocation: Invocation,
  options: (spec: keyof typeof wrapperSpecs) => ParsedWrapper | null,
): Word[] | 'opaque' {
  const parsed = options('xargs');
  if (!parsed) return 'opaque';
  let placeholder: string | null = null;
  for (const option of parsed.scan.options) {
    if (['I', 'i', 'replace'].includes(option.name)) placeholder = option.value ?? '{}';
    // xargs -a FILE reads the words it appends from FILE: a read of that file, as `< FILE` would be.
    if (option.value !== undefined && ['a', 'arg-file'].includes(option.name))
      found.list.push({ kind: 'read', word: literalWord(option.value), elsewhere: invocation.changesDirectory });
    if (option.name === 'process-slot-var' && option.value && isDangerousVariable(option.value)) {
      found.reason(`xargs sets ${option.value} for the command, which changes what it runs`);
    }
  }
  invocation.wrappers.push('xargs');
  invocation.viaExec = true;
  // Arguments read from input are appended, or replace the placeholder.
  if (placeholder) invocation.placeholder = placeholder;
  else invocation.appendsArguments = true;
  if (parsed.rest.length === 0) return [literalWord('echo')];
  return placeholder ? parsed.rest.map((word) => (word.text.includes(placeholder) ? asDynamic(word) : word)) : parsed.rest;
}

function findExecs(found: Findings, args: readonly Word[], invocation: Invocation): void {
  const execs = ['-exec', '-execdir', '-ok', '-okdir'];
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word.kind === 'dynamic' || (word.kind === 'pattern' && execs.some((exec) => globMatches(word.text, exec)))) {
      found.reason(`find's argument ${word.source} could add an -exec command when it runs`);
      continue;
    }
    if (!execs.includes(word.text)) continue;
    let end = i + 1;
    while (
      end < args.length &&
      !(args[end]!.kind === 'literal' && (args[end]!.text === ';' || (args[end]!.text === '+' && args[end - 1]!.text.includes('{}'))))
    )
      end++;
    const command = args.slice(i + 1, end).map((arg) => (arg.text.includes('{}') ? asDynamic(arg) : arg));
    if (command.length) {
      found.command(command, {
        ...invocationIn(invocation.frame, false),
        wrappers: [...invocation.wrappers, 'find'],
        viaExec: true,
        blockReadOnly: invocation.blockReadOnly,
        writes: [],
        stdin: 'inherited',
      });
    }
    i = end;
  }
}

function trap(found: Findings, args: readonly Word[], invocation: Invocation): void {
  const operands = args.filter((word) => !(word.kind === 'literal' && /^-[lp]$/.test(word.text)));
  if (operands.length < 2 && !(operands.length === 1 && operands[0]!.text === '-')) return;
  const action = operands[0]!;
  if (action.kind !== 'literal') {
    found.reason(`trap runs ${action.source}, only known when it runs, later`);
    return;
  }
  if (action.text === '' || action.text === '-' || /^\d+$/.test(action.text)) return;
  // The action runs later, as a script of its own.
  found.script(action.text, innerFrame({ ...invocation, wrappers: [...invocation.wrappers, 'trap'] }, invocation.frame.dialect));
}

/** Checks the variable names a builtin assigns: its operands, and the value of `nameOption` options. */
function builtinTargets(
  found: Findings,
  name: string,
  args: readonly Word[],
  valueLetters: string,
  extraTargets: (option: string, value: Word) => Word[],
): void {
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word.kind === 'literal' && word.text.startsWith('-') && word.text.length > 1) {
      for (let k = 1; k < word.text.length; k++) {
        const letter = word.text[k]!;
        if (!valueLetters.includes(letter)) continue;
        const attached = word.text.slice(k + 1);
        const value = attached ? literalWord(attached) : args[++i];
        if (value) for (const target of extraTargets(letter, value)) found.variableName(target, name);
        break;
      }
      continue;
    }
    found.variableName(word, name);
  }
}
