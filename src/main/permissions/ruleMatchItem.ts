import path from 'node:path';
import type { PermissionRule } from '../../shared/permissions';
import { sameRuleFamily } from '../../shared/toolCatalog';
import type { CallItem, ItemizedCall } from './callItems';
import { parseRule, RuleSyntaxError, type ParsedRule } from './ruleSyntax';
import { matchTokens, type CommandPattern } from './ruleMatchCommand';
import { matchDomain } from './ruleMatchDomain';
import { compilePathPattern, type PathMatcher } from './ruleMatchPath';
import { execOptionIn } from '../shell/execOptions';
import { isOpaqueRunner, isTransparentWrapper } from '../shell/wrapperSpecs';
import type { SimpleCommand } from '../shell/commandAnalysis';

/**
 * Whether a rule matches one item of a call (a command's part, a path, a host, the call by name).
 * Deny and ask rules match a command with or without its wrappers, `/bin/rm` as `rm`, and every tail
 * of the arguments of a runner the analysis does not take apart (`rm *` denies `flock /tmp/l rm x`).
 * Allow rules name what really runs (`allowedBy`): the program inside its wrappers by a rule of its
 * own, every wrapper that does more than limit or time it by a rule that names it, and a prefix never
 * covers an exec-option (shell/execOptions.ts). A rule that is the whole command line matches all of
 * it, save, for an allow rule, a write to a place only known when it runs (shell/runTimeWrites.ts).
 */

/** A rule read once: its parsed form, its path matcher, and what a built-in one says about itself. */
export interface CompiledRule {
  rule: PermissionRule;
  parsed: ParsedRule;
  /** Why a built-in rule exists, for the reason it gives. */
  why?: string;
  holdsWhenUnleashed: boolean;
  matchPath?: PathMatcher;
}

/** Reads a rule for matching. Throws RuleSyntaxError, naming the rule's source and action, for one that cannot be read. */
export function compileRule(
  rule: PermissionRule,
  places: { workspaceRoot: string; home: string },
  builtIn?: { why: string; holdsWhenUnleashed?: boolean },
): CompiledRule {
  let parsed: ParsedRule;
  try {
    parsed = parseRule(rule.pattern);
  } catch (error) {
    if (error instanceof RuleSyntaxError) throw new RuleSyntaxError(error.rule, error.problem, `(a ${rule.source} ${rule.action} rule)`);
    throw error;
  }
  const t = parsed.target;
  return {
    rule,
    parsed,
    ...(builtIn ? { why: builtIn.why } : {}),
    // Unleashed mode answers what would ask, but never one of the managed policy's questions.
    holdsWhenUnleashed: builtIn?.holdsWhenUnleashed ?? rule.source === 'managed',
    ...(t.kind === 'path' && t.pattern ? { matchPath: compilePathPattern(t.pattern, places) } : {}),
  };
}

/** The first of the rules that matches the item. */
export function firstMatch(rules: readonly CompiledRule[], call: ItemizedCall, item: CallItem): CompiledRule | undefined {
  for (const r of rules) if (ruleMatches(r, call, item)) return r;
  return undefined;
}

/** The allow rules that together cover an item: the first that matches it, plus one per wrapper that must be named. */
export function allowedBy(rules: readonly CompiledRule[], call: ItemizedCall, item: CallItem): CompiledRule[] | undefined {
  const r = firstMatch(rules, call, item);
  if (!r) return undefined;
  if (item.kind !== 'part' || r.parsed.target.kind !== 'command' || (r.parsed.target.pattern && wholeLine(r.parsed.target.pattern, call)))
    return [r];
  const used = [r];
  for (const [index, wrapper] of item.command.wrappers.entries()) {
    if (isTransparentWrapper(wrapper)) continue;
    const covering = wrapperCovered(rules, call, item.command, index);
    if (!covering) return undefined;
    if (!used.includes(covering)) used.push(covering);
  }
  return used;
}

