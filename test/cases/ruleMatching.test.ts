import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PermissionMode, PermissionRule, RuleAction } from '../../src/shared/permissions';
import type { AnyTool } from '../../src/main/tools/defineTool';
import { createPermissionEngine } from '../../src/main/permissions/engine';
import { quoteWord } from '../../src/main/permissions/ruleMatchCommand';
import { parseRule, RuleSyntaxError } from '../../src/main/permissions/ruleSyntax';
import { analyzeCommand, initShellParser } from '../../src/main/shell/analyzeCommand';
import { mcpTool, query, testTools } from '../support/permissionQueries';
import { readCaseFile } from '../support/testData';

/**
 * Every case in test/cases/data/rule_matching.json, translated into Tether's rule language and run
 * through the real engine. The cases come from systems with other semantics:
 *   opencode          the LAST matching rule wins; no match asks
 *   gemini-cli        the highest priority wins; compound commands split, DENY > ASK > ALLOW
 *   codex execpolicy  the strictest matching prefix rule wins
 *   claude-code       deny > ask > allow, whatever the specificity or source
 * Tether decides like claude-code: deny beats ask beats allow, whatever the order, priority or
 * source; no match falls to the mode default (reads and read-only commands run; the rest asks).
 * Where that decides differently, the case says so and why, in DIVERGES below; for opencode the
 * test also works it out by itself (an oracle of opencode's matching), so held-back cases of the
 * same kinds get the same treatment.
 */

type Verdict = 'allow' | 'ask' | 'deny';

interface RawCase {
  id: string;
  system: string;
  rules: unknown;
  call: Record<string, unknown>;
  expected: string;
  context?: Record<string, unknown>;
  note?: string;
}

/** Cases where Tether's design decides otherwise, and why. */
const DIVERGES: Record<string, { ours: Verdict; why: string }> = {
  'rm-004': { ours: 'deny', why: 'opencode lets a later allow override an earlier deny; in Tether deny beats allow whatever the order' },
  'rm-043': {
    ours: 'deny',
    why: 'opencode carves .env.example out of the *.env.* deny with a later allow; in Tether deny beats allow, so a carve-out is written into the deny itself (our built-in .env ask uses .env.!(example|sample|...))',
  },
  'rm-046': {
    ours: 'deny',
    why: 'gemini lets a higher-priority ask beat the priority-0 deny of every tool; in Tether deny beats ask whatever the priority',
  },
  'rm-073': {
    ours: 'ask',
    why: 'a redirection is an edit of its target, and /tmp/test is outside the workspace: a command rule never grants writes outside it (gemini has allowRedirection for that; Tether has no such switch)',
  },
  'rm-079': {
    ours: 'allow',
    why: 'ls is on the read-only command list, which runs on its own (docs/permissions.md, "The shell analysis"); gemini asks for any part no rule allows',
  },
  'rm-085': {
    ours: 'ask',
    why: 'cat reads the files that $(ls) names, only known when it runs: a path a read-only command names that may lie outside the workspace asks, as read_file does, whatever allows the program',
  },
  'rm-094': {
    ours: 'ask',
    why: 'the bare run_command ask rule matches every part and ask beats allow; gemini lets the higher-priority allows win',
  },
};

interface Translated {
  rules: PermissionRule[];
  tool?: AnyTool;
  args?: Record<string, unknown>;
  mode: PermissionMode;
  /** Headless (`tether run`, gemini's non-interactive): the broker turns every ask into a deny. */
  headless?: boolean;
  check: 'verdict' | 'match' | 'load';
  /** The answer in the source system's terms, mapped to ours. */
  theirs: Verdict | 'match' | 'no_match' | 'rejected';
  /** What Tether should answer. */
  ours: Verdict | 'match' | 'no_match' | 'rejected';
  why?: string;
}

function mapDecision(decision: string): Verdict {
  const d = decision.toLowerCase();
  if (d.startsWith('deny') || d.startsWith('forbidden')) return 'deny';
  if (d.startsWith('allow')) return 'allow';
  if (d.startsWith('ask') || d.startsWith('prompt') || d.includes('(ask)')) return 'ask';
  throw new Error(`unknown decision ${JSON.stringify(decision)}`);
}

