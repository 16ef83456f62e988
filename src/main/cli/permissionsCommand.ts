import { existsSync } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import type { Json } from '../../shared/json';
import { PermissionMode, type PermissionRule, type RuleSource } from '../../shared/permissions';
import { toolTraits } from '../../shared/toolCatalog';
import { createPermissionEngine } from '../permissions/engine';
import type { PolicyVerdict } from '../permissions/policyVerdict';
import { sessionRuleSet, type SessionRuleSet } from '../permissions/sessionRules';
import { rulesIn } from '../permissions/settings';
import { initShellParser } from '../shell/parser';
import { DATABASE_FILE_NAME, openStore } from '../store/store';
import { builtinTools } from '../tools/builtinTools';
import type { AnyTool } from '../tools/defineTool';
import { realFolder } from '../workspace/filePaths';
import { managedPolicyPath } from '../settings/managedPolicy';
import { CliError, dataDirFrom } from './cliError';
import { permissionsUsage } from './usage';

/** What `explain` prints for one request. */
export interface Explanation {
  decision: 'allow' | 'ask' | 'deny';
  reason: string;
  rule: string | null;
  /** Where the deciding rule came from: `managed` is the machine's managed policy. */
  source: RuleSource | null;
  commands: string[][] | null;
}

const RulesObject = z.strictObject({
  allow: z.array(z.string()).optional(),
  ask: z.array(z.string()).optional(),
  deny: z.array(z.string()).optional(),
});

const StdinRequest = z.object({
  tool: z.string().min(1),
  args: z.unknown().optional(),
  rules: RulesObject.optional(),
  mode: PermissionMode.optional(),
  tainted: z.boolean().optional(),
});

export async function permissionsCommand(argv: string[]): Promise<number> {
  const [verb, ...rest] = argv;
  switch (verb) {
    case 'explain':
      return explainCommand(rest);
    case 'list':
      return listCommand(rest);
    case 'revoke':
      return revokeCommand(rest);
    default:
      throw new CliError(
        verb === undefined || verb === '--help' ? permissionsUsage : `Unknown permissions command "${verb}".\n\n${permissionsUsage}`,
      );
  }
}

async function explainCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      tool: { type: 'string' },
      args: { type: 'string' },
      rules: { type: 'string' },
      mode: { type: 'string' },
      tainted: { type: 'boolean', default: false },
      cwd: { type: 'string' },
      stdin: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      'data-dir': { type: 'string' },
    },
  });
  await initShellParser();
  const workspaceRoot = canonicalFolder(values.cwd ?? process.cwd());
  const dataDir = dataDirFrom(values['data-dir']);
  // The rules a session in this folder would start with, its grants and the project's trust included.
  const ruleSet = (cliRulesFile?: string) => folderRuleSet(dataDir, workspaceRoot, cliRulesFile);

  if (values.stdin) {
    const base = ruleSet(values.rules);
    const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
    for await (const line of lines) {
      if (line.trim() === '') continue;
      process.stdout.write(`${JSON.stringify(explainLine(line, workspaceRoot, base))}\n`);
    }
    return 0;
  }

  if (!values.tool) throw new CliError(`permissions explain needs --tool (or --stdin).\n\n${permissionsUsage}`);
  let args: unknown = {};
  if (values.args !== undefined) {
    try {
      args = JSON.parse(values.args);
    } catch (error) {
      throw new CliError(`--args is not valid JSON (${(error as Error).message}).`);
    }
  }
  const mode = parseMode(values.mode);
  const { rules, projectTrusted } = ruleSet(values.rules);
  const result = explain({ tool: values.tool, args, mode, tainted: values.tainted, workspaceRoot, rules, projectTrusted });
  if (values.json) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } else {
    process.stdout.write(`${result.decision}: ${result.reason}\n`);
    if (result.rule) process.stdout.write(`rule: ${result.rule}${result.source ? ` (${ruleSourceName(result.source)})` : ''}\n`);
    if (result.commands) for (const command of result.commands) process.stdout.write(`  runs: ${command.join(' ')}\n`);
    else if (toolTraits(values.tool)?.rules === 'command') process.stdout.write('  the command could not be pinned down\n');
  }
  return 0;
}

function explainLine(line: string, workspaceRoot: string, base: SessionRuleSet): Explanation {
  try {
    const request = StdinRequest.parse(JSON.parse(line));
    const inline = request.rules ? rulesIn({ permissions: request.rules }, '<stdin>', 'cli') : [];
    return explain({
      tool: request.tool,
      args: request.args ?? {},
      mode: request.mode ?? 'ask',
      tainted: request.tainted ?? false,
      workspaceRoot,
      rules: [...base.rules, ...inline],
      projectTrusted: base.projectTrusted,
    });
  } catch (error) {
    // One bad line must not stop the others: it gets its own answer, in order.
    const message = error instanceof z.ZodError ? z.prettifyError(error) : (error as Error).message;
    return { decision: 'deny', reason: `The request could not be read: ${message}`, rule: null, source: null, commands: null };
  }
}

interface ExplainInput {
  tool: string;
  args: unknown;
  mode: PermissionMode;
  tainted: boolean;
  workspaceRoot: string;
  /** What a session in this folder would start with (sessionRuleSet), plus any rules given with the request. */
  rules: PermissionRule[];
  projectTrusted: boolean;
}