function ruleMatches(r: CompiledRule, call: ItemizedCall, item: CallItem): boolean {
  const t = r.parsed.target;
  const allow = r.rule.action === 'allow';
  // A bare tool name matches that tool by name, whether or not it says what it touches.
  if (t.kind !== 'tool' && !t.pattern && sameRuleFamily(r.parsed.tool, call.toolName)) return true;
  switch (t.kind) {
    case 'tool':
      return t.names.test(call.toolName);
    case 'command': {
      if (call.subject.kind !== 'command') return false;
      // The line's words are not where it writes: `> "$OUT"` lands wherever $OUT points that time.
      // As for a path rule, no allow rule's text can say, and the write asks by its mode's default.
      if (t.pattern && wholeLine(t.pattern, call)) return !(allow && item.kind === 'path' && item.access === 'write' && item.unknown);
      if (item.kind !== 'part') return false;
      if (!t.pattern) return true;
      if (t.pattern.wholeLine) return false;
      if (allow) return allowsPart(t.pattern, item.command);
      return commandMatches(t.pattern, item.command);
    }
    case 'path': {
      if (item.kind !== 'path') return false;
      if (t.family === 'read' || t.family === 'write') {
        if (item.access !== t.family) return false;
      } else if (call.toolName !== t.family || item.redirect) {
        return false;
      }
      if (!r.matchPath) return true;
      // Where `> $OUT` writes is only known when it runs: no pattern can say; it asks by default.
      if (item.unknown) return false;
      return allow ? item.candidates.every(r.matchPath) : item.candidates.some(r.matchPath);
    }
    case 'domain':
      return item.kind === 'host' && (!t.pattern || matchDomain(t.pattern, item.host));
  }
}

/** A deny or ask rule's match of a simple command: with or without its wrappers, a program's path as its name, a runner's every tail. */
function commandMatches(pattern: CommandPattern, command: SimpleCommand): boolean {
  const tokens = pattern.tokens;
  const { argv, wrappers } = command;
  const wrapped = wrappers.length === 0 ? argv : [...wrappers, ...argv];
  if (matchTokens(tokens, wrapped)) return true;
  if (wrappers.length > 0 && matchTokens(tokens, argv)) return true;
  // `/bin/rm -rf x` must not slip past a deny of `rm *`.
  const program = argv[0];
  const bare = program?.includes('/') ? [path.posix.basename(program), ...argv.slice(1)] : undefined;
  if (bare && (matchTokens(tokens, bare) || (wrappers.length > 0 && matchTokens(tokens, [...wrappers, ...bare])))) return true;
  // A runner the analysis does not take apart (flock, strace) runs one of its argument tails.
  if (program !== undefined && isOpaqueRunner(path.posix.basename(program))) {
    for (let start = 1; start < argv.length; start++) if (matchTokens(tokens, argv.slice(start))) return true;
  }
  return false;
}

function wholeLine(pattern: CommandPattern, call: ItemizedCall): boolean {
  return (pattern.wholeLine || pattern.exact) && call.command !== undefined && pattern.text === call.command.text.trim();
}

/**
 * An allow rule covers a simple command's program as it runs: `npm test *` covers `npm test` and
 * `timeout 60 npm test`, never `timeout 5 rm x` through `timeout *`; nor, as a prefix, a line where
 * the program is handed another program to run (an exec-option). Wrappers other than the ones that
 * only limit or time a program are covered by `wrapperCovered`, separately.
 */
function allowsPart(pattern: CommandPattern, command: SimpleCommand): boolean {
  if (!matchTokens(pattern.tokens, command.argv)) return false;
  if (pattern.exact) return true;
  return execOptionIn(command) === undefined;
}

/** A wrapper is covered by an allow rule that names it, as written in front of what it runs (`sudo *`, `xargs grep *`). */
function wrapperCovered(
  rules: readonly CompiledRule[],
  call: ItemizedCall,
  command: SimpleCommand,
  index: number,
): CompiledRule | undefined {
  const words = [...command.wrappers.slice(index), ...command.argv];
  return rules.find((r) => {
    const t = r.parsed.target;
    if (t.kind !== 'command' || !sameRuleFamily(r.parsed.tool, call.toolName)) return false;
    if (!t.pattern) return true;
    return !t.pattern.wholeLine && matchTokens(t.pattern.tokens, words);
  });
}
