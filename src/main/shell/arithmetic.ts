import type { Node } from 'web-tree-sitter';
import type { Frame } from './invocation';
import { parseShell } from './parser';
import type { ShellWalk } from './shellWalk';
import { named } from './treeNodes';

/**
 * Arithmetic, wherever bash evaluates it: `$(( ))`, `(( ))`, `for (( ))`, let, subscripts, offsets, the
 * operands of -eq in `[[ ]]`. Bash reads a variable's value there as an expression itself, so each
 * variable read is noted (ShellVariables decides at the end whether it may hide a command), and an
 * expansion or substitution in arithmetic could hide one now.
 */

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ARITHMETIC_NUMBER = /^(0[xX][0-9a-fA-F]+|[0-9]+(#[0-9A-Za-z@_]+)?)$/;

/** Inside $(( )), (( )), for (( )) and let: variables are read as expressions themselves. */
export function walkArithmetic(walk: ShellWalk, node: Node, frame: Frame): void {
  switch (node.type) {
    case 'number':
      return;
    case 'variable_name':
    case 'word':
      if (ARITHMETIC_NUMBER.test(node.text)) return;
      if (IDENTIFIER.test(node.text)) walk.variables.readInArithmetic(node.text);
      else walk.reason(`arithmetic on \`${node.text}\`, which the parser could not read as a name or number`);
      return;
    case 'simple_expansion': {
      const inner = named(node)[0];
      if (inner) walk.variables.readInArithmetic(inner.text);
      return;
    }
    case 'expansion': {
      const children = named(node);
      if (children.length === 1 && children[0]!.type === 'variable_name' && node.namedChildCount === node.childCount - 2) {
        walk.variables.readInArithmetic(children[0]!.text);
        return;
      }
      walk.reason(`arithmetic evaluates the expansion ${node.text}, whose value could hide a command`);
      walk.expansion(node, frame);
      return;
    }
    case 'command_substitution':
      walk.reason(`arithmetic evaluates the output of ${node.text.slice(0, 40)}, which could hide a command (a[$(cmd)])`);
      walk.substitution(node, frame);
      return;
    case 'subscript': {
      const base = node.childForFieldName('name');
      if (base) walk.variables.readInArithmetic(base.text);
      const index = node.childForFieldName('index');
      if (index) subscriptIndex(walk, index, frame);
      return;
    }
    case 'variable_assignment': {
      // `i=0` inside (( )) or for (( )): the result is a number.
      const name = node.childForFieldName('name');
      const value = node.childForFieldName('value');
      if (name) walk.variables.assign(name.text, 'numeric');
      if (value) walkArithmetic(walk, value, frame);
      return;
    }
    case 'binary_expression': {
      const operator = node.childForFieldName('operator')?.text ?? '';
      const left = node.childForFieldName('left');
      if (/^([-+*/%&|^]|<<|>>|\*\*)?=$/.test(operator) && operator !== '==' && left && IDENTIFIER.test(left.text)) {
        walk.variables.assign(left.text, 'numeric');
        if (operator !== '=') walk.variables.readInArithmetic(left.text);
        const right = node.childForFieldName('right');
        if (right) walkArithmetic(walk, right, frame);
        return;
      }
      for (const child of named(node)) walkArithmetic(walk, child, frame);
      return;
    }
    case 'postfix_expression':
    case 'unary_expression': {
      const operand = named(node).find((child) => child.type !== 'test_operator');
      const operator = node.children.find((child) => child !== null && !child.isNamed)?.type;
      if (operand && (operator === '++' || operator === '--') && IDENTIFIER.test(operand.text)) {
        walk.variables.assign(operand.text, 'numeric');
        walk.variables.readInArithmetic(operand.text);
        return;
      }
      for (const child of named(node)) walkArithmetic(walk, child, frame);
      return;
    }
    case 'parenthesized_expression':
    case 'ternary_expression':
    case 'arithmetic_expansion':
      for (const child of named(node)) walkArithmetic(walk, child, frame);
      return;
    default:
      walk.reason(`arithmetic on \`${node.text.slice(0, 40)}\`, which could hide a command`);
      walk.expressions(node, frame);
  }
}

/** A word bash evaluates as an arithmetic expression (a subscript, an offset, an operand of -eq in [[ ]]). */
export function arithmeticOperand(walk: ShellWalk, node: Node, frame: Frame): void {
  if (node.type === 'word' || node.type === 'number' || node.type === 'variable_name') {
    const text = node.text;
    if (ARITHMETIC_NUMBER.test(text) || /^-[0-9]+$/.test(text)) return;
    if (IDENTIFIER.test(text)) {
      walk.variables.readInArithmetic(text);
      return;
    }
    // Anything else is an expression in a string: parse it as bash would evaluate it.
    arithmeticText(walk, text, frame);
    return;
  }
  walkArithmetic(walk, node, frame);
}

/** An arithmetic expression given as text (a let argument, a subscript the parser kept as a word). */
export function arithmeticText(walk: ShellWalk, text: string, frame: Frame): void {
  const tree = parseShell(`(( ${text} ))`);
  try {
    if (tree.rootNode.hasError) walk.reason(`an arithmetic expression the parser could not read (${text})`);
    else for (const child of named(tree.rootNode)) walk.statement(child, frame);
  } finally {
    tree.delete();
  }
}

/** An array's subscript: arithmetic, but for `@` and `*`. */
export function subscriptIndex(walk: ShellWalk, index: Node, frame: Frame): void {
  if (index.text === '@' || index.text === '*') return;
  arithmeticOperand(walk, index, frame);
}
