import os from 'node:os';
import path from 'node:path';
import type { OutsideContentSetting, PermissionMode, PermissionRule, PolicyAction } from '../../shared/permissions';
import { sameRuleFamily } from '../../shared/toolCatalog';
import type { PermissionSubject } from './permissionSubject';
import { canonicalPath, isInside as isWithin, physicalPath, SymlinkLoopError } from '../workspace/filePaths';
import { openWorkspace } from '../workspace/paths';
import { offerAllowAlways, type AllowAlwaysSubject } from './allowAlways';
import type { CommandAnalysis, ReadTarget, SimpleCommand } from './commandAnalysis';
import { DEFAULT_RULES } from './defaultRules';
import { expandGlob, matchReadAsOption } from './readPlaces';
import { modeDefault, modeForbids, type ActionClass } from './modes';
import type { AllowAlwaysOffer, PermissionQuery, Policy, PolicyVerdict } from './policyVerdict';
import { parseRule, RuleSyntaxError, type ParsedRule } from './ruleSyntax';
import { matchTokens, showArgv, type CommandPattern } from './ruleMatchCommand';
import { matchDomain } from './ruleMatchDomain';
import { compilePathPattern, type PathMatcher } from './ruleMatchPath';
import { analyzeCommand } from './shell/analyzeCommand';
import { execOptionIn } from './shell/execOptions';
import { hiddenProgram } from './shell/hiddenProgram';
import { isOpaqueRunner, isPrivilegedWrapper, isTransparentWrapper } from './shell/wrapperSpecs';
import { describeParts } from './describeParts';
import { lifecycleQuestion } from './lifecycleWrite';

/**
 * The permission engine (docs/permissions.md, "The decision ladder"). For every tool call, in this order:
 *   path guard      a write that resolves outside the workspace is denied
 *   deny rules      any item (a command's part, a path, a host) a deny rule matches denies the call
 *   read-only mode  anything but reading is denied
 *   taint gate      while the session holds outside content, actions that can send data out are
 *                   blocked (outsideContent 'block')...
 *   ask rules       any item an ask rule matches asks; a command that cannot be pinned down asks
 *   taint gate      ...or ask even when a rule allows them (outsideContent 'ask'), with no "Allow always"
 *   allow rules     the call is allowed when every item is allowed by a rule (remembered grants are
 *                   session rules); project allow rules count only once the folder is trusted
 *   mode default    per item, for the items no rule allowed (see modes.ts)
 * then unleashed mode turns asks into allows, except the built-in asks for .git/ and .tether/.
 * Deny beats ask beats allow, whatever the order, specificity or source of the rules.
 *
 * Commands: rules match each simple command the shell analysis finds. Deny and ask rules match the
 * argv with or without its wrappers (`run_command(sudo *)` denies `sudo rm x`), with a program given
 * as a path cut to its name (`rm *` denies `/bin/rm -rf x`), and every tail of the arguments of a
 * runner the analysis cannot take apart (`rm *` denies `flock /tmp/l rm x`). Allow rules name what
 * really runs: the program inside its wrappers must be allowed by a rule of its own (`timeout *` never
 * allows `timeout 5 rm x`), every wrapper but the ones that only limit or time it (timeout, nice) by a
 * rule that names it (`npm test *` never allows `sudo npm test`), and a prefix rule never covers an
 * option that makes the program run another program or write files (`git fetch *` never allows
 * `git fetch --upload-pack=…`; see shell/execOptions.ts). A rule whose text is exactly the whole
 * command line matches all of it (that is what "Allow always" creates for a compound command). A
 * redirection that writes a file is also an item: edit rules apply to it, and by default it asks like
 * an edit (outside the workspace it asks in every mode but unleashed). So is a file the line names for
 * reading (`cat /etc/hosts`, `< ~/.netrc`, `cd ..`): outside the workspace it asks, as read_file does.
 */

export type CommandAnalyzer = (command: string, context: { cwd: string; workspaceRoot: string; pathEnv?: string }) => CommandAnalysis;

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

interface CompiledRule {
  rule: PermissionRule;
  parsed: ParsedRule;
  why?: string;
  holdsWhenUnleashed: boolean;
  matchPath?: PathMatcher;
}

