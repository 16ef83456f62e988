import { BUILTIN_TOOL_NAMES, toolCalledElsewhere, toolTraits, type RuleFamily } from '../../shared/toolCatalog';
import { CommandPatternError, parseCommandPattern, type CommandPattern } from './ruleMatchCommand';
import { DomainPatternError, parseDomainPattern, type DomainPattern } from './ruleMatchDomain';
import { PathPatternError, parsePathPattern, type PathPattern } from './ruleMatchPath';

/**
 * Rule syntax: `tool(specifier)`, or a bare tool name for every call of that tool.
 *
 * Which calls a rule's tool name covers (Claude Code's Read/Edit model):
 *   read_file(...)                 every read of a path, by read_file, list_files and search_code alike
 *   edit_file(...), write_file(...) every write of a path, by edit_file and write_file alike (and the
 *                                  files a command's redirections write)
 *   list_files(...), search_code(...) that tool only
 *   run_command(...)               each simple command of a command line (see ruleMatchCommand.ts)
 *   fetch_url(domain:...)          one host, or its subdomains (see ruleMatchDomain.ts)
 *   mcp__server__tool, mcp__server__*, mcp__*, mcp__server   MCP tools, `*` as a wildcard
 *   *                              every tool
 */

export type PathFamily = Exclude<RuleFamily, 'command' | 'domain' | 'plain'>;

export type RuleTarget =
  | { kind: 'command'; pattern?: CommandPattern }
  | { kind: 'path'; family: PathFamily; pattern?: PathPattern }
  | { kind: 'domain'; pattern?: DomainPattern }
  /** Matched on the tool name alone; `names` is a glob over tool names. */
  | { kind: 'tool'; names: RegExp };

export interface ParsedRule {
  /** The rule as written (trimmed). */
  text: string;
  /** The tool name as written. */
  tool: string;
  /** What was inside the parentheses, if anything. */
  specifier?: string;
  target: RuleTarget;
}

/** A rule that cannot be read. The message names the rule, the problem and the fix. */
export class RuleSyntaxError extends Error {
  override readonly name = 'RuleSyntaxError';
  constructor(
    readonly rule: string,
    readonly problem: string,
    /** Where the rule came from, e.g. "in /work/app/.tether/settings.json". */
    readonly origin?: string,
  ) {
    // A problem that ends in a question ("did you mean run_command?") takes no full stop after it.
    super(
      `The permission rule ${JSON.stringify(rule)}${origin ? ` ${origin}` : ''} cannot be read: ${problem}${/[.?!]$/.test(problem) ? '' : '.'}`,
    );
  }
}

const TOOL_NAME = /^[A-Za-z0-9_.*-]+$/;

export function parseRule(input: string): ParsedRule {
  const text = input.trim();
  if (text === '') throw new RuleSyntaxError(input, 'it is empty; write a tool name, e.g. run_command(npm test *)');
  const open = text.indexOf('(');
  let tool: string;
  let specifier: string | undefined;
  if (open < 0) {
    if (text.includes(')')) throw new RuleSyntaxError(text, 'it has a ")" without a "("; write tool(specifier)');
    tool = text;
  } else {
    tool = text.slice(0, open).trim();
    if (tool === '') throw new RuleSyntaxError(text, 'it has no tool name before "("; write tool(specifier), e.g. read_file(.env)');
    if (!text.endsWith(')')) {
      const closer = findCloser(text, open);
      const problem =
        closer === UNCLOSED_QUOTE
          ? 'a quote in it is never closed'
          : closer < 0
            ? 'its "(" is never closed'
            : 'there is text after its closing ")"';
      throw new RuleSyntaxError(text, `${problem}; write tool(specifier), e.g. run_command(npm test *)`);
    }
    const closer = findCloser(text, open);
    if (closer === UNCLOSED_QUOTE) throw new RuleSyntaxError(text, 'a quote in it is never closed');
    if (closer !== text.length - 1) {
      throw new RuleSyntaxError(text, 'its parentheses are unbalanced (quote a parenthesis that is part of a command)');
    }
    specifier = text.slice(open + 1, -1);
    if (specifier.trim() === '') {
      throw new RuleSyntaxError(text, `its parentheses are empty; write the bare tool name ${tool} to match every call`);
    }
  }
  if (!TOOL_NAME.test(tool)) {
    throw new RuleSyntaxError(text, `"${tool}" is not a tool name (letters, digits, _ and -; * only in MCP names)`);
  }
  return { text, tool, ...(specifier === undefined ? {} : { specifier }), target: targetFor(text, tool, specifier) };
}

function targetFor(text: string, tool: string, specifier: string | undefined): RuleTarget {
  if (tool === '*' || tool.startsWith('mcp__')) {
    if (specifier !== undefined) {
      throw new RuleSyntaxError(
        text,
        `${tool === '*' ? 'the * rule' : 'an MCP rule'} takes no specifier; write the tool name alone, e.g. mcp__github__create_issue`,
      );
    }
    // `mcp__server` alone covers every tool of that server.
    const glob = tool.startsWith('mcp__') && !tool.slice(5).includes('__') && !tool.endsWith('*') ? `${tool}__*` : tool;
    return { kind: 'tool', names: globRegex(glob) };
  }
  if (tool.includes('*')) {
    throw new RuleSyntaxError(text, 'a * in a tool name is only for MCP tools (mcp__server__*, mcp__*) or * alone for every tool');
  }
  // What the specifier means is the tool's rule family, in the tool catalog.
  const kind = toolTraits(tool)?.rules;
  if (kind === undefined) {
    // A name other agents use (the catalog's `claudeCode` and `alsoCalled`) gets a hint instead of a bare "unknown".
    const hint = toolCalledElsewhere(tool);
    const advice = hint ? `did you mean ${hint}?` : `rules name ${BUILTIN_TOOL_NAMES.join(', ')}, or an MCP tool as mcp__server__tool`;
    throw new RuleSyntaxError(text, `the tool "${tool}" is unknown; ${advice}`);
  }
  try {
    switch (kind) {
      case 'command':
        return specifier === undefined ? { kind: 'command' } : { kind: 'command', pattern: parseCommandPattern(specifier) };
      case 'domain':
        return specifier === undefined ? { kind: 'domain' } : { kind: 'domain', pattern: parseDomainPattern(specifier) };
      case 'plain':
        if (specifier !== undefined) throw new RuleSyntaxError(text, `${tool} takes no specifier; write ${tool} alone`);
        return { kind: 'tool', names: globRegex(tool) };
      default:
        return specifier === undefined
          ? { kind: 'path', family: kind }
          : { kind: 'path', family: kind, pattern: parsePathPattern(specifier) };
    }
  } catch (error) {
    if (error instanceof CommandPatternError || error instanceof PathPatternError || error instanceof DomainPatternError) {
      throw new RuleSyntaxError(text, error.message);
    }
    throw error;
  }
}

const UNCLOSED_QUOTE = -2;

/** The index of the ")" closing the "(" at `open`, skipping quoted and backslashed characters; -1 if none, -2 inside a quote. */
function findCloser(text: string, open: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === '\\' && quote === '"') i++;
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === '\\') i++;
    else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return i;
  }
  return quote ? UNCLOSED_QUOTE : -1;
}

function globRegex(glob: string): RegExp {
  const source = glob
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`);
}