function mapExpected(expected: string): Translated['theirs'] {
  if (expected === 'match' || expected === 'no_match') return expected;
  if (expected.startsWith('rejected')) return 'rejected';
  return mapDecision(expected);
}

// ---- opencode ----------------------------------------------------------------------------------

const OPENCODE_TOOLS: Record<string, string> = {
  bash: 'run_command',
  edit: 'edit_file',
  write: 'write_file',
  read: 'read_file',
  glob: 'list_files',
  list: 'list_files',
  grep: 'search_code',
  webfetch: 'fetch_url',
  '*': '*',
};

function mcpName(name: string, separator = '_'): string {
  const rest = name.slice(`mcp${separator}`.length);
  const cut = rest.indexOf(separator);
  return cut < 0 ? `mcp__${rest}` : `mcp__${rest.slice(0, cut)}__${rest.slice(cut + separator.length)}`;
}

function opencodeTool(permission: string): string {
  if (permission.startsWith('mcp_')) return mcpName(permission);
  const tool = OPENCODE_TOOLS[permission];
  if (!tool) throw new Error(`no Tether tool for the opencode permission ${JSON.stringify(permission)}`);
  return tool;
}

/** opencode's glob over a whole command line, as words: a trailing `word*` keeps its string-prefix sense. */
function opencodeCommand(pattern: string): string {
  const words = pattern.trim().split(/\s+/);
  const last = words[words.length - 1] as string;
  if (last.length > 1 && last.endsWith('*')) words.push('*');
  return words.join(' ');
}

/** opencode's path globs let `*` cross folders; `dir/*` becomes `dir/**` here. */
function opencodePath(pattern: string): string {
  return pattern.endsWith('/*') ? `${pattern}*` : pattern;
}

function opencodeRule(permission: string, pattern: string, action: string): PermissionRule {
  const tool = opencodeTool(permission);
  const act = mapDecision(action);
  if (pattern === '*' || tool === '*' || tool.startsWith('mcp__')) {
    if (pattern !== '*') throw new Error(`an opencode pattern ${JSON.stringify(pattern)} on ${permission} has no Tether equivalent`);
    return { pattern: tool, action: act, source: 'user' };
  }
  const spec = tool === 'run_command' ? opencodeCommand(pattern) : opencodePath(pattern);
  return { pattern: `${tool}(${spec})`, action: act, source: 'user' };
}

function opencodeRules(raw: unknown): Array<{ permission: string; pattern: string; action: string }> {
  if (Array.isArray(raw)) return raw as Array<{ permission: string; pattern: string; action: string }>;
  const config = (raw as Record<string, Record<string, unknown>>)['opencode.json'] ?? (raw as Record<string, unknown>);
  const out: Array<{ permission: string; pattern: string; action: string }> = [];
  for (const [permission, value] of Object.entries(config)) {
    if (typeof value === 'string') out.push({ permission, pattern: '*', action: value });
    else for (const [pattern, action] of Object.entries(value as Record<string, string>)) out.push({ permission, pattern, action });
  }
  return out;
}

/** opencode's Wildcard.match: `*` any run of characters, `?` one, and a trailing " *" may match nothing. */
function opencodeMatches(pattern: string, text: string): boolean {
  let source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  if (source.endsWith(' .*')) source = `${source.slice(0, -3)}( .*)?`;
  return new RegExp(`^${source}$`, 's').test(text);
}

function toolFor(name: string): AnyTool {
  if (name.startsWith('mcp__')) return mcpTool(name);
  const tool = (testTools as Record<string, AnyTool>)[name];
  if (!tool) throw new Error(`no test tool named ${name}`);
  return tool;
}

function argsFor(tool: string, subject: string): Record<string, unknown> {
  if (tool === 'run_command') return { command: subject };
  if (tool === 'fetch_url') return { url: subject };
  if (tool.startsWith('mcp__')) return {};
  return { path: subject };
}