type Item =
  | { kind: 'part'; index: number; total: number; command: SimpleCommand; shown: string }
  | {
      kind: 'path';
      access: 'read' | 'write';
      /** The canonical path, and the path as given when it differs: deny and ask match either, allow must match both. */
      candidates: string[];
      shown: string;
      inside: boolean;
      /** Written by a command's redirection rather than by a file tool. */
      redirect?: boolean;
      /** A redirection target that is only known when the command runs (`> $OUT`). */
      unknown?: boolean;
      /** Named for reading on a command line (an argument, `< file`, cd's folder). */
      commandRead?: boolean;
      /** Named by a command that is not read-only, which may read it or write it. */
      named?: boolean;
    }
  | { kind: 'host'; host: string }
  | { kind: 'call' };

interface Call {
  toolName: string;
  subject: PermissionSubject;
  items: Item[];
  cls: ActionClass;
  /** Can send data out: the taint gate applies. */
  egress: boolean;
  /** Why the call could not be read (a subject that threw, a bad URL): it asks. */
  problem?: string;
  /** Why the path guard refuses it. */
  guard?: string;
  /** Why what it writes runs later by itself outside the sandbox (a lifecycle script in package.json): it asks in every mode. */
  runsLater?: string;
  command?: { text: string; analysis: CommandAnalysis };
}

interface Decided {
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

/** Harmless places a redirection may write: not files anybody keeps. */
const SINKS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty']);

export function createPermissionEngine(options: PermissionEngineOptions): PermissionEngine {
  const workspace = openWorkspace(options.workspaceRoot);
  const root = workspace.root;
  const home = leadsTo(canonicalPath, options.home ?? os.homedir()).path;
  const analyze = options.analyze ?? analyzeCommand;
  const pathEnv = options.pathEnv ?? process.env.PATH;
  let mode = options.mode;
  const fenced = options.commandsFenced ?? (() => false);
  const fencedPlaces = options.fencedPlaces ?? (() => []);
  let projectTrusted = options.projectTrusted;
  const places = { workspaceRoot: root, home };

  const compile = (rule: PermissionRule, extra?: { why: string; holdsWhenUnleashed?: boolean }): CompiledRule => {
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
      ...(extra ? { why: extra.why } : {}),
      // Unleashed mode answers what would ask, but never one of the managed policy's questions.
      holdsWhenUnleashed: extra?.holdsWhenUnleashed ?? rule.source === 'managed',
      ...(t.kind === 'path' && t.pattern ? { matchPath: compilePathPattern(t.pattern, places) } : {}),
    };
  };

  let compiled: CompiledRule[] = [
    ...(options.builtinDefaults === false
      ? []
      : DEFAULT_RULES.map((d) => compile({ pattern: d.pattern, action: d.action, source: 'default' }, d))),
    ...options.rules.map((rule) => compile(rule)),
  ];
  let byAction = group(compiled);
  const regroup = () => {
    byAction = group(compiled);
  };
  function group(rules: CompiledRule[]) {
    // Untrusted project allow rules stay listed but never match; that is the whole point of trust.
    const live = rules.filter((r) => !(r.rule.source === 'project' && r.rule.action === 'allow' && !projectTrusted));
    return {
      deny: live.filter((r) => r.rule.action === 'deny'),
      ask: live.filter((r) => r.rule.action === 'ask'),
      allow: live.filter((r) => r.rule.action === 'allow'),
    };
  }

  function describe(query: PermissionQuery): Call {
    const toolName = query.tool.name;
    let subject: PermissionSubject = { kind: 'none' };
    try {
      if (query.tool.subject) subject = query.tool.subject(query.args as never);
    } catch (error) {
      return {
        toolName,
        subject,
        items: [{ kind: 'call' }],
        cls: 'exec',
        egress: true,
        problem: `${toolName} could not say what it touches (${(error as Error).message})`,
      };
    }
    switch (subject.kind) {
      case 'command':
        return describeCommand(toolName, subject);
      case 'paths':
        return describePaths(toolName, subject);
      case 'url': {
        let host: string;
        try {
          host = new URL(subject.url).hostname;
        } catch {
          return {
            toolName,
            subject,
            items: [{ kind: 'call' }],
            cls: 'egress',
            egress: true,
            problem: `${JSON.stringify(subject.url)} is not a URL`,
          };
        }
        return { toolName, subject, items: [{ kind: 'host', host }], cls: 'egress', egress: true };
      }
      case 'none': {
        const mcp = toolName.startsWith('mcp__');
        const readOnly = mcp && query.mcpReadOnly === true;
        const risk = query.tool.risk;
        const cls: ActionClass = readOnly || risk === 'read' ? 'read' : risk === 'none' ? 'none' : risk;
        return { toolName, subject, items: [{ kind: 'call' }], cls, egress: mcp ? !readOnly : risk === 'egress' };
      }
    }
  }

