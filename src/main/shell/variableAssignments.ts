import type { Node } from 'web-tree-sitter';
import { subscriptIndex } from './arithmetic';
import { isDangerousVariable } from './dangerousVariable';
import { invocationIn, type Frame } from './invocation';
import { literalWord, readWord, touchingGroups, type Word } from './readWord';
import { recordedCommand } from './recordCommand';
import type { ShellWalk } from './shellWalk';
import { named } from './treeNodes';

/**
 * The syntax that assigns variables: `NAME=value`, declare and friends, unset, and the words builtins
 * take as a variable's name. A variable that changes what runs (PATH, LD_PRELOAD, BASH_ENV…) makes
 * the line unpinnable; what each assignment gives (a number or not, an array) goes to ShellVariables.
 */

/** `NAME=value`, `NAME[i]=value`, `NAME+=value`; `standalone` when it is a statement of its own. Returns the name. */
export function walkAssignment(
  walk: ShellWalk,
  node: Node,
  frame: Frame,
  standalone: boolean,
  touching: readonly Node[] = [],
): string | null {
  const nameNode = node.childForFieldName('name');
  const value = node.childForFieldName('value');
  if (value) walk.expressions(value, frame);
  for (const part of touching) walk.expressions(part, frame);
  const valueText = value || touching.length ? readWord(value ? [value, ...touching] : touching).text : '';
  if (!nameNode) return null;
  let name = nameNode.text;
  if (nameNode.type === 'subscript') {
    const base = nameNode.childForFieldName('name');
    name = base?.text ?? name;
    const index = nameNode.childForFieldName('index');
    if (index) subscriptIndex(walk, index, frame);
  }
  const operator = node.children.find((child) => child !== null && !child.isNamed)?.type;
  if (value?.type === 'array') walk.variables.makeArray(name);
  const numeric = operator === '=' && /^-?[0-9]+$/.test(valueText);
  const arithmeticValue = value?.type === 'arithmetic_expansion' && touching.length === 0;
  walk.variables.assign(name, numeric || arithmeticValue ? 'numeric' : 'other');
  if (isDangerousVariable(name)) {
    walk.reason(
      standalone ? `sets ${name}, which changes what later commands run` : `sets ${name} for the command, which changes what it runs`,
    );
  }
  return name;
}

/** declare, typeset, local, export, readonly as bash's syntax: recorded as the builtin, read-only while every word is known. */
export function walkDeclaration(walk: ShellWalk, node: Node, frame: Frame): void {
  const keyword = node.firstChild?.type ?? 'declare';
  const argv: string[] = [keyword];
  let literal = true;
  let arrayOption = false;
  for (const group of touchingGroups(named(node))) {
    const head = group[0]!;
    if (head.type === 'variable_assignment') {
      const name = walkAssignment(walk, head, frame, true, group.slice(1));
      const value = head.childForFieldName('value');
      const word = readWord(group);
      argv.push(word.kind === 'literal' ? word.text : word.source);
      if (name && value?.type !== 'array') {
        const valueParts = value ? [value, ...group.slice(1)] : group.slice(1);
        declaredValue(walk, keyword, name, valueParts.length ? readWord(valueParts) : literalWord(''), arrayOption);
      }
      continue;
    }
    if (group.length === 1 && head.type === 'variable_name') {
      argv.push(head.text);
      continue;
    }
    const word = readWord(group);
    for (const part of group) walk.expressions(part, frame);
    argv.push(word.text);
    if (word.kind !== 'literal') {
      literal = false;
      walk.reason(`${keyword} with an argument only known when it runs (${word.source}), which can name any variable`);
      continue;
    }
    if (/^[-+]/.test(word.text)) {
      // -i makes later assignments arithmetic (which can run commands); -n makes a name stand for another.
      if (/[in]/.test(word.text.slice(1))) walk.reason(`${keyword} ${word.text} makes assignments evaluate their values`);
      if (/[aA]/.test(word.text.slice(1))) arrayOption = true;
      continue;
    }
    // A quoted NAME=value is still an assignment to bash.
    checkVariableNameWord(walk, word, keyword);
    const eq = word.text.indexOf('=');
    if (eq > 0) declaredValue(walk, keyword, word.text.slice(0, eq).replace(/\+$/, ''), literalWord(word.text.slice(eq + 1)), arrayOption);
  }
  const location = walk.resolver.resolve(keyword, false);
  walk.commands.push(
    recordedCommand(
      argv,
      { ...invocationIn(frame, true), wrappers: [...frame.wrappers] },
      literal ? { readOnly: true, local: true } : { readOnly: false, local: true },
      location,
    ),
  );
}

/**
 * declare and friends read a value that looks like `(...)` as an array assignment, expanding it
 * again (`declare -a x="($y)"` runs the command substitutions in y): for an array, a quoted or
 * expanded value is code.
 */
function declaredValue(walk: ShellWalk, keyword: string, name: string, value: Word, arrayOption: boolean): void {
  const array = arrayOption || walk.variables.isArray(name);
  if ((value.kind === 'literal' && value.text.trimStart().startsWith('(')) || (array && value.kind !== 'literal')) {
    walk.reason(`${keyword} ${name}=${value.source} is read as an array assignment and expanded again`);
  }
  if (arrayOption) walk.variables.makeArray(name);
}

/** unset as bash's syntax: its operands are variable names. */
export function walkUnset(walk: ShellWalk, node: Node, frame: Frame): void {
  const argv = ['unset'];
  for (const group of touchingGroups(named(node))) {
    const word = readWord(group);
    for (const part of group) walk.expressions(part, frame);
    argv.push(word.text);
    if (!word.text.startsWith('-')) checkVariableNameWord(walk, word, 'unset');
  }
  walk.commands.push(recordedCommand(argv, invocationIn(frame, true), { readOnly: true, local: true }, { kind: 'builtin' }));
}

/** Builtins whose name operands only read or declare a variable, without giving it a value. */
const DECLARES_ONLY = new Set(['unset', 'test -v', 'declare', 'local', 'export', 'readonly', 'typeset']);

/**
 * A word a builtin takes as a variable name (read NAME, printf -v NAME, declare NAME=..., test -v NAME):
 * it must be literal, must not be one of the variables that change what runs, and a subscript in
 * it is arithmetic.
 */
export function checkVariableNameWord(walk: ShellWalk, word: Word, builtin: string): void {
  if (word.kind !== 'literal') {
    walk.reason(`${builtin} takes a variable name only known when it runs (${word.source})`);
    return;
  }
  const text = word.text;
  const eq = text.indexOf('=');
  const target = (eq >= 0 ? text.slice(0, eq) : text).replace(/\+$/, '');
  const bracket = target.indexOf('[');
  const name = bracket >= 0 ? target.slice(0, bracket) : target;
  if (bracket >= 0) {
    const index = target.slice(bracket + 1, target.endsWith(']') ? -1 : undefined);
    if (!/^(\d+|@|\*)$/.test(index)) walk.reason(`${builtin} ${text}: the subscript is evaluated as arithmetic, which can run commands`);
  }
  if (isDangerousVariable(name)) walk.reason(`${builtin} sets ${name}, which changes what later commands run`);
  if (eq >= 0) walk.variables.assign(name, /^-?\d+$/.test(text.slice(eq + 1)) ? 'numeric' : 'other');
  else if (!DECLARES_ONLY.has(builtin)) walk.variables.assign(name, 'other');
}