function translateOpencode(c: RawCase): Translated {
  const theirs = mapExpected(c.expected);
  if (c.system === 'opencode:Wildcard.match') {
    const [first] = c.rules as Array<{ pattern: string }>;
    const text = String(c.call.string);
    const isPath = !text.includes(' ') && (first?.pattern ?? '').includes('/');
    const tool = isPath ? 'read_file' : 'run_command';
    const spec = isPath ? first?.pattern : opencodeCommand(first?.pattern ?? '');
    return {
      rules: [{ pattern: `${tool}(${spec})`, action: 'deny', source: 'user' }],
      tool: toolFor(tool),
      args: argsFor(tool, text),
      mode: 'ask',
      check: 'match',
      theirs,
      ours: theirs,
    };
  }
  if (c.system.startsWith('opencode:Wildcard.allStructured')) {
    const entries = Object.entries(c.rules as Record<string, string>);
    const text = [c.call.head, ...((c.call.tail as string[]) ?? [])].map((w) => quoteWord(String(w))).join(' ');
    const plain = [c.call.head, ...((c.call.tail as string[]) ?? [])].join(' ');
    const rules = entries.map(([pattern, action]) => ({
      pattern: `run_command(${opencodeCommand(pattern)})`,
      action: mapDecision(action),
      source: 'user' as const,
    }));
    const matched = entries.filter(([pattern]) => opencodeMatches(pattern, plain)).map(([, action]) => mapDecision(action));
    return {
      rules,
      tool: testTools.run_command,
      args: { command: text },
      mode: 'ask',
      check: 'verdict',
      theirs,
      ours: strictest(matched) ?? 'ask',
    };
  }
  const raw = opencodeRules(c.rules);
  const rules = raw.map((r) => opencodeRule(r.permission, r.pattern, r.action));
  const permission = String(c.call.permission ?? c.call.tool);
  const subject = String(c.call.pattern ?? c.call.path);
  const tool = opencodeTool(permission);
  // The oracle: which rules opencode itself would match, then Tether's precedence over them.
  const matched = raw
    .filter((r) => opencodeMatches(r.permission, permission) && opencodeMatches(r.pattern, subject))
    .map((r) => mapDecision(r.action));
  const lastWins = matched.length > 0 ? (matched[matched.length - 1] as Verdict) : 'ask';
  const noMatch: Verdict = tool === 'read_file' || tool === 'list_files' || tool === 'search_code' ? 'allow' : 'ask';
  const ours = lastWins === theirs ? (strictest(matched) ?? noMatch) : theirs;
  return { rules, tool: toolFor(tool), args: argsFor(tool, subject), mode: 'ask', check: 'verdict', theirs, ours };
}

function strictest(actions: Verdict[]): Verdict | undefined {
  if (actions.includes('deny')) return 'deny';
  if (actions.includes('ask')) return 'ask';
  return actions.includes('allow') ? 'allow' : undefined;
}

// ---- gemini-cli --------------------------------------------------------------------------------

interface GeminiRule {
  toolName: string;
  decision: string;
  mcpName?: string;
  argsPattern?: string;
  commandPrefix?: string;
}

const GEMINI_TOOLS: Record<string, string> = {
  run_shell_command: 'run_command',
  shell: 'run_command',
  read_file: 'read_file',
  read_many_files: 'read_file',
  write_file: 'write_file',
  replace: 'edit_file',
  glob: 'list_files',
  list_directory: 'list_files',
  search_file_content: 'search_code',
  web_fetch: 'fetch_url',
};

function geminiTool(name: string, server?: string): string {
  if (name === '*') return '*';
  const builtIn = GEMINI_TOOLS[name];
  if (builtIn) return builtIn;
  if (server && name.startsWith(`mcp_${server}_`)) return `mcp__${server}__${name.slice(`mcp_${server}_`.length)}`;
  if (name.startsWith('mcp_')) return mcpName(name);
  // Tether has no other tools by that name; an MCP tool is the kind of tool it would be.
  return `mcp__gemini__${name}`;
}

function geminiRule(r: GeminiRule): PermissionRule {
  const tool = geminiTool(r.toolName, r.mcpName);
  const action = mapDecision(r.decision);
  if (tool !== 'run_command') {
    if (r.argsPattern || r.commandPrefix) throw new Error(`cannot translate an argsPattern on the gemini tool ${r.toolName}`);
    return { pattern: tool, action, source: 'user' };
  }
  if (r.commandPrefix) return { pattern: `run_command(${r.commandPrefix} *)`, action, source: 'user' };
  if (r.argsPattern) {
    const found = /"command":"((?:[^"\\]|\\.)*)(")?/.exec(r.argsPattern);
    if (!found) throw new Error(`cannot translate the gemini argsPattern ${r.argsPattern}`);
    return { pattern: `run_command(${found[1]}${found[2] ? '' : ' *'})`, action, source: 'user' };
  }
  return { pattern: 'run_command', action, source: 'user' };
}