  function describeCommand(toolName: string, subject: Extract<PermissionSubject, { kind: 'command' }>): Call {
    const text = subject.command;
    const cwd = path.resolve(root, subject.cwd ?? '.');
    let analysis: CommandAnalysis;
    try {
      analysis = analyze(text, { cwd, workspaceRoot: root, ...(pathEnv === undefined ? {} : { pathEnv }) });
    } catch (error) {
      analysis = { commands: [], unpinnable: `the shell analysis failed: ${(error as Error).message}` };
    }
    const total = analysis.commands.length;
    const items: Item[] = [];
    let redirects = 0;
    analysis.commands.forEach((command, index) => {
      items.push({ kind: 'part', index, total, command, shown: showPart(command) });
      for (const target of command.writesTo) {
        if (SINKS.has(target) || target.startsWith('/dev/fd/')) continue;
        redirects++;
        items.push(redirectItem(target, cwd));
      }
    });
    const call: Call = {
      toolName,
      subject,
      items,
      cls: 'exec',
      egress: analysis.unpinnable !== undefined || analysis.commands.some((c) => c.mayReachNetwork),
      command: { text, analysis },
    };
    let outsideReads = 0;
    for (const target of analysis.reads ?? []) {
      const item = readItem(target);
      if (!item) continue;
      items.push(item);
      outsideReads++;
    }
    if (!analysis.unpinnable && redirects === 0 && total > 0 && analysis.commands.every(readsOnly))
      call.cls = outsideReads > 0 ? 'read-outside' : 'read';
    if (total === 0 && !analysis.unpinnable) call.problem = 'the command is empty';
    return call;
  }