const knownTools = new Map<string, AnyTool>(builtinTools().map((tool) => [tool.name, tool]));

export function explain(input: ExplainInput): Explanation {
  const tool = knownTools.get(input.tool) ?? mcpStandIn(input.tool);
  if (!tool) {
    return {
      decision: 'deny',
      reason: `There is no tool named "${input.tool}"; a call to it would fail.`,
      rule: null,
      source: null,
      commands: null,
    };
  }
  const parsed = tool.parameters.safeParse(input.args);
  if (!parsed.success) {
    return {
      decision: 'deny',
      reason: `Invalid arguments for ${tool.name}, so it would not run:\n${z.prettifyError(parsed.error)}`,
      rule: null,
      source: null,
      commands: null,
    };
  }
  const engine = createPermissionEngine({
    workspaceRoot: input.workspaceRoot,
    mode: input.mode,
    outsideContent: 'ask',
    rules: input.rules,
    projectTrusted: input.projectTrusted,
  });
  const verdict: PolicyVerdict = engine.evaluate({
    sessionId: 'explain',
    callId: 'explain',
    tool,
    args: parsed.data,
    ...(input.tainted ? { taint: 'the session has read outside content (--tainted)' } : {}),
  });
  return {
    decision: verdict.action,
    reason: verdict.reason,
    rule: verdict.rule ?? null,
    source: verdict.source ?? null,
    commands: verdict.commands ?? null,
  };
}

/**
 * The rule set a new session in `workspace` would get (the same function builds it for sessions): the
 * person's and the project's settings, the `--rules` file, the grants remembered for the project and
 * everywhere, and whether the project is trusted. No database yet means no grants and no trust.
 */
function folderRuleSet(dataDir: string, workspace: string, cliRulesFile?: string): SessionRuleSet {
  if (!existsSync(path.join(dataDir, DATABASE_FILE_NAME)))
    return sessionRuleSet({ dataDir, workspace, ...(cliRulesFile ? { cliRulesFile } : {}) });
  const store = openStore(dataDir);
  try {
    return sessionRuleSet({ dataDir, workspace, store, ...(cliRulesFile ? { cliRulesFile } : {}) });
  } finally {
    store.close();
  }
}

/** An MCP tool as the engine sees it before any server is running: egress, matched by name. */
function mcpStandIn(name: string): AnyTool | undefined {
  if (!/^mcp__[^_]+(?:_[^_]+)*__.+/.test(name)) return undefined;
  return {
    name,
    description: 'An MCP tool.',
    risk: 'egress',
    parameters: z.record(z.string(), z.unknown()) as z.ZodType<unknown>,
    summarize: () => name,
    execute: () => Promise.reject(new Error('explain never runs tools')),
  };
}

async function listCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { 'data-dir': { type: 'string' }, json: { type: 'boolean', default: false }, all: { type: 'boolean', default: false } },
  });
  const store = openStore(dataDirFrom(values['data-dir']));
  try {
    const rules = store.rules.list({ includeRevoked: values.all });
    if (values.json) {
      process.stdout.write(`${JSON.stringify(rules as unknown as Json)}\n`);
    } else if (rules.length === 0) {
      process.stdout.write('No remembered rules. "Allow always" in the permission dialog creates them.\n');
    } else {
      for (const rule of rules) {
        const where =
          rule.scope === 'project' ? `project ${rule.projectId}` : rule.scope === 'session' ? `session ${rule.sessionId}` : 'everywhere';
        const revoked = rule.revokedAt ? '  (revoked)' : '';
        process.stdout.write(`${rule.id}  ${rule.action.padEnd(5)}  ${rule.pattern}  [${where}]${revoked}\n`);
      }
    }
    return 0;
  } finally {
    store.close();
  }
}

async function revokeCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { 'data-dir': { type: 'string' } } });
  const [id] = positionals;
  if (!id) throw new CliError('permissions revoke needs the id of a rule; list them with: tether permissions list');
  const store = openStore(dataDirFrom(values['data-dir']));
  try {
    const rule = store.rules.revoke(id);
    process.stdout.write(`Revoked ${rule.pattern} (${rule.id}).\n`);
    return 0;
  } finally {
    store.close();
  }
}

function parseMode(text: string | undefined): PermissionMode {
  const parsed = PermissionMode.safeParse(text ?? 'ask');
  if (!parsed.success) throw new CliError(`--mode is one of ${PermissionMode.options.join(', ')}, not "${text}".`);
  return parsed.data;
}

function canonicalFolder(folder: string): string {
  const found = realFolder(folder);
  if ('path' in found) return found.path;
  throw new CliError(found.problem === 'missing' ? `The folder ${folder} does not exist.` : `${folder} is a file, not a folder.`);
}

/** A rule's source as `explain` names it; the managed policy by its file, since that is what a person goes to look at. */
function ruleSourceName(source: RuleSource): string {
  if (source === 'managed') return `managed policy ${managedPolicyPath()}`;
  return { default: 'built-in', user: 'your settings', project: "the project's settings", session: 'this session', cli: '--rules' }[source];
}
