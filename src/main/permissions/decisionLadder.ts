import type { OutsideContentSetting, PermissionMode, PolicyAction } from '../../shared/permissions';
import { sameRuleFamily } from '../../shared/toolCatalog';
import type { CallItem, ItemizedCall } from './callItems';
import type { CommandAnalysis } from '../shell/commandAnalysis';
import { modeDefault, modeForbids, type ActionClass } from './modes';
import { allowedBy, firstMatch, type CompiledRule } from './ruleMatchItem';
import type { RulesInForce } from './rulesInForce';
import { hiddenProgram } from '../shell/hiddenProgram';
import { isPrivilegedWrapper } from '../shell/wrapperSpecs';

/**
 * The decision ladder (docs/permissions.md, "The decision ladder"): each step may settle the call, in this order:
 *   path guard      a write that resolves outside the workspace is denied
 *   deny rules      any item (a command's part, a path, a host) a deny rule matches denies the call,
 *                   and a line running a program no rule can see by its name is denied by any command deny rule
 *   mode            read-only mode denies anything but reading
 *   taint gate      while the session holds outside content, actions that can send data out are
 *                   blocked (outsideContent 'block')...
 *   ask rules       any item an ask rule matches asks; so does a write of what runs later by itself
 *   taint gate      ...or ask even when a rule allows them (outsideContent 'ask'), with no "Allow always"
 *   unpinnable      a command that cannot be pinned down asks (in auto mode the sandbox holds it instead),
 *                   as does a call that could not be read
 *   allow rules     the call is allowed when every item is allowed by a rule (remembered grants are
 *                   session rules); project allow rules count only once the folder is trusted
 *   mode default    per item, for the items no rule allowed (see modes.ts)
 * Deny beats ask beats allow, whatever the order, specificity or source of the rules. Unleashed
 * mode, which turns asks into allows after the ladder, is the engine's.
 */

export interface Decided {
  action: PolicyAction;
  reason: string;
  rule?: CompiledRule;
  /** Several rules allowed the parts between them. */
  rules?: CompiledRule[];
  taint?: string;
  /** Why "Allow always" cannot help here, decided by the step that asked. */
  noOffer?: string;
  holdsWhenUnleashed?: boolean;
}

export interface LadderSettings {
  rules: RulesInForce;
  mode: () => PermissionMode;
  outsideContent: OutsideContentSetting;
  /** Whether the sandbox holds this session's commands; asked each time. */
  fenced: () => boolean;
}

export class DecisionLadder {
  constructor(private readonly settings: LadderSettings) {}