  function redirectItem(target: string, cwd: string): Item {
    if (/[$`*?[\]{}]/.test(target) || (target.startsWith('~') && !target.startsWith('~/'))) {
      return { kind: 'path', access: 'write', candidates: [], shown: target, inside: false, redirect: true, unknown: true };
    }
    // As written, `..` folded (what a rule names), and where the kernel opens it: each symlink followed
    // before the `..` after it, a dangling one to the place it names (`echo x > link` writes there).
    const spelled = target.startsWith('~/') ? `${home}/${target.slice(2)}` : path.isAbsolute(target) ? target : `${cwd}/${target}`;
    const absolute = path.resolve(spelled);
    const opened = leadsTo(physicalPath, spelled);
    // The sandbox's /tmp is the session's own: a link in the real one does not lead a command anywhere.
    const inFence = fenced() && fencedPlaces().some((place) => isWithin(absolute, place));
    return {
      kind: 'path',
      access: 'write',
      candidates: unique([opened.path, absolute]),
      shown: target,
      inside: inFence || (!opened.loops && isInside(opened.path)),
      redirect: true,
    };
  }

  /** A file the line reads, as an item when it is (or may be) outside the workspace; inside, it is the command's business. */
  function readItem(target: ReadTarget): Item | undefined {
    if (target.path === undefined) {
      return { kind: 'path', access: 'read', candidates: [], shown: target.shown, inside: false, unknown: true, commandRead: true };
    }
    const raw = target.path === '~' || target.path.startsWith('~/') ? `${home}${target.path.slice(1)}` : target.path;
    const names = target.pattern ? expandGlob(raw) : [raw];
    if (names === null)
      return { kind: 'path', access: 'read', candidates: [], shown: target.shown, inside: false, unknown: true, commandRead: true };
    const option = target.mayBeOption ? matchReadAsOption(raw, names) : undefined;
    if (option !== undefined) {
      // What that option makes the program read is not on the line: a read of a place only known when it runs.
      const shown = `${target.shown} (it matches ${option}, which the program reads as an option)`;
      return { kind: 'path', access: 'read', candidates: [], shown, inside: false, unknown: true, commandRead: true };
    }
    for (const name of names) {
      // Where the line spells it (`..` folded) and where the kernel takes it (each symlink followed first).
      const lexical = path.resolve(name);
      const opened = leadsTo(physicalPath, path.isAbsolute(name) ? name : lexical);
      const physical = opened.path;
      if (!opened.loops && isInside(physical) && isInside(lexical)) continue;
      const shown = names.length > 1 ? `${target.shown} (${name})` : target.shown;
      return {
        kind: 'path',
        access: 'read',
        candidates: unique([physical, lexical]),
        shown,
        inside: false,
        commandRead: true,
        ...(target.named ? { named: true } : {}),
      };
    }
    return undefined;
  }

  function describePaths(toolName: string, subject: Extract<PermissionSubject, { kind: 'paths' }>): Call {
    const items: Item[] = [];
    let guard: string | undefined;
    for (const given of subject.paths) {
      const lexical = given === '~' || given.startsWith('~/') ? path.join(home, given.slice(2)) : path.resolve(root, given);
      let canonical: string;
      let inside = true;
      try {
        canonical = workspace.resolve(given);
      } catch (error) {
        inside = false;
        canonical = leadsTo(canonicalPath, lexical).path;
        if (subject.access === 'write')
          guard ??= `${toolName} would write ${canonical}, outside the workspace ${root}; file tools only change files inside it (${(error as Error).message})`;
      }
      items.push({
        kind: 'path',
        access: subject.access,
        candidates: unique([canonical, lexical]),
        shown: inside ? workspace.relative(canonical) : canonical,
        inside,
      });
    }
    const outside = items.some((i) => i.kind === 'path' && !i.inside);
    const cls: ActionClass = subject.access === 'write' ? 'edit' : outside ? 'read-outside' : 'read';
    const call: Call = { toolName, subject, items, cls, egress: false };
    if (guard) call.guard = guard;
    if (subject.access === 'write') {
      for (const item of items) {
        if (item.kind !== 'path' || !item.inside) continue;
        call.runsLater ??= lifecycleQuestion(item.candidates[0] as string, item.shown, subject.after);
      }
    }
    if (items.length === 0) call.problem = `${toolName} names no path`;
    return call;
  }

  function isInside(absolute: string): boolean {
    return isWithin(absolute, root);
  }

  function wholeLine(pattern: CommandPattern, call: Call): boolean {
    return (pattern.wholeLine || pattern.exact) && call.command !== undefined && pattern.text === call.command.text.trim();
  }

  function matches(r: CompiledRule, call: Call, item: Item): boolean {
    const t = r.parsed.target;
    const allow = r.rule.action === 'allow';
    // A bare tool name matches that tool by name, whether or not it says what it touches.
    if (t.kind !== 'tool' && !t.pattern && sameRuleFamily(r.parsed.tool, call.toolName)) return true;
    switch (t.kind) {
      case 'tool':
        return t.names.test(call.toolName);
      case 'command': {
        if (call.subject.kind !== 'command') return false;
        if (t.pattern && wholeLine(t.pattern, call)) return true;
        if (item.kind !== 'part') return false;
        if (!t.pattern) return true;
        if (t.pattern.wholeLine) return false;
        if (allow) return allowsPart(t.pattern, item.command);
        const tokens = t.pattern.tokens;
        const { argv, wrappers } = item.command;
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
  function wrapperCovered(rules: CompiledRule[], call: Call, command: SimpleCommand, index: number): CompiledRule | undefined {
    const words = [...command.wrappers.slice(index), ...command.argv];
    return rules.find((r) => {
      const t = r.parsed.target;
      if (t.kind !== 'command' || !sameRuleFamily(r.parsed.tool, call.toolName)) return false;
      if (!t.pattern) return true;
      return !t.pattern.wholeLine && matchTokens(t.pattern.tokens, words);
    });
  }

  /** The allow rules that together cover an item: the first that matches it, plus one per wrapper that must be named. */
  function allowedBy(rules: CompiledRule[], call: Call, item: Item): CompiledRule[] | undefined {
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

  function firstMatch(rules: CompiledRule[], call: Call, item: Item): CompiledRule | undefined {
    for (const r of rules) if (matches(r, call, item)) return r;
    return undefined;
  }

  function what(call: Call, item: Item): string {
    switch (item.kind) {
      case 'part': {
        const notes = [
          ...(item.total > 1 ? [`part ${item.index + 1} of ${item.total}`] : []),
          ...(item.command.wrappers.length > 0 ? [`through ${item.command.wrappers.join(', ')}`] : []),
        ];
        return `${item.shown}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`;
      }
      case 'path':
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

  function itemDefault(call: Call, item: Item): { action: PolicyAction; reason: string } {
    let cls: ActionClass;
    // A part's redirections are items of their own, so only the program itself counts here.
    if (item.kind === 'part' && item.command.argv.length === 0) cls = 'none';
    else if (item.kind === 'part') cls = item.command.readOnly && !item.command.wrappers.some(isPrivilegedWrapper) ? 'read' : 'exec';
    // In auto mode the sandbox decides at run time where a redirection it holds may write, known or not.
    else if (item.kind === 'path' && item.redirect)
      cls = item.inside || (item.unknown && mode === 'auto' && fenced()) ? 'edit' : 'edit-outside';
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
      item.kind === 'path' && item.unknown ? `${subject} writes to a place only known when it runs` : `${capitalise(subject)} ${d.reason}`;
    return { action: d.action, reason };
  }

  function decide(call: Call, taint: string | undefined, extraAllow?: CompiledRule): Decided {
    if (call.guard) return { action: 'deny', reason: `${capitalise(call.guard)}.` };

    for (const item of call.items) {
      const r = firstMatch(byAction.deny, call, item);
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
      const denier = byAction.deny.find((r) => sameRuleFamily(r.parsed.tool, call.toolName));
      if (denier)
        return {
          action: 'deny',
          reason: `${capitalise(hidden)}, so it could be what ${denier.rule.pattern} denies${builtIn(denier)}.`,
          rule: denier,
        };
    }

    const forbidden = modeForbids(mode, call.cls);
    if (forbidden) return { action: 'deny', reason: forbidden };

    const gate = taint !== undefined && options.outsideContent !== 'off' && call.egress;
    if (gate && options.outsideContent === 'block') {
      return {
        action: 'deny',
        reason: `The session holds outside content (${taint}), and ${subjectPhrase(call)} can send data out; outside content is set to block such actions until the session ends.`,
        taint,
      };
    }

    for (const item of call.items) {
      const r = firstMatch(byAction.ask, call, item);
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
    if (unpinnable && !(mode === 'auto' && fenced())) {
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
    const allowRules = extraAllow ? [...byAction.allow, extraAllow] : byAction.allow;
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
      const d = itemDefault(call, item);
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

  function subjectPhrase(call: Call): string {
    if (call.command) return `\`${call.command.text.trim()}\``;
    const host = call.items.find((i) => i.kind === 'host');
    if (host && host.kind === 'host') return `${call.toolName} to ${host.host}`;
    return call.toolName;
  }

  function offer(call: Call, taint: string | undefined, decided: Decided): AllowAlwaysOffer {
    if (decided.noOffer) return { refused: decided.noOffer };
    const subject = allowAlwaysSubject(call);
    let made = offerAllowAlways(subject);
    // The offer must do what it says: with it as a grant, this very call would be allowed.
    if ('rule' in made && !grants(call, taint, made.rule) && subject.kind === 'command') {
      made = offerAllowAlways({ ...subject, exactOnly: 'the prefix would not cover all of it' });
    }
    if ('rule' in made && !grants(call, taint, made.rule)) {
      return { refused: `no single rule would allow all of it (${made.rule} would not); allow it once` };
    }
    return made;
  }

  function grants(call: Call, taint: string | undefined, rule: string): boolean {
    const extra = compile({ pattern: rule, action: 'allow', source: 'session' });
    return decide(call, taint, extra).action === 'allow';
  }

  function allowAlwaysSubject(call: Call): AllowAlwaysSubject {
    if (call.command) {
      const outside = call.items.some((i) => i.kind === 'path' && (!i.inside || i.unknown));
      return {
        kind: 'command',
        command: call.command.text,
        analysis: call.command.analysis,
        ...(outside ? { exactOnly: 'it reaches outside the workspace' } : {}),
      };
    }
    const paths = call.items.flatMap((i) => (i.kind === 'path' ? [i] : []));
    if (paths.length > 0 && call.subject.kind === 'paths') {
      return {
        kind: 'paths',
        access: call.subject.access,
        paths: paths.map((p) => ({ absolute: p.candidates[0] as string, ...(p.inside ? { relative: p.shown } : {}) })),
        tool: call.toolName,
      };
    }
    const host = call.items.find((i) => i.kind === 'host');
    if (host && host.kind === 'host') return { kind: 'url', host: host.host };
    return { kind: 'tool', name: call.toolName };
  }

  return {
    get mode() {
      return mode;
    },

    setMode(next) {
      mode = next;
    },

    setProjectTrusted(trusted) {
      projectTrusted = trusted;
      regroup();
    },

    evaluate(query) {
      const call = describe(query);
      const taint = query.taint;
      const decided = decide(call, taint);
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
      if (verdict.action === 'ask' && mode === 'unleashed' && !decided.holdsWhenUnleashed) {
        return { ...verdict, action: 'allow', reason: `Unleashed mode allows what would ask: ${decided.reason}` };
      }
      if (verdict.action === 'ask') {
        // What the analysis noticed (a program fed from a here-document, say) helps the person decide.
        const notes = call.command?.analysis.notes ?? [];
        if (notes.length > 0) verdict.reason += ` Note: ${notes.join('; ')}.`;
        verdict.allowAlways = offer(call, taint, decided);
      }
      return verdict;
    },

    evaluateHost(host, taint) {
      const call: Call = {
        toolName: 'fetch_url',
        subject: { kind: 'url', url: `https://${host}/` },
        items: [{ kind: 'host', host }],
        cls: 'egress',
        egress: true,
      };
      const decided = decide(call, taint);
      return { action: decided.action, reason: decided.reason, ...(decided.rule ? { rule: decided.rule.rule.pattern } : {}) };
    },

    canRead(absolutePath) {
      const lexical = path.resolve(root, absolutePath);
      const candidates = unique([leadsTo(canonicalPath, lexical).path, lexical]);
      if (!candidates.some(isInside)) return false;
      const readers = (r: CompiledRule) => {
        const t = r.parsed.target;
        return (t.kind === 'path' && t.family === 'read') || (t.kind === 'tool' && t.names.test('read_file'));
      };
      for (const r of byAction.deny) {
        if (readers(r) && (!r.matchPath || candidates.some(r.matchPath))) return false;
      }
      for (const r of byAction.ask) {
        if (readers(r) && r.matchPath && candidates.some(r.matchPath)) return false;
      }
      return true;
    },

    addRule(rule) {
      compiled.push(compile(rule));
      regroup();
    },

    removeRule(which) {
      const before = compiled.length;
      compiled = compiled.filter((c) =>
        'id' in which
          ? c.rule.id !== which.id
          : !(
              c.rule.id === undefined &&
              c.rule.pattern === which.pattern &&
              c.rule.action === which.action &&
              c.rule.source === which.source
            ),
      );
      regroup();
      return before - compiled.length;
    },

    rules() {
      return compiled.map((c) => ({ ...c.rule }));
    },
  };
}

/** One simple command for a person: `rm -rf build` (its wrappers are named after it, by `what`). */
function showPart(command: SimpleCommand): string {
  return command.argv.length === 0 ? 'a line of only redirections' : `\`${showArgv(command.argv)}\``;
}

/** The first simple command that runs a program no rule can see by its name, as why. */
function hiddenIn(analysis: CommandAnalysis): string | undefined {
  for (const command of analysis.commands) {
    const why = hiddenProgram(command);
    if (why) return why;
  }
  return undefined;
}

function readsOnly(command: SimpleCommand): boolean {
  return (
    command.readOnly &&
    command.writesTo.every((t) => SINKS.has(t) || t.startsWith('/dev/fd/')) &&
    !command.wrappers.some(isPrivilegedWrapper)
  );
}

/**
 * Where a path leads (through `resolve`, canonicalPath or physicalPath); a path whose links loop
 * leads nowhere a rule can name: it is kept as given and never counts as inside the workspace.
 */
function leadsTo(resolve: (absolute: string) => string, absolute: string): { path: string; loops?: true } {
  try {
    return { path: resolve(absolute) };
  } catch (error) {
    if (error instanceof SymlinkLoopError) return { path: path.resolve(absolute), loops: true };
    throw error;
  }
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

/** Starts a sentence; a tool name or a rule stays as written (`edit_file on src/a.ts ...`). */
function capitalise(text: string): string {
  return /^[a-z]+(?=[\s,.:]|$)/.test(text) ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}
