import { Findings, innerFrame } from './unwrapFindings';
import type { Dialect, Invocation } from './invocation';
import { FOREIGN_SHELLS, interpreterKind, SHELLS, STDIN_INTERPRETERS } from './interpreters';
import type { Word } from './readWord';

/**
 * What an interpreter runs (interpreters.ts says which programs are): a shell's -c script or the
 * script it reads from a here-document, walked as a line of its own; another interpreter's inline
 * code, which must be literal; and a program read from standard input, never from a pipe.
 */

/** A shell, an interpreter or a foreign shell named `name`: what it runs, as unwrapCommand's answer. */
export function unwrapInterpreter(found: Findings, name: string, args: Word[], invocation: Invocation): 'final' | 'done' | 'opaque' {
  if (SHELLS.has(name)) return unwrapShell(found, name, args, invocation);
  const interpreter = interpreterKind(name);
  if (interpreter) interpreterProgram(found, name, interpreter, args, invocation);
  if (FOREIGN_SHELLS.has(name) && args.some((word) => /^-[^-]*c$|^--command$|^-Command$/i.test(word.text))) {
    found.reason(`${name} runs a script in a language this analysis does not read`);
  }
  return 'final';
}

/** bash -c SCRIPT, sh -c, zsh -c ...: the script is analysed as a line of its own. */
function unwrapShell(found: Findings, name: string, args: Word[], invocation: Invocation): 'final' | 'done' | 'opaque' {
  let index = 0;
  let command = false;
  let readsStdin = false;
  for (; index < args.length; index++) {
    const word = args[index]!;
    if (word.kind !== 'literal') {
      if (command) break;
      found.reason(`${name} has the argument ${word.source}, only known when it runs`);
      return 'opaque';
    }
    const text = word.text;
    if (text === '--' || text === '-') {
      index++;
      break;
    }
    if (/^--(rcfile|init-file)$/.test(text)) {
      index++;
      continue;
    }
    if (text.startsWith('--')) continue;
    if (!/^[-+]/.test(text)) break;
    if (/^[-+][^-]*[oO]$/.test(text)) {
      const option = args[index + 1]?.text;
      if (text.endsWith('o') && option === 'keyword') found.reason(`${name} -o keyword turns NAME=value arguments into environment`);
      index++;
    }
    if (text.slice(1).includes('k')) found.reason(`${name} -k turns NAME=value arguments into environment`);
    if (text.slice(1).includes('c')) command = true;
    if (text.slice(1).includes('s')) readsStdin = true;
  }
  const dialect: Dialect = name === 'zsh' ? 'zsh' : name === 'bash' ? 'bash' : 'sh';
  if (command) {
    const script = args[index];
    invocation.wrappers.push(name);
    if (!script) return 'done';
    if (script.kind !== 'literal') {
      found.reason(`${name} -c runs a script only known when it runs (${script.source})`);
      return 'opaque';
    }
    found.script(script.text, innerFrame(invocation, dialect));
    return 'done';
  }
  const file = readsStdin ? undefined : args[index];
  if (file && !isStdinPath(file)) {
    if (file.source.startsWith('<(')) found.reason(`${name} runs a script produced by ${file.source.slice(0, 40)}`);
    return 'final';
  }
  // A script written out in a here-document or here-string is read like one given with -c.
  if (invocation.stdin === 'literal-document' && invocation.document !== undefined) {
    invocation.wrappers.push(name);
    found.script(invocation.document, innerFrame(invocation, dialect));
    return 'done';
  }
  interpreterStdin(found, name, invocation);
  return 'final';
}

/** An interpreter that reads its program from standard input: fine from a literal here-document, never from a pipe. */
function interpreterStdin(found: Findings, name: string, invocation: Invocation): void {
  switch (invocation.stdin) {
    case 'pipe':
      found.reason(`${name} runs a program it reads from a pipe`);
      return;
    case 'expanding-document':
      found.reason(`${name} runs a program from a here-document with expansions, only known when it runs`);
      return;
    case 'literal-document':
      found.note(`${name} runs the program written in the here-document`);
      return;
    default:
  }
}

/** node, python, perl ...: inline code must be literal, and a program read from stdin must not come from a pipe. */
function interpreterProgram(found: Findings, name: string, kind: string, args: readonly Word[], invocation: Invocation): void {
  const spec = STDIN_INTERPRETERS[kind]!;
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    const text = word.text;
    if (
      spec.inline.includes(text) ||
      spec.inline.some((flag) => flag.length === 2 && text.startsWith(flag) && text.length > 2 && !text.startsWith('--'))
    ) {
      const code = text.length > 2 && !spec.inline.includes(text) ? word : args[i + 1];
      if (code && code.kind !== 'literal' && !(kind === 'python' && text.startsWith('-m')))
        found.reason(`${name} ${text} runs code only known when it runs (${code.source})`);
      return;
    }
    if (spec.withValue.includes(text)) {
      i++;
      continue;
    }
    if (word.kind === 'literal' && text.startsWith('-') && text !== '-') continue;
    if (isStdinPath(word)) break;
    if (word.source.startsWith('<(') || word.source.startsWith('>(')) {
      found.reason(`${name} runs a program produced by ${word.source.slice(0, 40)}`);
      return;
    }
    if (word.kind !== 'literal') {
      found.reason(`${name} runs a script whose name is only known when it runs (${word.source})`);
      return;
    }
    // A script file: what it does is its own business, and the person sees its name.
    return;
  }
  // xargs gives the interpreter the words it reads: a script named only when it runs.
  if (invocation.appendsArguments) found.reason(`${name} runs a script whose name xargs reads from its input`);
  else interpreterStdin(found, name, invocation);
}

function isStdinPath(word: Word): boolean {
  return word.kind === 'literal' && (word.text === '-' || word.text === '/dev/stdin' || word.text === '/dev/fd/0');
}
