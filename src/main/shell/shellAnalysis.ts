import path from 'node:path';
import type { Node } from 'web-tree-sitter';
import type { CommandAnalysis, ReadTarget, SimpleCommand } from './commandAnalysis';
import { arithmeticOperand, subscriptIndex, walkArithmetic } from './arithmetic';
import { walkCommand } from './commandInvocation';
import { isDangerousVariable } from './dangerousVariable';
import type { Frame, Stdin } from './invocation';
import { parseShell } from './parser';
import { ansiCStringEnd, describeError, dropsEscape, hasBlankOnlyToParser, hidesSubstitution, joinContinuedLines } from './parserQuirks';
import { createProgramResolver, type ProgramResolver } from './programResolver';
import { readWord } from './readWord';
import { redirectionsOnly } from './recordCommand';
import { readRedirections } from './redirections';
import { ShellVariables } from './shellVariables';
import type { ShellWalk } from './shellWalk';
import { named, sameNode } from './treeNodes';
import { checkVariableNameWord, walkAssignment, walkDeclaration, walkUnset } from './variableAssignments';
import { WorkingDirectory } from './workingDirectory';

/**
 * The walk behind analyzeCommand: every simple command that can run, found in every place bash
 * runs one, with wrappers stripped and each judged on its own. Whatever it cannot pin down is
 * recorded as a reason, and one reason is enough to make the whole line ask.
 *
 * This file walks the statements and the words; its parts are redirections.ts, arithmetic.ts,
 * variableAssignments.ts and commandInvocation.ts (a simple command, its wrappers, its program), and
 * the line's state is ShellVariables and WorkingDirectory.
 */

export interface ShellAnalysisOptions {
  cwd: string;
  workspaceRoot: string;
  pathEnv: string;
}

const MAX_DEPTH = 6;

/** A case terminator (`;;`, `;&`, `;;&`) that tree-sitter accepts outside a case item and bash does not. */
function strayCaseTerminator(root: Node): string | undefined {
  const stray = root.descendantsOfType([';;', ';&', ';;&']).find((node) => node !== null && node.parent?.type !== 'case_item');
  return stray?.type;
}

export class ShellAnalysis implements ShellWalk {
  readonly commands: SimpleCommand[] = [];
  readonly reads: ReadTarget[] = [];
  readonly variables = new ShellVariables();
  readonly place: WorkingDirectory;
  readonly resolver: ProgramResolver;
  readonly functions = new Set<string>();
  readonly programNames = new Set<string>();
  private readonly reasons: string[] = [];
  private readonly notes: string[] = [];

  constructor(options: ShellAnalysisOptions) {
    this.resolver = createProgramResolver(options.workspaceRoot, options.pathEnv);
    this.place = new WorkingDirectory(this.resolver, path.resolve(options.workspaceRoot, options.cwd));
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
    for (const name of this.variables.mayHideCommandInArithmetic()) {
      this.reason(`arithmetic evaluates the variable ${name}, whose value could hide a command (a[$(cmd)])`);
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

  reason(text: string): void {
    if (!this.reasons.includes(text)) this.reasons.push(text);
  }

  note(text: string): void {
    this.notes.push(text);
  }

  // ── statements ──────────────────────────────────────────────────────────────────────────────

  script(source: string, frame: Frame): void {
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

  statement(node: Node, frame: Frame): void {
    switch (node.type) {
      case 'command':
        walkCommand(this, node, frame);
        return;
      case 'pipeline':
        this.pipeline(node, frame, false);
        return;
      case 'redirected_statement':
        this.redirectedStatement(node, frame);
        return;
      case 'declaration_command':
        walkDeclaration(this, node, frame);
        return;
      case 'unset_command':
        walkUnset(this, node, frame);
        return;
      case 'variable_assignment':
        walkAssignment(this, node, frame, true);
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
          for (const child of named(node)) walkArithmetic(this, child, frame);
          return;
        }
        for (const child of named(node)) this.statement(child, frame);
        return;
      case 'file_redirect':
      case 'herestring_redirect':
      case 'heredoc_redirect': {
        // A redirection alone where a statement goes: `$(< file)` reads the file, `$(> file)` empties it.
        const { writes } = readRedirections(this, [node], frame);
        if (writes.length) this.commands.push(redirectionsOnly(frame.wrappers, [], [...frame.writes, ...writes]));
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
  /** `last`: the frame of the list's last statement, when the redirections the parser hung on the list are its own. */
  private list(node: Node, frame: Frame, last: Frame = frame): void {
    const [left, ...rest] = named(node);
    if (!left) return;
    this.statement(left, rest.length === 0 ? last : frame);
    const operator = node.children.find(
      (child) => child !== null && !child.isNamed && (child.type === '&&' || child.type === '||' || child.type === ';'),
    );
    this.place.afterListHead(left.type === 'command', operator?.type, () =>
      rest.forEach((child, index) => this.statement(child, index === rest.length - 1 ? last : frame)),
    );
  }

  pipeline(node: Node, frame: Frame, allFedByPipe: boolean): void {
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
    const { writes, stdin, document, stdinFile, strays } = readRedirections(
      this,
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
    if (body?.type === 'command') walkCommand(this, body, inner, strays);
    else {
      if (strays.length)
        this.reason(`words after a redirection (${strays.map((stray) => stray.text).join(' ')}) that bash would give to a command`);
      for (const stray of strays) this.expressions(stray, frame);
      // tree-sitter hangs the redirections after `a && b` on the whole list; bash gives them to `b` alone.
      if (body?.type === 'list') this.list(body, frame, inner);
      else if (body) this.statement(body, inner);
      // Only redirections (`> out.txt`): nothing runs, but a file is still created or emptied.
      else if (writes.length) this.commands.push(redirectionsOnly(frame.wrappers, [], inner.writes));
    }
    this.commands.push(...nested);
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
    const { writes } = readRedirections(this, redirects, frame);
    if (body) this.statement(body, { ...frame, writes: [...frame.writes, ...writes] });
  }

  private forStatement(node: Node, frame: Frame): void {
    const variable = node.childForFieldName('variable');
    if (variable) this.variables.assign(variable.text, 'other');
    for (const value of node.childrenForFieldName('value')) if (value) this.expressions(value, frame);
    const body = node.childForFieldName('body');
    if (body) this.statement(body, frame);
  }

  private cStyleFor(node: Node, frame: Frame): void {
    for (const field of ['initializer', 'condition', 'update']) {
      for (const part of node.childrenForFieldName(field)) if (part?.isNamed) walkArithmetic(this, part, frame);
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
          for (const operand of operands) arithmeticOperand(this, operand, frame);
          return;
        }
        if (op === '-v') {
          for (const operand of operands) checkVariableNameWord(this, readWord(operand), 'test -v');
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

  // ── words and expressions ───────────────────────────────────────────────────────────────────

  /**
   * Looks inside a word-like node for what runs or evaluates there: command and process
   * substitutions (walked as scripts), arithmetic, and expansions that evaluate a value as code.
   */
  expressions(node: Node, frame: Frame, processStdin?: Stdin): void {
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
        for (const child of named(node)) walkArithmetic(this, child, frame);
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

  substitution(node: Node, frame: Frame): void {
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

  expansion(node: Node, frame: Frame): void {
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
      this.variables.assign(firstNamed.text, 'other');
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
        if (index) subscriptIndex(this, index, frame);
        continue;
      }
      if (inOffset) {
        arithmeticOperand(this, child, frame);
        continue;
      }
      if (sameNode(child, firstNamed) && child.type === 'variable_name') continue;
      this.expressions(child, frame);
    }
  }
}
