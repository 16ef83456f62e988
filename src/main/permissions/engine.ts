import os from 'node:os';
import path from 'node:path';
import type { OutsideContentSetting, PermissionMode, PermissionRule } from '../../shared/permissions';
import { ruleToolOf } from '../../shared/toolCatalog';
import { canonicalPath } from '../workspace/filePaths';
import { openWorkspace } from '../workspace/paths';
import { allowAlwaysOffer } from './allowAlwaysOffer';
import { CallItemizer, leadsTo, unique, type CommandAnalyzer, type ItemizedCall } from './callItems';
import { DecisionLadder, type Decided } from './decisionLadder';
import { describeParts } from '../shell/describeParts';
import type { PermissionQuery, Policy, PolicyVerdict } from './policyVerdict';
import type { CompiledRule } from './ruleMatchItem';
import { RulesInForce } from './rulesInForce';
import { analyzeCommand } from '../shell/analyzeCommand';

/**
 * The permission engine (docs/permissions.md, "The decision ladder"): a session's policy. It turns each call into
 * the items rules match (callItems.ts), runs them up the decision ladder (decisionLadder.ts: guard,
 * deny, mode, taint, ask, allow, mode default; deny beats ask beats allow), then turns what would ask
 * into an allow in unleashed mode, except the asks that hold even then (.git/ and .tether/ edits, the
 * managed policy's, an unpinnable line), and makes the Allow always offer (allowAlwaysOffer.ts) for
 * an ask. Rule matching is ruleMatchItem.ts beside the ruleMatch* files; the rules it holds, with
 * project trust and grants, are rulesInForce.ts.
 */

export interface PermissionEngineOptions {
  /** The workspace folder; canonicalised (realpath) once. */
  workspaceRoot: string;
  /** The home folder `~/` rules refer to; defaults to the user's. */
  home?: string;
  mode: PermissionMode;
  outsideContent: OutsideContentSetting;
  /** User, project, CLI and session rules (settings.ts loads them). The built-in defaults are added unless `builtinDefaults` is false. */
  rules: PermissionRule[];
  /** The person trusts this folder: its project allow rules apply. */
  projectTrusted: boolean;
  /** The shell analysis; the real parser by default (initShellParser() must have finished). */
  analyze?: CommandAnalyzer;
  /** PATH for resolving programs; defaults to this process's. */
  pathEnv?: string;
  /**
   * Whether the sandbox holds this session's commands (one is available and was not turned off): in
   * auto mode what runs inside it runs on its own. Asked each time; false by default.
   */
  commandsFenced?: () => boolean;
  /**
   * Folders that, to a command the sandbox holds, are the fence's own writable places besides the
   * workspace, as a command names them: /tmp on Linux (the session's own there). A redirection into
   * one stays in the fence. Asked each time; none by default.
   */
  fencedPlaces?: () => readonly string[];
  builtinDefaults?: boolean;
}

export interface PermissionEngine extends Policy {
  evaluate(query: PermissionQuery): PolicyVerdict;
  evaluateHost(host: string, taint?: string): Pick<PolicyVerdict, 'action' | 'reason' | 'rule'>;
  /** False when a deny rule, or an ask rule naming it, covers reading this file: search_code leaves its contents out. */
  canRead(absolutePath: string): boolean;
  readonly mode: PermissionMode;
  setMode(mode: PermissionMode): void;
  /** The person trusted (or stopped trusting) the folder: its project allow rules apply (or stop applying) at once. */
  setProjectTrusted(trusted: boolean): void;
  /** Adds a rule (a grant from "Allow always", say). Throws RuleSyntaxError for a rule that cannot be read. */
  addRule(rule: PermissionRule): void;
  /**
   * Removes the rules with this id, or the ones with this pattern, action and source that came from
   * a settings file (no id: a remembered grant with the same pattern stays); returns how many.
   */
  removeRule(which: { id: string } | Pick<PermissionRule, 'pattern' | 'action' | 'source'>): number;
  /** Every rule in force, built-in defaults first, in the order they were given. */
  rules(): PermissionRule[];
}

export function createPermissionEngine(options: PermissionEngineOptions): PermissionEngine {
  return new SessionPolicy(options);
}

class SessionPolicy implements PermissionEngine {
  mode: PermissionMode;
  private readonly root: string;
  private readonly rulesInForce: RulesInForce;
  private readonly itemizer: CallItemizer;
  private readonly ladder: DecisionLadder;

  constructor(options: PermissionEngineOptions) {
    const workspace = openWorkspace(options.workspaceRoot);
    const home = leadsTo(canonicalPath, options.home ?? os.homedir()).path;
    const fenced = options.commandsFenced ?? (() => false);
    this.mode = options.mode;
    this.root = workspace.root;
    this.rulesInForce = new RulesInForce(
      { workspaceRoot: workspace.root, home },
      options.rules,
      options.builtinDefaults !== false,
      options.projectTrusted,
    );
    this.itemizer = new CallItemizer({
      workspace,
      home,
      analyze: options.analyze ?? analyzeCommand,
      pathEnv: options.pathEnv ?? process.env.PATH,
      fenced,
      fencedPlaces: options.fencedPlaces ?? (() => []),
    });
    this.ladder = new DecisionLadder({ rules: this.rulesInForce, mode: () => this.mode, outsideContent: options.outsideContent, fenced });
  }

