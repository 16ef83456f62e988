import path from 'node:path';
import type { Node } from 'web-tree-sitter';
import type { CommandAnalysis, ReadTarget, SimpleCommand } from '../commandAnalysis';
import type { GitContext } from './classifyGit';
import { classifyInvocation, type InvocationContext } from './classifyInvocation';
import { isDangerousVariable } from './dangerousVariable';
import { findsWorkspaceRepository, workspaceRepositoryFetchesLazily } from './gitRepositoryAt';
import { parseShell } from './parser';
import { ansiCStringEnd, describeError, dropsEscape, hasBlankOnlyToParser, hidesSubstitution, joinContinuedLines } from './parserQuirks';
import { createProgramResolver, type ProgramLocation, type ProgramResolver } from './programResolver';
import { invocationIn, type Frame, type Invocation, type Stdin } from './invocation';
import { argumentReads, redirectRead, type Cwd } from './readTargets';
import { asDynamic, literalWord, readWord, touchingGroups, type Word } from './readWord';
import { unwrapCommand, type Next, type UnwrapFinding } from './unwrapCommand';

/**
 * The walk behind analyzeCommand: every simple command that can run, found in every place bash
 * runs one, with wrappers stripped and each judged on its own. Whatever it cannot pin down is
 * recorded as a reason, and one reason is enough to make the whole line ask.
 */

export interface ShellAnalysisOptions {
  cwd: string;
  workspaceRoot: string;
  pathEnv: string;
}

const MAX_DEPTH = 6;

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

/** Parameters whose value is always a number, so arithmetic on them cannot hide a command. */
const NUMERIC_SPECIAL_PARAMETERS = new Set([
  '?',
  '#',
  '$',
  '!',
  'RANDOM',
  'SRANDOM',
  'SECONDS',
  'LINENO',
  'BASHPID',
  'PPID',
  'UID',
  'EUID',
  'EPOCHSECONDS',
  'OPTIND',
]);

/** The names bash turns into a socket when a redirection opens them. */
const NETWORK_DEVICE = /^\/dev\/(tcp|udp)\//;

/** A case terminator (`;;`, `;&`, `;;&`) that tree-sitter accepts outside a case item and bash does not. */
function strayCaseTerminator(root: Node): string | undefined {
  const stray = root.descendantsOfType([';;', ';&', ';;&']).find((node) => node !== null && node.parent?.type !== 'case_item');
  return stray?.type;
}