function translateGemini(c: RawCase): Translated {
  const rules = (c.rules as GeminiRule[]).map(geminiRule);
  const context = c.context ?? {};
  const tool = geminiTool(String(c.call.name), c.call.serverName as string | undefined);
  const args = (c.call.args as Record<string, unknown> | undefined) ?? {};
  const mode: PermissionMode = context.approvalMode === 'yolo' || context.defaultDecision === 'allow' ? 'unleashed' : 'ask';
  const theirs = mapExpected(c.expected);
  return {
    rules,
    tool: toolFor(tool),
    args: argsFor(tool, String(args.command ?? args.file_path ?? args.absolute_path ?? args.path ?? args.dir_path ?? args.url ?? '.')),
    mode,
    headless: context.nonInteractive === true,
    check: 'verdict',
    theirs,
    ours: theirs,
  };
}

// ---- codex execpolicy --------------------------------------------------------------------------

function codexRules(text: string): PermissionRule[] {
  const decision = /decision="(\w+)"/.exec(text)?.[1] ?? 'allow';
  const action = mapDecision(decision);
  if (text.startsWith('network_rule(')) {
    const host = /host="([^"]*)"/.exec(text)?.[1] ?? '';
    return [{ pattern: `fetch_url(domain:${host})`, action, source: 'user' }];
  }
  const start = text.indexOf('pattern=');
  if (!text.startsWith('prefix_rule(') || start < 0) throw new Error(`cannot translate the codex rule ${text}`);
  let depth = 0;
  let end = start + 'pattern='.length;
  for (; end < text.length; end++) {
    if (text[end] === '[') depth++;
    else if (text[end] === ']' && --depth === 0) break;
  }
  const pattern = JSON.parse(text.slice(start + 'pattern='.length, end + 1)) as Array<string | string[]>;
  // Alternatives at a position expand to one rule each, as codex expands them.
  let prefixes: string[][] = [[]];
  for (const position of pattern) {
    const options = Array.isArray(position) ? position : [position];
    prefixes = prefixes.flatMap((p) => options.map((o) => [...p, o]));
  }
  return prefixes.map((words) => ({ pattern: `run_command(${words.map(quoteWord).join(' ')} *)`, action, source: 'user' }));
}

function translateCodex(c: RawCase): Translated {
  const theirs = mapExpected(c.expected);
  if (c.call.policy_load) return { rules: (c.rules as string[]).flatMap(codexRules), mode: 'ask', check: 'load', theirs, ours: theirs };
  const rules = (c.rules as string[]).flatMap(codexRules);
  const argvs = (c.call.argv_list as string[][] | undefined) ?? [c.call.argv as string[]];
  const text = argvs.map((argv) => argv.map(quoteWord).join(' ')).join(' && ');
  return { rules, tool: testTools.run_command, args: { command: text }, mode: 'ask', check: 'verdict', theirs, ours: theirs };
}

// ---- claude-code -------------------------------------------------------------------------------

const CLAUDE_TOOLS: Record<string, string> = {
  Bash: 'run_command',
  NotebookEdit: 'edit_file',
  LS: 'list_files',
  Read: 'read_file',
  Edit: 'edit_file',
  MultiEdit: 'edit_file',
  Write: 'write_file',
  Glob: 'list_files',
  Grep: 'search_code',
  WebFetch: 'fetch_url',
};
const CLAUDE_MODES: Record<string, PermissionMode> = {
  default: 'ask',
  acceptEdits: 'auto-edit',
  plan: 'read-only',
  bypassPermissions: 'unleashed',
};