  setMode(next: PermissionMode): void {
    this.mode = next;
  }

  setProjectTrusted(trusted: boolean): void {
    this.rulesInForce.setProjectTrusted(trusted);
  }

  evaluate(query: PermissionQuery): PolicyVerdict {
    const call = this.itemizer.itemize(query);
    const taint = query.taint;
    const decided = this.ladder.decide(call, taint);
    const verdict = verdictOf(call, decided);
    if (verdict.action === 'ask' && this.mode === 'unleashed' && !decided.holdsWhenUnleashed) {
      return { ...verdict, action: 'allow', reason: `Unleashed mode allows what would ask: ${decided.reason}` };
    }
    if (verdict.action === 'ask') {
      // What the analysis noticed (a program fed from a here-document, say) helps the person decide.
      const notes = call.command?.analysis.notes ?? [];
      if (notes.length > 0) verdict.reason += ` Note: ${notes.join('; ')}.`;
      verdict.allowAlways = allowAlwaysOffer(call, decided, (rule) => this.grants(call, taint, rule));
    }
    return verdict;
  }

  evaluateHost(host: string, taint?: string): Pick<PolicyVerdict, 'action' | 'reason' | 'rule'> {
    const decided = this.ladder.decide(this.itemizer.host(host), taint);
    return { action: decided.action, reason: decided.reason, ...(decided.rule ? { rule: decided.rule.rule.pattern } : {}) };
  }

  canRead(absolutePath: string): boolean {
    const lexical = path.resolve(this.root, absolutePath);
    const candidates = unique([leadsTo(canonicalPath, lexical).path, lexical]);
    if (!candidates.some((candidate) => this.itemizer.isInside(candidate))) return false;
    const reader = ruleToolOf('read');
    const readers = (r: CompiledRule) => {
      const t = r.parsed.target;
      return (t.kind === 'path' && t.family === 'read') || (t.kind === 'tool' && t.names.test(reader));
    };
    for (const r of this.rulesInForce.deny) {
      if (readers(r) && (!r.matchPath || candidates.some(r.matchPath))) return false;
    }
    for (const r of this.rulesInForce.ask) {
      if (readers(r) && r.matchPath && candidates.some(r.matchPath)) return false;
    }
    return true;
  }

  addRule(rule: PermissionRule): void {
    this.rulesInForce.add(rule);
  }

  removeRule(which: { id: string } | Pick<PermissionRule, 'pattern' | 'action' | 'source'>): number {
    return this.rulesInForce.remove(which);
  }

  rules(): PermissionRule[] {
    return this.rulesInForce.list();
  }

  /** Whether this very call would be allowed with `rule` as one more grant. */
  private grants(call: ItemizedCall, taint: string | undefined, rule: string): boolean {
    const extra = this.rulesInForce.compile({ pattern: rule, action: 'allow', source: 'session' });
    return this.ladder.decide(call, taint, extra).action === 'allow';
  }
}

/** What the ladder decided, as the verdict the gate and the request read (before unleashed mode and the offer). */
function verdictOf(call: ItemizedCall, decided: Decided): PolicyVerdict {
  const verdict: PolicyVerdict = { action: decided.action, reason: decided.reason, ...(call.egress ? { egress: true } : {}) };
  if (decided.rule) {
    verdict.rule = decided.rule.rule.pattern;
    verdict.source = decided.rule.rule.source;
    if (decided.action === 'ask' && verdict.source === 'managed') verdict.managedAsk = true;
  } else if (decided.rules && decided.rules.length > 0) {
    verdict.rule = decided.rules.map((r) => r.rule.pattern).join(', ');
  }
  if (call.command) {
    const { analysis } = call.command;
    verdict.commands = analysis.unpinnable ? null : analysis.commands.map((c) => [...c.argv]);
    if (!analysis.unpinnable && analysis.commands.length > 0) verdict.parts = describeParts(analysis.commands);
  }
  if (decided.taint) verdict.taint = decided.taint;
  const outsideRead = call.command ? call.items.find((i) => i.kind === 'path' && i.commandRead) : undefined;
  if (outsideRead?.kind === 'path') verdict.readsOutside = outsideRead.shown;
  const writesOutside = call.command
    ? call.items.flatMap((i) => (i.kind === 'path' && i.redirect && !i.inside && !i.unknown ? [i.shown] : []))
    : [];
  if (writesOutside.length > 0) verdict.writesOutside = writesOutside;
  return verdict;
}