/** Devices a redirection may write to without writing a file. */
const NOT_FILES = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty', '/dev/fd/1', '/dev/fd/2']);

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ARITHMETIC_NUMBER = /^(0[xX][0-9a-fA-F]+|[0-9]+(#[0-9A-Za-z@_]+)?)$/;

export class ShellAnalysis {
  private readonly commands: SimpleCommand[] = [];
  private readonly reads: ReadTarget[] = [];
  private readonly reasons: string[] = [];
  private readonly notes: string[] = [];
  private readonly functions = new Set<string>();
  private readonly programNames = new Set<string>();
  /** Per variable: whether every assignment seen gives it a number. */
  private readonly variables = new Map<string, 'numeric' | 'other'>();
  private readonly arithmeticReads = new Set<string>();
  /** Variables the line makes arrays. */
  private readonly arrays = new Set<string>();
  /** Where commands run, if every place they may run is known to be inside the workspace. */
  private cwd: Cwd | null;
  /** `set -P`: cd resolves symlinks before `..` from here on. */
  private physicalCd = false;
  /** The place the last cd left the shell in, while nothing else has moved it. */
  private cwdAfterCd: Cwd | null = null;
  private readonly resolver: ProgramResolver;
  private readonly cdpathSet = Boolean(process.env.CDPATH);

  constructor(options: ShellAnalysisOptions) {
    this.resolver = createProgramResolver(options.workspaceRoot, options.pathEnv);
    const cwd = path.resolve(options.workspaceRoot, options.cwd);
    this.cwd = this.resolver.isInsideWorkspace(cwd) ? { dir: cwd, certain: true } : null;
  }

  analyze(source: string): CommandAnalysis {
    // bash passes the command as a C string: a NUL ends it where the parser would read on.
    const nul = source.indexOf('\0');
    if (nul >= 0) {
      this.reason('the command contains a NUL character, which bash and this parser read differently');
      source = source.slice(0, nul);
    }
    this.script(source, {
      wrappers: [],
      writes: [],
      stdin: 'inherited',
      blockReadOnly: null,
      dialect: 'bash',
      depth: 0,
      cwdUnknown: false,
    });
    for (const name of this.functions) {
      // Calling a function defined on the line is fine (its body is analysed); one named like a
      // builtin or a program makes `name` mean one thing or the other depending on the order of runs.
      if (this.programNames.has(name) && this.resolver.resolve(name, false).kind !== 'missing') {
        this.reason(
          `the function ${name} shadows the program of the same name, so what \`${name}\` runs depends on the order the line runs in`,
        );
      }
    }
    for (const name of this.arithmeticReads) {
      if (!NUMERIC_SPECIAL_PARAMETERS.has(name) && this.variables.get(name) !== 'numeric') {
        this.reason(`arithmetic evaluates the variable ${name}, whose value could hide a command (a[$(cmd)])`);
      }
    }
    const result: CommandAnalysis = { commands: this.commands };
    if (this.reasons.length) {
      result.unpinnable = this.reasons.join('; ');
      // Belt and braces: a consumer that only looks at readOnly must not allow an unpinnable line.
      for (const command of this.commands) command.readOnly = false;
    }
    if (this.notes.length) result.notes = [...new Set(this.notes)];
    if (this.reads.length) result.reads = this.reads;
    return result;
  }

  private reason(text: string): void {
    if (!this.reasons.includes(text)) this.reasons.push(text);
  }

  // ── statements ──────────────────────────────────────────────────────────────────────────────

  private script(source: string, frame: Frame): void {
    if (frame.depth > MAX_DEPTH) {
      this.reason(`scripts nested more than ${MAX_DEPTH} deep are not analysed`);
      return;
    }
    let tree = parseShell(source);
    try {
      // tree-sitter splits a word at a backslash-newline, which bash removes before anything else:
      // `ec\<newline>ho` is echo to bash. Remove them as bash does, then read the result.
      const joined = joinContinuedLines(source, tree.rootNode);
      if (joined !== null) {
        tree.delete();
        tree = parseShell(joined);
      }
      if (tree.rootNode.hasError) this.reason(`bash syntax the parser could not read (${describeError(tree.rootNode)})`);
      const stray = strayCaseTerminator(tree.rootNode);
      if (stray) this.reason(`\`${stray}\` outside a case statement, which bash refuses to run`);
      if (hasBlankOnlyToParser(joined ?? source, tree.rootNode)) {
        this.reason('a carriage return, vertical tab or form feed outside quotes: part of a word to bash, a space to the parser');
      }
      this.statement(tree.rootNode, frame);
    } finally {
      tree.delete();
    }
  }

  private statement(node: Node, frame: Frame): void {
    switch (node.type) {
      case 'command':
        this.command(node, frame);
        return;
      case 'pipeline':
        this.pipeline(node, frame, false);
        return;
      case 'redirected_statement':
        this.redirectedStatement(node, frame);
        return;
      case 'declaration_command':
        this.declaration(node, frame);
        return;
      case 'unset_command':
        this.unset(node, frame);
        return;
      case 'variable_assignment':
        this.assignment(node, frame, true);
        return;
      case 'variable_assignments':
        for (const child of named(node)) this.statement(child, frame);
        return;
      case 'function_definition':
        this.functionDefinition(node, frame);
        return;
      case 'for_statement':
        this.forStatement(node, frame);
        return;
      case 'c_style_for_statement':
        this.cStyleFor(node, frame);
        return;
      case 'case_statement':
        this.caseStatement(node, frame);
        return;
      case 'test_command':
        this.testCommand(node, frame);
        return;
      case 'compound_statement':
        if (node.firstChild?.type === '((') {
          for (const child of named(node)) this.arithmetic(child, frame);
          return;
        }
        for (const child of named(node)) this.statement(child, frame);
        return;
      case 'file_redirect':
      case 'herestring_redirect':
      case 'heredoc_redirect': {
        // A redirection alone where a statement goes: `$(< file)` reads the file, `$(> file)` empties it.
        const { writes } = this.redirects([node], frame);
        if (writes.length)
          this.commands.push({
            argv: [],
            wrappers: [...frame.wrappers],
            assignments: [],
            readOnly: false,
            mayReachNetwork: false,
            writesTo: [...frame.writes, ...writes],
          });
        return;
      }
      case 'comment':
        return;
      case 'ERROR':
        for (const child of named(node)) this.statement(child, frame);
        return;
      case 'list':
        this.list(node, frame);
        return;
      case 'program':
      case 'subshell':
      case 'do_group':
      case 'if_statement':
      case 'elif_clause':
      case 'else_clause':
      case 'while_statement':
      case 'negated_command':
      case 'case_item':
        for (const child of named(node)) this.statement(child, frame);
        return;
      default:
        // Anything else in statement position (a word the parser stranded, an expansion): look inside it.
        this.expressions(node, frame);
    }
  }

  /**
   * `a && b`, `a || b`, `a; b` as the parser nests them. After `cd dir &&` the shell is surely in dir
   * for what the && runs (the cd succeeded); after that, it may be in either place again.
   */
  private list(node: Node, frame: Frame): void {
    const [left, ...rest] = named(node);
    if (!left) return;
    this.statement(left, frame);
    const operator = node.children.find(
      (child) => child !== null && !child.isNamed && (child.type === '&&' || child.type === '||' || child.type === ';'),
    );
    const afterCd = this.cwd !== null && this.cwd === this.cwdAfterCd && left.type === 'command';
    const uncertain = this.cwd;
    if (afterCd && operator?.type === '&&' && uncertain) this.cwd = { dir: uncertain.dir, certain: true };
    const certain = this.cwd;
    for (const child of rest) this.statement(child, frame);
    if (afterCd && this.cwd === certain) this.cwd = uncertain;
  }

  private pipeline(node: Node, frame: Frame, allFedByPipe: boolean): void {
    let first = !allFedByPipe;
    for (const child of named(node)) {
      if (child.type === 'comment') continue;
      this.statement(child, first ? frame : { ...frame, stdin: 'pipe' });
      first = false;
    }
  }

  private redirectedStatement(node: Node, frame: Frame): void {
    const body = node.childForFieldName('body');
    // Commands inside the redirections (a substitution in a target, a pipeline after a here-document)
    // are listed after the statement they belong to.
    const mark = this.commands.length;
    if (dropsEscape(node)) this.reason(`the parser dropped an escaped character in \`${node.text.slice(0, 60)}\` that bash keeps`);
    const { writes, stdin, document, stdinFile, strays } = this.redirects(
      node.children.filter((child): child is Node => child !== null && !sameNode(child, body)),
      frame,
    );
    const nested = this.commands.splice(mark);
    const inner: Frame = {
      ...frame,
      writes: [...frame.writes, ...writes],
      stdin: stdin ?? frame.stdin,
      ...(stdin ? { document, stdinFile } : {}),
    };
    if (body?.type === 'command') this.command(body, inner, strays);
    else {
      if (strays.length)
        this.reason(`words after a redirection (${strays.map((stray) => stray.text).join(' ')}) that bash would give to a command`);
      for (const stray of strays) this.expressions(stray, frame);
      if (body) this.statement(body, inner);
      // Only redirections (`> out.txt`): nothing runs, but a file is still created or emptied.
      else if (writes.length)
        this.commands.push({
          argv: [],
          wrappers: [...frame.wrappers],
          assignments: [],
          readOnly: false,
          mayReachNetwork: false,
          writesTo: [...inner.writes],
        });
    }
    this.commands.push(...nested);
  }

  /**
   * Reads redirections: the files they write, what they feed to standard input, and any command in
   * them (a substitution in a target, a here-document body). tree-sitter hangs the rest of a line
   * that follows a here-document operator inside the redirect node; those statements are walked too.
   * It also hangs the words after a target there (`find . >/dev/null -delete`): bash gives those to
   * the command, so they come back as strays for the caller to put into the command's arguments.
   */
  private redirects(
    nodes: readonly Node[],
    frame: Frame,
  ): { writes: string[]; stdin: Stdin | null; document?: string; stdinFile?: string; strays: Node[] } {
    const writes: string[] = [];
    const strays: Node[] = [];
    let stdin: Stdin | null = null;
    let document: string | undefined;
    let stdinFile: string | undefined;
    for (const node of nodes) {
      if (node.type === 'file_redirect') {
        const descriptorNode = node.childForFieldName('descriptor');
        const descriptor = descriptorNode?.text ?? null;
        const [target, ...rest] = touchingGroups(node.childrenForFieldName('destination').filter((child): child is Node => child !== null));
        // The operator as written between descriptor and target: the parser splits `<>` into "<" and an error.
        const operator = target
          ? node.text
              .slice((descriptorNode?.endIndex ?? node.startIndex) - node.startIndex, target[0]!.startIndex - node.startIndex)
              .replace(/\s+/g, '')
          : (node.children.find((child) => child !== null && !child.isNamed)?.type ?? '');
        for (const group of rest) strays.push(...group);
        if (!target) continue;
        const isProcess = target.length === 1 && target[0]!.type === 'process_substitution';
        for (const part of target) this.expressions(part, frame, isProcess && operator.startsWith('>') ? 'pipe' : undefined);
        const word = readWord(target);
        if (operator === '<' && (descriptor === null || descriptor === '0')) {
          stdin = isProcess ? 'pipe' : 'file';
          stdinFile = isProcess ? undefined : word.text;
        }
        if ((operator === '<' || operator === '<>') && !isProcess && !NETWORK_DEVICE.test(word.text))
          this.reads.push(...redirectRead(word, this.cwd));
        if (operator === '<&' || operator === '>&-' || operator === '<&-') continue;
        if (operator === '>&' && (/^\d+-?$/.test(word.text) || word.text === '-')) continue;
        // bash opens a connection for these names itself (no such files exist): the network, not a file.
        if (NETWORK_DEVICE.test(word.text)) this.reason(`a redirection to ${word.text}, which opens a network connection`);
        if (/^(>|>>|>\||&>|&>>|>&|<>)$/.test(operator) && !isProcess && !NOT_FILES.has(word.text)) writes.push(word.text);
      } else if (node.type === 'heredoc_redirect') {
        const start = node.children.find((child) => child?.type === 'heredoc_start');
        const body = node.children.find((child) => child?.type === 'heredoc_body');
        const quoted = start ? /['"\\]/.test(start.text) : false;
        if (body && !quoted) this.expressions(body, frame);
        stdin = quoted || !body || body.namedChildCount === 0 ? 'literal-document' : 'expanding-document';
        // Unquoted, bash still removes backslashes before $, ` and \ in the body.
        document =
          stdin === 'literal-document' ? (quoted ? (body?.text ?? '') : (body?.text ?? '').replace(/\\([$`\\])/g, '$1')) : undefined;
        let piped = false;
        for (const child of node.children) {
          if (!child) continue;
          if (child.type === '|' || child.type === '|&') piped = true;
          if (child.type === 'pipeline') this.pipeline(child, frame, true);
          else if (child.type === 'file_redirect' || child.type === 'heredoc_redirect' || child.type === 'herestring_redirect') {
            const nested = this.redirects([child], frame);
            writes.push(...nested.writes);
            strays.push(...nested.strays);
          } else if (child.isNamed && !['heredoc_start', 'heredoc_body', 'heredoc_end'].includes(child.type)) {
            this.statement(child, piped ? { ...frame, stdin: 'pipe' } : frame);
          }
        }
      } else if (node.type === 'herestring_redirect') {
        const [value, ...rest] = touchingGroups(named(node));
        for (const group of rest) strays.push(...group);
        for (const part of value ?? []) this.expressions(part, frame);
        const word = value ? readWord(value) : undefined;
        stdin = word?.kind === 'literal' ? 'literal-document' : 'expanding-document';
        document = word?.kind === 'literal' ? `${word.text}\n` : undefined;
      } else if (node.isNamed) {
        this.statement(node, frame);
      }
    }
    return {
      writes,
      stdin,
      ...(document !== undefined ? { document } : {}),
      ...(stdin === 'file' && stdinFile !== undefined ? { stdinFile } : {}),
      strays,
    };
  }

  private functionDefinition(node: Node, frame: Frame): void {
    const name = node.childForFieldName('name');
    if (name) {
      const word = readWord(name);
      if (word.kind !== 'literal') this.reason(`a function whose name is only known when it runs (${name.text})`);
      else this.functions.add(word.text);
    }
    const body = node.childForFieldName('body');
    const redirects = node.children.filter(
      (child): child is Node => child !== null && !sameNode(child, body) && !sameNode(child, name) && child.isNamed,
    );
    const { writes } = this.redirects(redirects, frame);
    if (body) this.statement(body, { ...frame, writes: [...frame.writes, ...writes] });
  }

  private forStatement(node: Node, frame: Frame): void {
    const variable = node.childForFieldName('variable');
    if (variable) this.assignVariable(variable.text, 'other', frame);
    for (const value of node.childrenForFieldName('value')) if (value) this.expressions(value, frame);
    const body = node.childForFieldName('body');
    if (body) this.statement(body, frame);
  }

  private cStyleFor(node: Node, frame: Frame): void {
    for (const field of ['initializer', 'condition', 'update']) {
      for (const part of node.childrenForFieldName(field)) if (part?.isNamed) this.arithmetic(part, frame);
    }
    const body = node.childForFieldName('body');
    if (body) this.statement(body, frame);
  }

  private caseStatement(node: Node, frame: Frame): void {
    for (const value of node.childrenForFieldName('value')) if (value) this.expressions(value, frame);
    for (const item of named(node)) {
      if (item.type !== 'case_item') continue;
      for (let i = 0; i < item.childCount; i++) {
        const child = item.child(i);
        if (!child?.isNamed) continue;
        if (item.fieldNameForChild(i) === 'value') this.expressions(child, frame);
        else this.statement(child, frame);
      }
    }
  }

  /** `[[ ... ]]` and `[ ... ]`: nothing runs, but -eq and friends evaluate arithmetic inside [[ ]], and -v evaluates subscripts. */
  private testCommand(node: Node, frame: Frame): void {
    const doubleBracket = node.firstChild?.type === '[[';
    const visit = (expression: Node): void => {
      if (expression.type === 'binary_expression' || expression.type === 'unary_expression') {
        const operator = expression.childForFieldName('operator');
        const op = operator?.text ?? '';
        const operands = named(expression).filter((child) => !sameNode(child, operator));
        if (doubleBracket && /^-(eq|ne|lt|le|gt|ge)$/.test(op)) {
          for (const operand of operands) this.arithmeticOperand(operand, frame);
          return;
        }
        if (op === '-v') {
          for (const operand of operands) this.checkVariableNameWord(readWord(operand), 'test -v', frame);
        }
        for (const operand of operands) visit(operand);
        return;
      }
      if (expression.type === 'parenthesized_expression') {
        for (const child of named(expression)) visit(child);
        return;
      }
      this.expressions(expression, frame);
    };
    for (const child of named(node)) visit(child);
  }

  // ── assignments and declarations ────────────────────────────────────────────────────────────

  /** `NAME=value`, `NAME[i]=value`, `NAME+=value`; `standalone` when it is a statement of its own. */
  private assignment(node: Node, frame: Frame, standalone: boolean, touching: readonly Node[] = []): string | null {
    const nameNode = node.childForFieldName('name');
    const value = node.childForFieldName('value');
    if (value) this.expressions(value, frame);
    for (const part of touching) this.expressions(part, frame);
    const valueText = value || touching.length ? readWord(value ? [value, ...touching] : touching).text : '';
    if (!nameNode) return null;
    let name = nameNode.text;
    if (nameNode.type === 'subscript') {
      const base = nameNode.childForFieldName('name');
      name = base?.text ?? name;
      const index = nameNode.childForFieldName('index');
      if (index) this.subscriptIndex(index, frame);
    }
    const operator = node.children.find((child) => child !== null && !child.isNamed)?.type;
    if (value?.type === 'array') this.arrays.add(name);
    const numeric = operator === '=' && /^-?[0-9]+$/.test(valueText);
    const arithmeticValue = value?.type === 'arithmetic_expansion' && touching.length === 0;
    this.assignVariable(name, numeric || arithmeticValue ? 'numeric' : 'other', frame);
    if (isDangerousVariable(name)) {
      this.reason(
        standalone ? `sets ${name}, which changes what later commands run` : `sets ${name} for the command, which changes what it runs`,
      );
    }
    return name;
  }

  private assignVariable(name: string, kind: 'numeric' | 'other', _frame: Frame): void {
    if (kind === 'other' || !this.variables.has(name)) this.variables.set(name, kind);
  }

  private declaration(node: Node, frame: Frame): void {
    const keyword = node.firstChild?.type ?? 'declare';
    const argv: string[] = [keyword];
    let literal = true;
    let arrayOption = false;
    for (const group of touchingGroups(named(node))) {
      const head = group[0]!;
      if (head.type === 'variable_assignment') {
        const name = this.assignment(head, frame, true, group.slice(1));
        const value = head.childForFieldName('value');
        const word = readWord(group);
        argv.push(word.kind === 'literal' ? word.text : word.source);
        if (name && value?.type !== 'array') {
          const valueParts = value ? [value, ...group.slice(1)] : group.slice(1);
          this.declaredValue(keyword, name, valueParts.length ? readWord(valueParts) : literalWord(''), arrayOption);
        }
        continue;
      }
      if (group.length === 1 && head.type === 'variable_name') {
        argv.push(head.text);
        continue;
      }
      const word = readWord(group);
      for (const part of group) this.expressions(part, frame);
      argv.push(word.text);
      if (word.kind !== 'literal') {
        literal = false;
        this.reason(`${keyword} with an argument only known when it runs (${word.source}), which can name any variable`);
        continue;
      }
      if (/^[-+]/.test(word.text)) {
        // -i makes later assignments arithmetic (which can run commands); -n makes a name stand for another.
        if (/[in]/.test(word.text.slice(1))) this.reason(`${keyword} ${word.text} makes assignments evaluate their values`);
        if (/[aA]/.test(word.text.slice(1))) arrayOption = true;
        continue;
      }
      // A quoted NAME=value is still an assignment to bash.
      this.checkVariableNameWord(word, keyword, frame);
      const eq = word.text.indexOf('=');
      if (eq > 0) this.declaredValue(keyword, word.text.slice(0, eq).replace(/\+$/, ''), literalWord(word.text.slice(eq + 1)), arrayOption);
    }
    const location = this.resolver.resolve(keyword, false);
    this.pushCommand(
      argv,
      { ...invocationIn(frame, true), wrappers: [...frame.wrappers] },
      literal ? { readOnly: true, local: true } : { readOnly: false, local: true },
      location,
    );
  }

  /**
   * declare and friends read a value that looks like `(...)` as an array assignment, expanding it
   * again (`declare -a x="($y)"` runs the command substitutions in y): for an array, a quoted or
   * expanded value is code.
   */
  private declaredValue(keyword: string, name: string, value: Word, arrayOption: boolean): void {
    const array = arrayOption || this.arrays.has(name);
    if ((value.kind === 'literal' && value.text.trimStart().startsWith('(')) || (array && value.kind !== 'literal')) {
      this.reason(`${keyword} ${name}=${value.source} is read as an array assignment and expanded again`);
    }
    if (arrayOption) this.arrays.add(name);
  }

  private unset(node: Node, frame: Frame): void {
    const argv = ['unset'];
    for (const group of touchingGroups(named(node))) {
      const word = readWord(group);
      for (const part of group) this.expressions(part, frame);
      argv.push(word.text);
      if (!word.text.startsWith('-')) this.checkVariableNameWord(word, 'unset', frame);
    }
    this.pushCommand(argv, invocationIn(frame, true), { readOnly: true, local: true }, { kind: 'builtin' });
  }

  /**
   * A word a builtin takes as a variable name (read NAME, printf -v NAME, declare NAME=..., test -v NAME):
   * it must be literal, must not be one of the variables that change what runs, and a subscript in
   * it is arithmetic.
   */
  private checkVariableNameWord(word: Word, builtin: string, frame: Frame): void {
    if (word.kind !== 'literal') {
      this.reason(`${builtin} takes a variable name only known when it runs (${word.source})`);
      return;
    }
    const text = word.text;
    const eq = text.indexOf('=');
    const target = (eq >= 0 ? text.slice(0, eq) : text).replace(/\+$/, '');
    const bracket = target.indexOf('[');
    const name = bracket >= 0 ? target.slice(0, bracket) : target;
    if (bracket >= 0) {
      const index = target.slice(bracket + 1, target.endsWith(']') ? -1 : undefined);
      if (!/^(\d+|@|\*)$/.test(index)) this.reason(`${builtin} ${text}: the subscript is evaluated as arithmetic, which can run commands`);
    }
    if (isDangerousVariable(name)) this.reason(`${builtin} sets ${name}, which changes what later commands run`);
    if (eq >= 0) this.assignVariable(name, /^-?\d+$/.test(text.slice(eq + 1)) ? 'numeric' : 'other', frame);
    else if (
      builtin !== 'unset' &&
      builtin !== 'test -v' &&
      builtin !== 'declare' &&
      builtin !== 'local' &&
      builtin !== 'export' &&
      builtin !== 'readonly' &&
      builtin !== 'typeset'
    ) {
      this.assignVariable(name, 'other', frame);
    }
  }

  // ── words and expressions ───────────────────────────────────────────────────────────────────

  /**
   * Looks inside a word-like node for what runs or evaluates there: command and process
   * substitutions (walked as scripts), arithmetic, and expansions that evaluate a value as code.
   */
  private expressions(node: Node, frame: Frame, processStdin?: Stdin): void {
    switch (node.type) {
      case 'command_substitution':
        this.substitution(node, frame);
        return;
      case 'process_substitution':
        // >(cmd) reads what the outer command writes: for an interpreter, a program from a pipe.
        for (const child of named(node))
          this.statement(child, { ...frame, writes: [], stdin: processStdin ?? (node.firstChild?.type === '>(' ? 'pipe' : frame.stdin) });
        return;
      case 'arithmetic_expansion':
        for (const child of named(node)) this.arithmetic(child, frame);
        return;
      case 'expansion':
        this.expansion(node, frame);
        return;
      case 'simple_expansion':
        return;
      case 'ansi_c_string':
        if (ansiCStringEnd(node.text) !== node.text.length) {
          this.reason(`the parser read \`${node.text.slice(0, 40)}\` as one quoted string where bash ends it sooner`);
        }
        return;
      case 'raw_string':
      case 'comment':
      case 'heredoc_start':
      case 'heredoc_end':
        return;
      default:
        if (node.childCount === 0) {
          this.checkLeaf(node);
          return;
        }
        for (const child of named(node)) this.expressions(child, frame, processStdin);
    }
  }

  /** A leaf the parser did not split, but which bash would expand: a substitution hiding in it. */
  private checkLeaf(node: Node): void {
    if (!node.isNamed || node.type === 'number' || node.type === 'variable_name' || node.type === 'test_operator') return;
    if (node.type === 'heredoc_body' || node.type === 'heredoc_content') {
      const start =
        node.parent?.children.find((child) => child?.type === 'heredoc_start') ??
        node.parent?.parent?.children.find((child) => child?.type === 'heredoc_start');
      if (start && /['"\\]/.test(start.text)) return;
    }
    if (hidesSubstitution(node.text))
      this.reason(`the parser left \`${node.text.slice(0, 40)}\` unexpanded, but bash would run what is in it`);
  }

  private substitution(node: Node, frame: Frame): void {
    const inner: Frame = { ...frame, writes: [], depth: frame.depth + 1 };
    if (node.firstChild?.type === '`') {
      // Inside backticks bash removes one level of backslashes and parses the rest again: nested
      // backticks (`a \`b\``) are commands the first parse saw as text.
      const text = node.text.slice(1, -1).replace(/\\([$`\\])/g, '$1');
      this.script(text, inner);
      return;
    }
    for (const child of named(node)) this.statement(child, inner);
  }

  private expansion(node: Node, frame: Frame): void {
    const children = node.children.filter((child): child is Node => child !== null);
    const operators = children.filter((child) => !child.isNamed).map((child) => child.type);
    const firstNamed = children.find((child) => child.isNamed);
    if (operators.includes('@') && children.some((child) => child.type === 'P')) {
      this.reason(`${node.text} expands the value as a prompt, which runs the command substitutions in it`);
    }
    if (children[1]?.type === '!' && firstNamed?.type === 'variable_name' && !operators.includes('*') && !operators.includes('@')) {
      this.reason(`${node.text} reads the variable named by another variable's value, which can hide a command in a subscript`);
    }
    if ((operators.includes(':=') || operators.includes('=')) && firstNamed?.type === 'variable_name') {
      this.assignVariable(firstNamed.text, 'other', frame);
      if (isDangerousVariable(firstNamed.text)) this.reason(`${node.text} sets ${firstNamed.text}, which changes what later commands run`);
    }
    let inOffset = false;
    for (const child of children) {
      if (!child.isNamed) {
        if (child.type === ':') inOffset = true;
        else if (child.type !== '}') inOffset = false;
        continue;
      }
      if (child.type === 'subscript') {
        const index = child.childForFieldName('index');
        if (index) this.subscriptIndex(index, frame);
        continue;
      }
      if (inOffset) {
        this.arithmeticOperand(child, frame);
        continue;
      }
      if (sameNode(child, firstNamed) && child.type === 'variable_name') continue;
      this.expressions(child, frame);
    }
  }

  private subscriptIndex(index: Node, frame: Frame): void {
    if (index.text === '@' || index.text === '*') return;
    this.arithmeticOperand(index, frame);
  }

  /** A word bash evaluates as an arithmetic expression (a subscript, an offset, an operand of -eq in [[ ]]). */
  private arithmeticOperand(node: Node, frame: Frame): void {
    if (node.type === 'word' || node.type === 'number' || node.type === 'variable_name') {
      const text = node.text;
      if (ARITHMETIC_NUMBER.test(text) || /^-[0-9]+$/.test(text)) return;
      if (IDENTIFIER.test(text)) {
        this.arithmeticReads.add(text);
        return;
      }
      // Anything else is an expression in a string: parse it as bash would evaluate it.
      this.arithmeticText(text, frame);
      return;
    }
    this.arithmetic(node, frame);
  }

  /** An arithmetic expression given as text (a let argument, a subscript the parser kept as a word). */
  private arithmeticText(text: string, frame: Frame): void {
    const tree = parseShell(`(( ${text} ))`);
    try {
      if (tree.rootNode.hasError) this.reason(`an arithmetic expression the parser could not read (${text})`);
      else for (const child of named(tree.rootNode)) this.statement(child, frame);
    } finally {
      tree.delete();
    }
  }

  /** Inside $(( )), (( )), for (( )) and let: variables are read as expressions themselves. */
  private arithmetic(node: Node, frame: Frame): void {
    switch (node.type) {
      case 'number':
        return;
      case 'variable_name':
      case 'word':
        if (ARITHMETIC_NUMBER.test(node.text)) return;
        if (IDENTIFIER.test(node.text)) this.arithmeticReads.add(node.text);
        else this.reason(`arithmetic on \`${node.text}\`, which the parser could not read as a name or number`);
        return;
      case 'simple_expansion': {
        const inner = named(node)[0];
        if (inner) this.arithmeticReads.add(inner.text);
        return;
      }
      case 'expansion': {
        const children = named(node);
        if (children.length === 1 && children[0]!.type === 'variable_name' && node.namedChildCount === node.childCount - 2) {
          this.arithmeticReads.add(children[0]!.text);
          return;
        }
        this.reason(`arithmetic evaluates the expansion ${node.text}, whose value could hide a command`);
        this.expansion(node, frame);
        return;
      }
      case 'command_substitution':
        this.reason(`arithmetic evaluates the output of ${node.text.slice(0, 40)}, which could hide a command (a[$(cmd)])`);
        this.substitution(node, frame);
        return;
      case 'subscript': {
        const base = node.childForFieldName('name');
        if (base) this.arithmeticReads.add(base.text);
        const index = node.childForFieldName('index');
        if (index) this.subscriptIndex(index, frame);
        return;
      }
      case 'variable_assignment': {
        // `i=0` inside (( )) or for (( )): the result is a number.
        const name = node.childForFieldName('name');
        const value = node.childForFieldName('value');
        if (name) this.assignVariable(name.text, 'numeric', frame);
        if (value) this.arithmetic(value, frame);
        return;
      }
      case 'binary_expression': {
        const operator = node.childForFieldName('operator')?.text ?? '';
        const left = node.childForFieldName('left');
        if (/^([-+*/%&|^]|<<|>>|\*\*)?=$/.test(operator) && operator !== '==' && left && IDENTIFIER.test(left.text)) {
          this.assignVariable(left.text, 'numeric', frame);
          if (operator !== '=') this.arithmeticReads.add(left.text);
          const right = node.childForFieldName('right');
          if (right) this.arithmetic(right, frame);
          return;
        }
        for (const child of named(node)) this.arithmetic(child, frame);
        return;
      }
      case 'postfix_expression':
      case 'unary_expression': {
        const operand = named(node).find((child) => child.type !== 'test_operator');
        const operator = node.children.find((child) => child !== null && !child.isNamed)?.type;
        if (operand && (operator === '++' || operator === '--') && IDENTIFIER.test(operand.text)) {
          this.assignVariable(operand.text, 'numeric', frame);
          this.arithmeticReads.add(operand.text);
          return;
        }
        for (const child of named(node)) this.arithmetic(child, frame);
        return;
      }
      case 'parenthesized_expression':
      case 'ternary_expression':
      case 'arithmetic_expansion':
        for (const child of named(node)) this.arithmetic(child, frame);
        return;
      default:
        this.reason(`arithmetic on \`${node.text.slice(0, 40)}\`, which could hide a command`);
        this.expressions(node, frame);
    }
  }

  // ── commands ────────────────────────────────────────────────────────────────────────────────

  private command(node: Node, frame: Frame, strays: readonly Node[] = []): void {
    // The command is listed first, then the commands nested in it ($( ), <( ), here-documents).
    const mark = this.commands.length;
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
          this.reason(`the parser split \`${node.text.slice(0, 60)}\` differently from bash`);
          continue;
        }
        parts.push(child);
      } else if (field === 'redirect' || child.type.endsWith('_redirect')) {
        redirectNodes.push(child);
      } else if (child.type === 'variable_assignment') {
        parts.push(child);
      } else if (child.isNamed && child.type !== 'comment') {
        this.reason(`the parser found \`${child.text.slice(0, 40)}\` in a command where bash may read something else`);
        this.expressions(child, frame);
      }
    }
    if (dropsEscape(node)) this.reason(`the parser dropped an escaped character in \`${node.text.slice(0, 60)}\` that bash keeps`);
    const redirected = this.redirects(redirectNodes, frame);
    // Pieces with no space between them are one word to bash, whatever the parser made of them.
    const words: Word[] = [];
    const wordNodes: Node[] = [];
    const assignments: string[] = [];
    for (const group of touchingGroups([...parts, ...redirected.strays])) {
      const head = group[0]!;
      if (words.length === 0 && head.type === 'variable_assignment') {
        const name = this.assignment(head, frame, false, group.slice(1));
        if (name) assignments.push(name);
        continue;
      }
      // An assignment the parser did not see as one (it split an earlier word): NAME= unquoted at the start.
      const assigned =
        words.length === 0 ? /^([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?\+?=/.exec(group.map((part) => part.text).join('')) : null;
      if (assigned) {
        const name = assigned[1]!;
        for (const part of group) this.expressions(part, frame);
        this.assignVariable(name, 'other', frame);
        if (isDangerousVariable(name)) this.reason(`sets ${name} for the command, which changes what it runs`);
        if (assigned[2] && !/^\[\d*\]$/.test(assigned[2]))
          this.reason(`the subscript of ${assigned[0]} is evaluated as arithmetic, which can run commands`);
        assignments.push(name);
        continue;
      }
      words.push(readWord(group));
      wordNodes.push(...group);
    }
    const nested = this.commands.splice(mark);
    if (frame.dialect === 'zsh') this.checkZshWords(words);
    const writes = redirected.writes;
    if (words.length === 0) {
      if (writes.length)
        this.commands.push({
          argv: [],
          wrappers: [...frame.wrappers],
          assignments,
          readOnly: false,
          mayReachNetwork: false,
          writesTo: [...frame.writes, ...writes],
        });
    } else {
      this.invoke(words, {
        ...invocationIn(frame, true),
        assignments,
        writes: [...frame.writes, ...writes],
        stdin: redirected.stdin ?? frame.stdin,
        ...(redirected.document !== undefined ? { document: redirected.document } : {}),
        ...(redirected.stdinFile !== undefined ? { stdinFile: redirected.stdinFile } : {}),
      });
    }
    for (const part of wordNodes) this.expressions(part, frame);
    this.commands.push(...nested);
  }

  /** zsh expands some words bash leaves alone (=cmd, glob qualifiers that run code): never guess at those. */
  private checkZshWords(words: readonly Word[]): void {
    for (const word of words) {
      if (
        word.kind === 'pattern' ||
        (word.kind === 'literal' && /^[=~]/.test(word.source)) ||
        /[()^#]/.test(word.source.replace(/'[^']*'|"[^"]*"/g, ''))
      ) {
        this.reason(`zsh would expand ${word.source} differently from bash`);
      }
    }
  }

  /**
   * Strips wrappers one after another until the real program is reached, then records it. Wrappers
   * that run a script (bash -c, eval, watch, su -c) hand it to script(); find's -exec commands are
   * invocations of their own.
   */
  private invoke(initial: readonly Word[], start: Invocation): void {
    let words = [...initial];
    const invocation: Invocation = { ...start, wrappers: [...start.wrappers], assignments: [...start.assignments] };
    for (;;) {
      const program = words[0];
      if (!program) return;
      if (invocation.placeholder && program.text.includes(invocation.placeholder)) words[0] = asDynamic(program);
      const head = words[0]!;
      if (head.kind !== 'literal') {
        this.reason(`the program name ${head.source} is only known when it runs`);
        this.pushCommand(
          words.map((word) => word.text),
          invocation,
          { readOnly: false, local: false },
          { kind: 'missing' },
        );
        return;
      }
      const name = head.text;
      if (name === '') {
        this.reason('an empty program name');
        return;
      }
      this.programNames.add(name);
      const location = this.resolver.resolve(name, invocation.viaExec);
      const base = recognisedName(name, location);
      if (invocation.fromParser && !invocation.viaExec && RESERVED_WORDS.has(name)) {
        this.reason(`\`${name}\` here is bash syntax the parser read as a command`);
      }
      const args = words.slice(1);
      const mark = this.commands.length;
      const wrappersBefore = invocation.wrappers.length;
      let next: Next = 'final';
      if (base !== null) {
        const unwrapped = unwrapCommand(base, args, invocation);
        for (const finding of unwrapped.found) this.act(finding, invocation.frame);
        next = unwrapped.next;
        if (typeof next === 'object' && 'alone' in next) {
          // A wrapper given nothing to run is recorded as itself.
          const alone = next.alone;
          this.pushCommand(
            words.map((word) => word.text),
            alone,
            classifyInvocation(base, args, this.invocationContext(alone)),
            this.resolver.resolve(name, alone.viaExec),
          );
          return;
        }
      }
      if (next === 'done') return;
      if (next === 'opaque') {
        this.pushCommand(
          words.map((word) => word.text),
          { ...invocation, wrappers: invocation.wrappers.slice(0, wrappersBefore) },
          { readOnly: false, local: false },
          location,
        );
        return;
      }
      if (next === 'final') {
        // What the program itself starts (find -exec, a trap's action) is listed after it.
        const nested = this.commands.splice(mark);
        this.finish(words, invocation, location, base);
        this.commands.push(...nested);
        return;
      }
      words = next;
      invocation.fromParser = false;
    }
  }

  /** Acts on what unwrapCommand found in a program reached in `frame`, in the order it was found. */
  private act(finding: UnwrapFinding, frame: Frame): void {
    switch (finding.kind) {
      case 'reason':
        this.reason(finding.text);
        return;
      case 'note':
        this.notes.push(finding.text);
        return;
      case 'script':
        this.script(finding.source, finding.frame);
        return;
      case 'command':
        this.invoke(finding.words, finding.invocation);
        return;
      case 'variable-name':
        this.checkVariableNameWord(finding.word, finding.builtin, frame);
        return;
      case 'arithmetic':
        this.arithmeticText(finding.text, frame);
        return;
      case 'array':
        this.arrays.add(finding.name);
        return;
      case 'read':
        this.reads.push(...redirectRead(finding.word, finding.elsewhere ? null : this.cwd));
        return;
    }
  }

  private invocationContext(invocation: Invocation): InvocationContext & GitContext {
    const cwd = invocation.changesDirectory ? null : this.cwd;
    return {
      cwdInWorkspace: cwd !== null,
      directoryInWorkspace: (dir: string): boolean => {
        if (dir.startsWith('~')) return false;
        let target: string;
        if (path.isAbsolute(dir)) target = dir;
        else {
          // A relative cd also searches CDPATH, which can lead anywhere.
          if (!cwd?.certain || (this.cdpathSet && !/^\.\.?(\/|$)/.test(dir))) return false;
          target = path.resolve(cwd.dir, dir);
        }
        return this.resolver.isInsideWorkspace(target);
      },
      gitRepositoryIsOwn: (dir: string): boolean => cwd !== null && findsWorkspaceRepository(this.resolver.workspaceRoot, cwd.dir, dir),
      fetchesLazily: (): boolean => workspaceRepositoryFetchesLazily(this.resolver.workspaceRoot),
    };
  }

  /** The real program: classify it and record it. */
  private finish(words: readonly Word[], invocation: Invocation, location: ProgramLocation, base: string | null): void {
    const context = this.invocationContext(invocation);
    let args = words.slice(1);
    if (invocation.appendsArguments) args = [...args, { text: '$INPUT', kind: 'dynamic', splits: true, source: '$INPUT' }];
    const classification = base ? classifyInvocation(base, args, context) : { readOnly: false, local: false };
    const unknown = words.flatMap((word, index) => (word.kind === 'literal' ? [] : [index]));
    this.pushCommand(
      words.map((word) => word.text),
      invocation,
      classification,
      location,
      { ...(unknown.length > 0 ? { unknownArgs: unknown } : {}), ...(invocation.appendsArguments ? { argumentsAppended: true } : {}) },
    );
    if (base) this.reads.push(...argumentReads(base, args, invocation.changesDirectory ? null : this.cwd, classification));
    if (classification.why) this.notes.push(classification.why);
    if (base === 'set' && args.some((word) => /^-[^-]*P/.test(word.text) || word.text === 'physical')) this.physicalCd = true;
    if (base === 'cd' || base === 'pushd') {
      // After a cd into the workspace the shell may be in either place (the cd can fail or be
      // skipped), both inside; relative paths after it are no longer certain.
      const operand = words.slice(1).find((word) => !word.text.startsWith('-'));
      const from = this.cwd;
      // cd -P (or after set -P) follows symlinks before `..`: where it lands is the kernel's business.
      const physical = this.physicalCd || words.slice(1).some((word) => /^-[LPe@]*P/.test(word.text));
      this.cwd =
        classification.readOnly && operand && from && !physical
          ? { dir: path.resolve(from.dir, operand.text), certain: false, alternatives: [from.dir, ...(from.alternatives ?? [])] }
          : null;
      this.cwdAfterCd = this.cwd;
    } else if (base === 'popd') {
      this.cwd = null;
    }
  }

  private pushCommand(
    argv: string[],
    invocation: Invocation,
    classification: { readOnly: boolean; local: boolean },
    location: ProgramLocation,
    facts: Pick<SimpleCommand, 'unknownArgs' | 'argumentsAppended'> = {},
  ): void {
    const trusted = location.kind === 'builtin' || location.kind === 'system';
    const writes = [...invocation.writes];
    const readOnly =
      classification.readOnly &&
      trusted &&
      writes.length === 0 &&
      invocation.blockReadOnly === null &&
      !invocation.changesDirectory &&
      !invocation.placeholder;
    const local = classification.local && trusted;
    this.commands.push({
      argv,
      wrappers: [...invocation.wrappers],
      assignments: [...invocation.assignments],
      readOnly,
      mayReachNetwork: !(readOnly || local),
      writesTo: writes,
      ...(invocation.stdin === 'file' && invocation.stdinFile !== undefined ? { readsFrom: invocation.stdinFile } : {}),
      ...(invocation.stdin === 'pipe' ? { fedByPipe: true } : {}),
      // What the program would be without its redirections, so a person reads `cat a > b` as reading a and writing b.
      ...(!readOnly && classification.readOnly && trusted && writes.length > 0 ? { readsBesideWrites: true } : {}),
      ...facts,
    });
  }
}

/** The name the rules know the program by: its base name when it is a builtin or a system program. */
function recognisedName(name: string, location: ProgramLocation): string | null {
  if (!name.includes('/')) return name;
  return location.kind === 'system' ? path.basename(name) : null;
}

/** web-tree-sitter hands out a new object for every access: compare by id. */
function sameNode(a: Node | null | undefined, b: Node | null | undefined): boolean {
  return a !== null && a !== undefined && b !== null && b !== undefined && a.id === b.id;
}

function named(node: Node): Node[] {
  const out: Node[] = [];
  for (const child of node.namedChildren) if (child) out.push(child);
  return out;
}
