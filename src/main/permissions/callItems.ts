import path from 'node:path';
import { ruleToolOf } from '../../shared/toolCatalog';
import { canonicalPath, isInside, physicalPath, SymlinkLoopError } from '../workspace/filePaths';
import type { Workspace } from '../workspace/workspace';
import type { CommandAnalysis, ReadTarget, SimpleCommand } from '../shell/commandAnalysis';
import { configuredHooksQuestion, lifecycleQuestion } from './lifecycleWrite';
import type { ActionClass } from './modes';
import type { PermissionSubject } from './permissionSubject';
import type { PermissionQuery } from './policyVerdict';
import { expandGlob, matchReadAsOption } from './readPlaces';
import { showArgv } from './ruleMatchCommand';
import { isPrivilegedWrapper } from '../shell/wrapperSpecs';
import { isRunTimePlace, programRunTimeWrites } from '../shell/runTimeWrites';

/**
 * A tool call as the rules see it: the items each rule is matched against (each simple command of a
 * line, each path it reads or writes, a host), what kind of action it is for the modes, whether it
 * can send data out, and why it cannot be judged (a subject that threw, an empty command), if so.
 */

export type CommandAnalyzer = (command: string, context: { cwd: string; workspaceRoot: string; pathEnv?: string }) => CommandAnalysis;

export type CallItem =
  | { kind: 'part'; index: number; total: number; command: SimpleCommand; shown: string }
  | {
      kind: 'path';
      access: 'read' | 'write';
      /** The canonical path, and the path as given when it differs: deny and ask match either, allow must match both. */
      candidates: string[];
      shown: string;
      inside: boolean;
      /** Written by a command (a redirection, or a program's word) rather than by a file tool. */
      redirect?: boolean;
      /** The program whose word names the place it writes (`tee "$F"`); absent for a redirection. */
      writer?: string;
      /** A place that is only known when the command runs (`> $OUT`, `cp a "$DEST"`). */
      unknown?: boolean;
      /** Named for reading on a command line (an argument, `< file`, cd's folder). */
      commandRead?: boolean;
      /** Named by a command that is not read-only, which may read it or write it. */
      named?: boolean;
    }
  | { kind: 'host'; host: string }
  | { kind: 'call' };

export interface ItemizedCall {
  toolName: string;
  subject: PermissionSubject;
  items: CallItem[];
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

/** Where a call's paths are: the workspace (with its path guard), the home `~/` means, and the fence's own writable places. */
export interface CallPlaces {
  workspace: Workspace;
  home: string;
  analyze: CommandAnalyzer;
  pathEnv: string | undefined;
  /** Whether the sandbox holds this session's commands; asked each time. */
  fenced: () => boolean;
  /** The fence's own writable places besides the workspace, as a command names them; asked each time. */
  fencedPlaces: () => readonly string[];
}

/** Harmless places a redirection may write: not files anybody keeps. */
const SINKS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty']);

/** Turns a tool call into the items its rules are matched against. */
export class CallItemizer {
  private readonly root: string;

  constructor(private readonly places: CallPlaces) {
    this.root = places.workspace.root;
  }