  /** Decides a call; `extraAllow` is weighed as one more allow rule (an Allow always offer, tried before it is made). */
  decide(call: ItemizedCall, taint: string | undefined, extraAllow?: CompiledRule): Decided {
    const { rules, outsideContent } = this.settings;
    const mode = this.settings.mode();
    if (call.guard) return { action: 'deny', reason: `${capitalise(call.guard)}.` };

    for (const item of call.items) {
      const r = firstMatch(rules.deny, call, item);
      if (r) return { action: 'deny', reason: `${r.rule.pattern} denies ${what(call, item)}${builtIn(r)}.`, rule: r };
    }
    // A deny rule names programs, and a line that runs a program no rule can see by its name (a name
    // only known when it runs, `$(echo rm) -rf x`; a runner, `flock l -c 'rm x'`; an option that runs
    // one, `git rebase -x 'rm x'`) could be any of them: it is denied whenever such a rule exists, in every mode.
    const hidden = call.command
      ? call.command.analysis.unpinnable
        ? `the command cannot be pinned down (${call.command.analysis.unpinnable})`
        : hiddenIn(call.command.analysis)
      : undefined;
    if (hidden) {
      const denier = rules.deny.find((r) => sameRuleFamily(r.parsed.tool, call.toolName));
      if (denier)
        return {
          action: 'deny',
          reason: `${capitalise(hidden)}, so it could be what ${denier.rule.pattern} denies${builtIn(denier)}.`,
          rule: denier,
        };
    }

    const forbidden = modeForbids(mode, call.cls);
    if (forbidden) return { action: 'deny', reason: forbidden };

    const gate = taint !== undefined && outsideContent !== 'off' && call.egress;
    if (gate && outsideContent === 'block') {
      return {
        action: 'deny',
        reason: `The session holds outside content (${taint}), and ${subjectPhrase(call)} can send data out; outside content is set to block such actions until the session ends.`,
        taint,
      };
    }

    for (const item of call.items) {
      const r = firstMatch(rules.ask, call, item);
      if (r) {
        return {
          action: 'ask',
          reason: `${r.rule.pattern} asks before ${what(call, item)}${builtIn(r)}.`,
          rule: r,
          holdsWhenUnleashed: r.holdsWhenUnleashed,
          noOffer: `${r.rule.pattern} asks every time, and an allow rule cannot override an ask rule`,
        };
      }
    }
    if (call.runsLater) {
      return {
        action: 'ask',
        reason: call.runsLater,
        holdsWhenUnleashed: true,
        noOffer: 'changes to what runs by itself later ask every time',
      };
    }
    if (gate) {
      return {
        action: 'ask',
        reason: `The session holds outside content (${taint}), and ${subjectPhrase(call)} can send data out, so it asks even when a rule allows it.`,
        taint,
        noOffer: 'the session holds outside content, and actions that can send data out ask every time until it ends',
      };
    }

    const unpinnable = call.command?.analysis.unpinnable;
    // In auto mode the sandbox decides at run time what a line it holds may do, pinned down or not.
    if (unpinnable && !(mode === 'auto' && this.settings.fenced())) {
      const why = `the command cannot be pinned down (${unpinnable})`;
      // Unleashed mode does not answer this one: nobody can say what it runs.
      return {
        action: 'ask',
        reason: `${capitalise(why)}, so it asks whatever the rules say.`,
        noOffer: `${why}, so no rule can cover it`,
        holdsWhenUnleashed: true,
      };
    }
    if (call.problem) return { action: 'ask', reason: `${capitalise(call.problem)}, so a person decides.`, noOffer: call.problem };
    return this.allowOrDefault(call, extraAllow ? [...rules.allow, extraAllow] : rules.allow);
  }

  /** The last steps: every item allowed by a rule, or else by the mode's default for it. */
  private allowOrDefault(call: ItemizedCall, allowRules: readonly CompiledRule[]): Decided {
    const byRule: CompiledRule[] = [];
    const fragments: string[] = [];
    let asked: { reason: string; outsideRead: boolean } | undefined;
    for (const item of call.items) {
      const covering = allowedBy(allowRules, call, item);
      if (covering) {
        for (const r of covering) if (!byRule.includes(r)) byRule.push(r);
        fragments.push(`${covering.map((r) => r.rule.pattern).join(' with ')} allows ${what(call, item)}`);
        continue;
      }
      const d = this.itemDefault(call, item);
      if (d.action === 'ask') {
        // Reading outside the workspace is the more telling reason than a program no rule allows.
        if (!asked || (item.kind === 'path' && item.commandRead && !asked.outsideRead))
          asked = { ...d, outsideRead: item.kind === 'path' && item.commandRead === true };
      } else {
        fragments.push(d.reason.charAt(0).toLowerCase() + d.reason.slice(1));
      }
    }
    if (asked) return { action: 'ask', reason: `${asked.reason}.` };
    const reason = fragments.length === 1 ? `${capitalise(fragments[0] as string)}.` : `Every part is allowed: ${fragments.join('; ')}.`;
    if (byRule.length === 1) return { action: 'allow', reason, rule: byRule[0] as CompiledRule };
    return { action: 'allow', reason, rules: byRule };
  }

  /**
   * Whether a person's deny or ask rule names write paths: a write whose place is only known when it runs
   * may be one of them. The built-in ones hold for commands without it: the fence refuses writes into
   * .git and .tether, and the autorun watch puts back what a command wrote to the files tools run later.
   */
  private pathRulesHold(): boolean {
    const { rules } = this.settings;
    return [...rules.deny, ...rules.ask].some(
      (r) => r.rule.source !== 'default' && r.parsed.target.kind === 'path' && r.parsed.target.family === 'write' && r.matchPath,
    );
  }

