import path from 'node:path';
import type { Node } from 'web-tree-sitter';
import { arithmeticText } from './arithmetic';
import { classifyInvocation } from './classifyInvocation';
import { isDangerousVariable } from './dangerousVariable';
import { dropsEscape } from './parserQuirks';
import type { ProgramLocation } from './programResolver';
import { invocationIn, type Frame, type Invocation } from './invocation';
import { argumentReads, redirectRead } from './readTargets';
import { asDynamic, readWord, touchingGroups, type Word } from './readWord';
import { recordedCommand, redirectionsOnly } from './recordCommand';
import { readRedirections } from './redirections';
import type { ShellWalk } from './shellWalk';
import { named } from './treeNodes';
import { unwrapCommand, type Next } from './unwrapCommand';
import type { UnwrapFinding } from './unwrapFindings';
import { checkVariableNameWord, walkAssignment } from './variableAssignments';

/**
 * The bookkeeping of one simple command: its words read as bash reads them, its assignments and
 * redirections, its wrappers stripped one after another (unwrapCommand says what each runs), and the
 * real program judged and recorded, with the files its words read and where it leaves the shell.
 */

/** Words bash reads as syntax in command position; a "command" named so means the parser and bash disagree. */
const RESERVED_WORDS = new Set([
  '{',
  '}',
  '!',
  '[[',
  ']]',
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'do',
  'done',
  'case',
  'esac',
  'while',
  'until',
  'for',
  'in',
  'function',
  'select',
  'coproc',
]);