  itemize(query: PermissionQuery): ItemizedCall {
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
        return this.command(toolName, subject);
      case 'paths':
        return this.paths(toolName, subject);
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

  /** A connection to a host, as a fetch of it: what a command's reach for a new host is judged as. */
  host(host: string): ItemizedCall {
    return {
      toolName: ruleToolOf('domain'),
      subject: { kind: 'url', url: `https://${host}/` },
      items: [{ kind: 'host', host }],
      cls: 'egress',
      egress: true,
    };
  }

  /** Whether a path is inside the workspace. */
  isInside(absolute: string): boolean {
    return isInside(absolute, this.root);
  }

  private command(toolName: string, subject: Extract<PermissionSubject, { kind: 'command' }>): ItemizedCall {
    const text = subject.command;
    const cwd = path.resolve(this.root, subject.cwd ?? '.');
    const { analyze, pathEnv } = this.places;
    let analysis: CommandAnalysis;
    try {
      analysis = analyze(text, { cwd, workspaceRoot: this.root, ...(pathEnv === undefined ? {} : { pathEnv }) });
    } catch (error) {
      analysis = { commands: [], unpinnable: `the shell analysis failed: ${(error as Error).message}` };
    }
    const total = analysis.commands.length;
    const items: CallItem[] = [];
    let redirects = 0;
    analysis.commands.forEach((command, index) => {
      items.push({ kind: 'part', index, total, command, shown: showPart(command) });
      for (const target of command.writesTo) {
        if (isSink(target)) continue;
        redirects++;
        items.push(this.redirect(target, cwd));
      }
      // What a program writes where its words say is a read of the line when spelled out (readTargets.ts);
      // a word only known when it runs is a write to a place nobody can name yet.
      for (const write of programRunTimeWrites(command)) {
        redirects++;
        items.push(runTimeWrite(write.shown, write.program));
      }
    });
    const call: ItemizedCall = {
      toolName,
      subject,
      items,
      cls: 'exec',
      egress: analysis.unpinnable !== undefined || analysis.commands.some((c) => c.mayReachNetwork),
      command: { text, analysis },
    };
    let outsideReads = 0;
    for (const target of analysis.reads ?? []) {
      const item = this.read(target);
      if (!item) continue;
      items.push(item);
      outsideReads++;
    }
    if (!analysis.unpinnable && redirects === 0 && total > 0 && analysis.commands.every(readsOnly))
      call.cls = outsideReads > 0 ? 'read-outside' : 'read';
    if (total === 0 && !analysis.unpinnable) call.problem = 'the command is empty';
    return call;
  }

  private redirect(target: string, cwd: string): CallItem {
    if (isRunTimePlace(target)) return runTimeWrite(target);
    // As written, `..` folded (what a rule names), and where the kernel opens it: each symlink followed
    // before the `..` after it, a dangling one to the place it names (`echo x > link` writes there).
    const spelled = target.startsWith('~/')
      ? `${this.places.home}/${target.slice(2)}`
      : path.isAbsolute(target)
        ? target
        : `${cwd}/${target}`;
    const absolute = path.resolve(spelled);
    const opened = leadsTo(physicalPath, spelled);
    // The sandbox's /tmp is the session's own: a link in the real one does not lead a command anywhere.
    const inFence = this.places.fenced() && this.places.fencedPlaces().some((place) => isInside(absolute, place));
    return {
      kind: 'path',
      access: 'write',
      candidates: unique([opened.path, absolute]),
      shown: target,
      inside: inFence || (!opened.loops && this.isInside(opened.path)),
      redirect: true,
    };
  }

  /** A file the line reads, as an item when it is (or may be) outside the workspace; inside, it is the command's business. */
  private read(target: ReadTarget): CallItem | undefined {
    if (target.path === undefined) {
      return { kind: 'path', access: 'read', candidates: [], shown: target.shown, inside: false, unknown: true, commandRead: true };
    }
    const raw = target.path === '~' || target.path.startsWith('~/') ? `${this.places.home}${target.path.slice(1)}` : target.path;
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
      if (!opened.loops && this.isInside(physical) && this.isInside(lexical)) continue;
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

  private paths(toolName: string, subject: Extract<PermissionSubject, { kind: 'paths' }>): ItemizedCall {
    const { workspace, home } = this.places;
    const items: CallItem[] = [];
    let guard: string | undefined;
    for (const given of subject.paths) {
      const lexical = given === '~' || given.startsWith('~/') ? path.join(home, given.slice(2)) : path.resolve(this.root, given);
      let canonical: string;
      let inside = true;
      try {
        canonical = workspace.resolve(given);
      } catch (error) {
        inside = false;
        canonical = leadsTo(canonicalPath, lexical).path;
        if (subject.access === 'write')
          guard ??= `${toolName} would write ${canonical}, outside the workspace ${this.root}; file tools only change files inside it (${(error as Error).message})`;
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
    const call: ItemizedCall = { toolName, subject, items, cls, egress: false };
    if (guard) call.guard = guard;
    if (subject.access === 'write') {
      for (const item of items) {
        if (item.kind !== 'path' || !item.inside) continue;
        const canonical = item.candidates[0] as string;
        call.runsLater ??=
          lifecycleQuestion(canonical, item.shown, subject.after) ?? configuredHooksQuestion(canonical, item.shown, this.root);
      }
    }
    if (items.length === 0) call.problem = `${toolName} names no path`;
    return call;
  }
}

/** One simple command for a person: `rm -rf build` (its wrappers are named after it, by `what`). */
function showPart(command: SimpleCommand): string {
  return command.argv.length === 0 ? 'a line of only redirections' : `\`${showArgv(command.argv)}\``;
}

/** A write to a place only known when the command runs. */
function runTimeWrite(shown: string, writer?: string): CallItem {
  return {
    kind: 'path',
    access: 'write',
    candidates: [],
    shown,
    inside: false,
    redirect: true,
    unknown: true,
    ...(writer ? { writer } : {}),
  };
}

function isSink(target: string): boolean {
  return SINKS.has(target) || target.startsWith('/dev/fd/');
}

function readsOnly(command: SimpleCommand): boolean {
  return command.readOnly && command.writesTo.every(isSink) && !command.wrappers.some(isPrivilegedWrapper);
}

/**
 * Where a path leads (through `resolve`, canonicalPath or physicalPath); a path whose links loop
 * leads nowhere a rule can name: it is kept as given and never counts as inside the workspace.
 */
export function leadsTo(resolve: (absolute: string) => string, absolute: string): { path: string; loops?: true } {
  try {
    return { path: resolve(absolute) };
  } catch (error) {
    if (error instanceof SymlinkLoopError) return { path: path.resolve(absolute), loops: true };
    throw error;
  }
}

export function unique(values: string[]): string[] {
  return [...new Set(values)];
}