function claudeRule(text: string, action: RuleAction): PermissionRule {
  const found = /^([A-Za-z_]+)(?:\((.*)\))?$/s.exec(text.trim());
  if (!found) throw new Error(`cannot translate the claude-code rule ${text}`);
  const [, name = '', spec] = found;
  if (name.startsWith('mcp__')) return { pattern: text.trim(), action, source: 'user' };
  const tool = CLAUDE_TOOLS[name];
  if (!tool) throw new Error(`no Tether tool for the claude-code tool ${name}`);
  if (spec === undefined) return { pattern: tool, action, source: 'user' };
  // Claude Code's older `prefix:*` is a prefix on word boundaries, Tether's `prefix *`.
  const specifier = tool === 'run_command' ? spec.replace(/:\*$/, ' *') : spec;
  return { pattern: `${tool}(${specifier})`, action, source: 'user' };
}

function translateClaude(c: RawCase): Translated {
  const raw = c.rules as Record<string, unknown>;
  const rules: PermissionRule[] = [];
  for (const action of ['allow', 'ask', 'deny'] as const) {
    for (const text of (raw[action] as string[] | undefined) ?? []) rules.push(claudeRule(text, action));
  }
  const mode = CLAUDE_MODES[String(raw.mode ?? 'default')] ?? 'ask';
  const name = String(c.call.tool);
  const tool = CLAUDE_TOOLS[name] ?? name;
  const subject = String(c.call.command ?? c.call.file_path ?? c.call.url ?? '');
  const theirs = mapExpected(c.expected);
  return { rules, tool: toolFor(tool), args: argsFor(tool, subject), mode, check: 'verdict', theirs, ours: theirs };
}

function translate(c: RawCase): Translated {
  let t: Translated;
  if (c.system.startsWith('opencode')) t = translateOpencode(c);
  else if (c.system.startsWith('gemini')) t = translateGemini(c);
  else if (c.system.startsWith('codex')) t = translateCodex(c);
  else if (c.system.startsWith('claude')) t = translateClaude(c);
  else throw new Error(`case ${c.id}: no translation for the system ${JSON.stringify(c.system)}`);
  const divergence = DIVERGES[c.id];
  if (divergence) return { ...t, ours: divergence.ours, why: divergence.why };
  if (t.ours !== t.theirs) {
    return {
      ...t,
      why: `${c.system} decides by ${c.system.startsWith('opencode') ? 'the last matching rule' : 'its own precedence'}; Tether by deny > ask > allow, then the mode default`,
    };
  }
  return t;
}

const { cases } = readCaseFile<RawCase>('rule_matching.json');
let workspaceRoot = '';

// The real shell analysis (tree-sitter-bash): compound commands, substitutions and parse errors are its to find.
beforeAll(async () => {
  workspaceRoot = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-cases-')));
  await initShellParser();
});
afterAll(() => fs.rmSync(workspaceRoot, { recursive: true, force: true }));

describe('rule_matching.json', () => {
  it('has every case translated', () => {
    expect(cases.length).toBeGreaterThanOrEqual(41);
    for (const c of cases) expect(() => translate(c), c.id).not.toThrow();
  });

  for (const c of cases) {
    const t = translate(c);
    const shown = t.rules.map((r) => `${r.action} ${r.pattern}`).join('; ') || 'no rules';
    const title = `${c.id} (${c.system}): ${shown} → ${t.ours}${t.why ? ` [${c.system} says ${t.theirs}: ${t.why}]` : ''}`;

    it(title, () => {
      if (t.check === 'load') {
        let rejected = false;
        for (const { pattern: text } of t.rules) {
          try {
            parseRule(text);
          } catch (error) {
            expect(error).toBeInstanceOf(RuleSyntaxError);
            rejected = true;
          }
        }
        expect(rejected ? 'rejected' : 'loaded').toBe(t.ours);
        return;
      }
      const engine = createPermissionEngine({
        workspaceRoot,
        mode: t.mode,
        outsideContent: 'ask',
        rules: t.rules,
        projectTrusted: true,
        analyze: analyzeCommand,
      });
      const verdict = engine.evaluate(query(t.tool as AnyTool, t.args ?? {}));
      if (t.check === 'match') {
        expect(verdict.action === 'deny' ? 'match' : 'no_match', verdict.reason).toBe(t.ours);
        return;
      }
      const action = t.headless && verdict.action === 'ask' ? 'deny' : verdict.action;
      expect(action, verdict.reason).toBe(t.ours);
    });
  }
});