/** A `command` node: `strays` are words the parser hung on an enclosing redirection that bash gives to it. */
export function walkCommand(walk: ShellWalk, node: Node, frame: Frame, strays: readonly Node[] = []): void {
  // The command is listed first, then the commands nested in it ($( ), <( ), here-documents).
  const mark = walk.commands.length;
  const parts: Node[] = [...strays];
  const redirectNodes: Node[] = [];
  for (let i = 0; i < node.childCount; i++) {
    const child = node.child(i);
    if (!child) continue;
    const field = node.fieldNameForChild(i);
    if (field === 'name') {
      parts.push(child.type === 'command_name' ? (named(child)[0] ?? child) : child);
    } else if (field === 'argument') {
      if (!child.isNamed) {
        // tree-sitter splits `$"..."` into a "$" and a string; bash reads one (translated) word.
        walk.reason(`the parser split \`${node.text.slice(0, 60)}\` differently from bash`);
        continue;
      }
      parts.push(child);
    } else if (field === 'redirect' || child.type.endsWith('_redirect')) {
      redirectNodes.push(child);
    } else if (child.type === 'variable_assignment') {
      parts.push(child);
    } else if (child.isNamed && child.type !== 'comment') {
      walk.reason(`the parser found \`${child.text.slice(0, 40)}\` in a command where bash may read something else`);
      walk.expressions(child, frame);
    }
  }
  if (dropsEscape(node)) walk.reason(`the parser dropped an escaped character in \`${node.text.slice(0, 60)}\` that bash keeps`);
  const redirected = readRedirections(walk, redirectNodes, frame);
  // Pieces with no space between them are one word to bash, whatever the parser made of them.
  const words: Word[] = [];
  const wordNodes: Node[] = [];
  const assignments: string[] = [];
  for (const group of touchingGroups([...parts, ...redirected.strays])) {
    const head = group[0]!;
    if (words.length === 0 && head.type === 'variable_assignment') {
      const name = walkAssignment(walk, head, frame, false, group.slice(1));
      if (name) assignments.push(name);
      continue;
    }
    // An assignment the parser did not see as one (it split an earlier word): NAME= unquoted at the start.
    const assigned = words.length === 0 ? /^([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?\+?=/.exec(group.map((part) => part.text).join('')) : null;
    if (assigned) {
      const name = assigned[1]!;
      for (const part of group) walk.expressions(part, frame);
      walk.variables.assign(name, 'other');
      if (isDangerousVariable(name)) walk.reason(`sets ${name} for the command, which changes what it runs`);
      if (assigned[2] && !/^\[\d*\]$/.test(assigned[2]))
        walk.reason(`the subscript of ${assigned[0]} is evaluated as arithmetic, which can run commands`);
      assignments.push(name);
      continue;
    }
    words.push(readWord(group));
    wordNodes.push(...group);
  }
  const nested = walk.commands.splice(mark);
  if (frame.dialect === 'zsh') checkZshWords(walk, words);
  const writes = redirected.writes;
  if (words.length === 0) {
    if (writes.length) walk.commands.push(redirectionsOnly(frame.wrappers, assignments, [...frame.writes, ...writes]));
  } else {
    invoke(walk, words, {
      ...invocationIn(frame, true),
      assignments,
      writes: [...frame.writes, ...writes],
      stdin: redirected.stdin ?? frame.stdin,
      ...(redirected.document !== undefined ? { document: redirected.document } : {}),
      ...(redirected.stdinFile !== undefined ? { stdinFile: redirected.stdinFile } : {}),
    });
  }
  for (const part of wordNodes) walk.expressions(part, frame);
  walk.commands.push(...nested);
}

/** zsh expands some words bash leaves alone (=cmd, glob qualifiers that run code): never guess at those. */
function checkZshWords(walk: ShellWalk, words: readonly Word[]): void {
  for (const word of words) {
    if (
      word.kind === 'pattern' ||
      (word.kind === 'literal' && /^[=~]/.test(word.source)) ||
      /[()^#]/.test(word.source.replace(/'[^']*'|"[^"]*"/g, ''))
    ) {
      walk.reason(`zsh would expand ${word.source} differently from bash`);
    }
  }
}

/**
 * Strips wrappers one after another until the real program is reached, then records it. Wrappers
 * that run a script (bash -c, eval, watch, su -c) hand it to the walk; find's -exec commands are
 * invocations of their own.
 */
function invoke(walk: ShellWalk, initial: readonly Word[], start: Invocation): void {
  let words = [...initial];
  const invocation: Invocation = { ...start, wrappers: [...start.wrappers], assignments: [...start.assignments] };
  for (;;) {
    const program = words[0];
    if (!program) return;
    if (invocation.placeholder && program.text.includes(invocation.placeholder)) words[0] = asDynamic(program);
    const head = words[0]!;
    if (head.kind !== 'literal') {
      walk.reason(`the program name ${head.source} is only known when it runs`);
      walk.commands.push(
        recordedCommand(
          words.map((word) => word.text),
          invocation,
          { readOnly: false, local: false },
          { kind: 'missing' },
        ),
      );
      return;
    }
    const name = head.text;
    if (name === '') {
      walk.reason('an empty program name');
      return;
    }
    walk.programNames.add(name);
    const location = walk.resolver.resolve(name, invocation.viaExec);
    const base = recognisedName(name, location);
    if (invocation.fromParser && !invocation.viaExec && RESERVED_WORDS.has(name)) {
      walk.reason(`\`${name}\` here is bash syntax the parser read as a command`);
    }
    const args = words.slice(1);
    const mark = walk.commands.length;
    const wrappersBefore = invocation.wrappers.length;
    let next: Next = 'final';
    if (base !== null) {
      const unwrapped = unwrapCommand(base, args, invocation);
      for (const finding of unwrapped.found) act(walk, finding, invocation.frame);
      next = unwrapped.next;
      if (typeof next === 'object' && 'alone' in next) {
        // A wrapper given nothing to run is recorded as itself.
        const alone = next.alone;
        walk.commands.push(
          recordedCommand(
            words.map((word) => word.text),
            alone,
            classifyInvocation(base, args, walk.place.contextFor(alone.changesDirectory)),
            walk.resolver.resolve(name, alone.viaExec),
          ),
        );
        return;
      }
    }
    if (next === 'done') return;
    if (next === 'opaque') {
      walk.commands.push(
        recordedCommand(
          words.map((word) => word.text),
          { ...invocation, wrappers: invocation.wrappers.slice(0, wrappersBefore) },
          { readOnly: false, local: false },
          location,
        ),
      );
      return;
    }
    if (next === 'final') {
      // What the program itself starts (find -exec, a trap's action) is listed after it.
      const nested = walk.commands.splice(mark);
      finish(walk, words, invocation, location, base);
      walk.commands.push(...nested);
      return;
    }
    words = next;
    invocation.fromParser = false;
  }
}

/** Acts on what unwrapCommand found in a program reached in `frame`, in the order it was found. */
function act(walk: ShellWalk, finding: UnwrapFinding, frame: Frame): void {
  switch (finding.kind) {
    case 'reason':
      walk.reason(finding.text);
      return;
    case 'note':
      walk.note(finding.text);
      return;
    case 'script':
      walk.script(finding.source, finding.frame);
      return;
    case 'command':
      invoke(walk, finding.words, finding.invocation);
      return;
    case 'variable-name':
      checkVariableNameWord(walk, finding.word, finding.builtin);
      return;
    case 'arithmetic':
      arithmeticText(walk, finding.text, frame);
      return;
    case 'array':
      walk.variables.makeArray(finding.name);
      return;
    case 'read':
      walk.reads.push(...redirectRead(finding.word, finding.elsewhere ? null : walk.place.current));
      return;
  }
}

/** The real program: classify it and record it, with what its words read and where it leaves the shell. */
function finish(walk: ShellWalk, words: readonly Word[], invocation: Invocation, location: ProgramLocation, base: string | null): void {
  const context = walk.place.contextFor(invocation.changesDirectory);
  let args = words.slice(1);
  if (invocation.appendsArguments) args = [...args, { text: '$INPUT', kind: 'dynamic', splits: true, source: '$INPUT' }];
  const classification = base ? classifyInvocation(base, args, context) : { readOnly: false, local: false };
  const unknown = words.flatMap((word, index) => (word.kind === 'literal' ? [] : [index]));
  walk.commands.push(
    recordedCommand(
      words.map((word) => word.text),
      invocation,
      classification,
      location,
      { ...(unknown.length > 0 ? { unknownArgs: unknown } : {}), ...(invocation.appendsArguments ? { argumentsAppended: true } : {}) },
    ),
  );
  if (base) walk.reads.push(...argumentReads(base, args, invocation.changesDirectory ? null : walk.place.current, classification));
  if ('why' in classification && classification.why) walk.note(classification.why);
  if (base) walk.place.ran(base, words.slice(1), classification.readOnly);
}

/** The name the rules know the program by: its base name when it is a builtin or a system program. */
function recognisedName(name: string, location: ProgramLocation): string | null {
  if (!name.includes('/')) return name;
  return location.kind === 'system' ? path.basename(name) : null;
}