  private itemDefault(call: ItemizedCall, item: CallItem): { action: PolicyAction; reason: string } {
    const mode = this.settings.mode();
    const fenced = this.settings.fenced;
    let cls: ActionClass;
    // A part's redirections are items of their own, so only the program itself counts here.
    if (item.kind === 'part' && item.command.argv.length === 0) cls = 'none';
    else if (item.kind === 'part') cls = item.command.readOnly && !item.command.wrappers.some(isPrivilegedWrapper) ? 'read' : 'exec';
    // In auto mode the sandbox decides at run time where a redirection it holds may write, known or not;
    // but the fence knows nothing of the person's deny and ask rules on paths, so while one is in force a
    // place only known when it runs asks: it may be the very path the rule names.
    else if (item.kind === 'path' && item.redirect)
      cls = item.inside || (item.unknown && mode === 'auto' && fenced() && !this.pathRulesHold()) ? 'edit' : 'edit-outside';
    else if (item.kind === 'path') cls = item.access === 'write' ? 'edit' : item.inside ? 'read' : 'read-outside';
    else cls = call.cls;
    const command = item.kind === 'part' || (item.kind === 'path' && (item.redirect === true || item.commandRead === true));
    const d = modeDefault(mode, cls, { command, fenced: command && fenced() });
    const subject =
      item.kind === 'call'
        ? call.toolName
        : item.kind === 'path' && !item.redirect
          ? `${call.toolName} on ${item.shown}`
          : what(call, item);
    if (item.kind === 'path' && item.commandRead) {
      const line = `\`${call.command?.text.trim() ?? call.toolName}\``;
      const where = item.unknown ? 'a place only known when it runs, which may be outside the workspace' : 'outside the workspace';
      if (item.named)
        return {
          action: d.action,
          reason: `${line} names ${item.shown}, ${where}; a path outside the workspace asks, as it does for the file tools`,
        };
      return { action: d.action, reason: `${line} reads ${item.shown}, ${where}; reading outside the workspace asks, as read_file does` };
    }
    const reason =
      item.kind === 'path' && item.unknown
        ? item.writer
          ? `${item.writer} writes ${item.shown}, a place only known when it runs`
          : `${subject} writes to a place only known when it runs`
        : `${capitalise(subject)} ${d.reason}`;
    return { action: d.action, reason };
  }
}

function what(call: ItemizedCall, item: CallItem): string {
  switch (item.kind) {
    case 'part': {
      const notes = [
        ...(item.total > 1 ? [`part ${item.index + 1} of ${item.total}`] : []),
        ...(item.command.wrappers.length > 0 ? [`through ${item.command.wrappers.join(', ')}`] : []),
      ];
      return `${item.shown}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`;
    }
    case 'path':
      if (item.writer) return `${item.writer} writing ${item.shown}`;
      if (item.redirect) return `the redirection that writes ${item.shown}`;
      return `${item.access === 'read' ? 'reading' : 'changing'} ${item.shown}`;
    case 'host':
      return `fetching from ${item.host}`;
    case 'call':
      return call.toolName;
  }
}

/** Where a deciding rule came from, when the person did not write it: built in, or the managed policy. */
function builtIn(r: CompiledRule): string {
  if (r.rule.source === 'managed') return ' (a rule of the managed policy)';
  return r.why ? ` (a built-in rule: ${r.why.replace(/\.$/, '')})` : '';
}

function subjectPhrase(call: ItemizedCall): string {
  if (call.command) return `\`${call.command.text.trim()}\``;
  const host = call.items.find((i) => i.kind === 'host');
  if (host && host.kind === 'host') return `${call.toolName} to ${host.host}`;
  return call.toolName;
}

/** The first simple command that runs a program no rule can see by its name, as why. */
function hiddenIn(analysis: CommandAnalysis): string | undefined {
  for (const command of analysis.commands) {
    const why = hiddenProgram(command);
    if (why) return why;
  }
  return undefined;
}

/** Starts a sentence; a tool name or a rule stays as written (`edit_file on src/a.ts ...`). */
function capitalise(text: string): string {
  return /^[a-z]+(?=[\s,.:]|$)/.test(text) ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}
