import type { DiffScope, FileChange, FileDiff, RevertDone } from '../../shared/contract';
import type { EventOf, StoredEvent } from '../../shared/events';
import { revertFile, type RevertTarget } from '../review/revertFile';
import { RevertUndos } from '../review/revertUndo';
import type { Store } from '../store/store';
import { changedFiles, fileDiff, WORKTREE } from '../workspace/diff';
import type { ShadowRepo } from '../workspace/shadowRepo';
import { HostError } from './hostError';
import type { SessionShadowRepos } from './sessionShadowRepos';
import { fileHunks } from '../review/fileHunks';

export interface SessionDiffsOptions {
  /** Appends an event to the session's log and tells the UI (a revert, an accept). */
  record(sessionId: string, event: EventOf<'changes.reverted'> | EventOf<'changes.revert_undone'> | EventOf<'changes.accepted'>): void;
}

/**
 * The live diff: every file a session changed, against a review base, and the person's review of it.
 *
 * The `session` scope compares with the folder as it was when the session started, or when the
 * person last accepted its changes. The `turn` scope compares with the folder as the person's latest
 * message found it: the latest snapshot at or before that message (a checkpoint, the checkpoint its
 * run took before any tool ran, the session's start, an accept). Bases are snapshots in a shadow git repository
 * per workspace (outside the user's repository), so changes made by commands show as well as those
 * made by the file tools. Which snapshot is the base is read from the log each time: the log is the
 * source of truth, refs only keep the snapshots.
 */
export class SessionDiffs {
  private readonly failures = new Map<string, string>();
  /** Base snapshots being taken: a diff asked for meanwhile waits for its base instead of failing. */
  private readonly basesUnderWay = new Map<string, Promise<void>>();
  /** The way back from each session's latest revert. */
  private readonly undos = new RevertUndos();

  constructor(
    private readonly store: Store,
    private readonly shadowRepos: SessionShadowRepos,
    private readonly options: SessionDiffsOptions = { record: () => {} },
  ) {}

  /** Takes the session's base snapshot; must finish before the agent may change anything. */
  takeBase(sessionId: string): Promise<void> {
    // A promise reaction, so the entry is always set before it is deleted.
    const taking = this.snapshotBase(sessionId).finally(() => this.basesUnderWay.delete(sessionId));
    this.basesUnderWay.set(sessionId, taking);
    return taking;
  }

  private async snapshotBase(sessionId: string): Promise<void> {
    try {
      const repo = await this.repoFor(sessionId);
      await repo.snapshot(`session ${sessionId} start`, { ref: baseRef(sessionId) });
    } catch (error) {
      // The session still runs without a diff; the diff view says why.
      this.failures.set(sessionId, (error as Error).message);
    }
  }

  async files(sessionId: string, scope: DiffScope = 'session'): Promise<FileChange[]> {
    const { repo, base } = await this.base(sessionId, scope);
    return changedFiles(repo, base, WORKTREE);
  }

  async file(sessionId: string, filePath: string, scope: DiffScope = 'session'): Promise<FileDiff> {
    const { repo, base } = await this.base(sessionId, scope);
    const diff = await fileDiff(repo, base, WORKTREE, filePath);
    if (diff.binary) return diff;
    const split = fileHunks(diff.before, diff.after);
    return split ? { ...diff, hunks: split.hunks } : diff;
  }

  /**
   * Puts a file, or one hunk of it, back as the scope's base has it, and logs what was reverted so
   * the model is told. Refused while the agent works: it may be writing the same file, and it would
   * not learn of the change until its next request anyway.
   */
  async revert(
    sessionId: string,
    request: { path: string; scope?: DiffScope; hunk?: { index: number; fingerprint: string } },
  ): Promise<RevertDone> {
    const { repo, base } = await this.base(sessionId, request.scope ?? 'session');
    const target: RevertTarget = request.hunk ? { kind: 'hunk', ...request.hunk } : { kind: 'file' };
    const reverted = await revertFile(repo, base, request.path, target);
    const { path, hunks, note } = reverted;
    this.options.record(sessionId, { type: 'changes.reverted', path, hunks, note });
    return { path, note, undoId: this.undos.remember(sessionId, reverted) };
  }

  /** Undoes the session's latest revert (`undoId` names it), and logs it so the model is told. */
  undoRevert(sessionId: string, undoId: string): Omit<RevertDone, 'undoId'> {
    if (!this.store.sessions.get(sessionId)) throw new HostError('not_found', `There is no session ${sessionId}.`);
    const undone = this.undos.undo(sessionId, undoId);
    this.options.record(sessionId, { type: 'changes.revert_undone', ...undone });
    return { path: undone.path, note: undone.note };
  }

  /** Accepts everything changed so far in `scope`: its review base moves to the folder as it is now. */
  async accept(sessionId: string, scope: DiffScope = 'session'): Promise<void> {
    const { repo } = await this.base(sessionId, scope);
    const { commit } = await repo.snapshot(`session ${sessionId} accepted (${scope})`, { ref: `sessions/${sessionId}/accepted` });
    this.options.record(sessionId, { type: 'changes.accepted', scope, commit });
  }

  /** The shadow repository that holds this session's snapshots (shared by the sessions of one workspace). */
  repoFor(sessionId: string): Promise<ShadowRepo> {
    if (!this.store.sessions.get(sessionId)) throw new HostError('not_found', `There is no session ${sessionId}.`);
    return this.shadowRepos.forSession(sessionId);
  }

  private async base(sessionId: string, scope: DiffScope): Promise<{ repo: ShadowRepo; base: string }> {
    await this.basesUnderWay.get(sessionId);
    const failure = this.failures.get(sessionId);
    if (failure) throw new HostError('failed', `The live diff is not available for this session: ${failure}`);
    const repo = await this.repoFor(sessionId);
    const start = await repo.resolveRef(baseRef(sessionId));
    if (!start) throw new HostError('not_found', 'This session has no starting snapshot yet, so there is nothing to compare with.');
    // Only what decides a base: a session can hold thousands of events, and the panel asks after every tool call.
    const events = this.store.events.listOfTypes(sessionId, ['user.messaged', 'tool.started', 'checkpoint.created', 'changes.accepted']);
    if (scope === 'session') return { repo, base: sessionBase(events) ?? start };
    return { repo, base: turnBase(events, { seq: 0, commit: start }) };
  }
}

/** The latest session-wide accept, if any. */
function sessionBase(events: StoredEvent[]): string | null {
  let base: string | null = null;
  for (const { event } of events) if (event.type === 'changes.accepted' && event.scope === 'session') base = event.commit;
  return base;
}

/**
 * The folder as the person's latest message found it: the latest snapshot known to be at or before
 * that message, or an accept made since (of either scope) when later.
 */
function turnBase(events: StoredEvent[], start: { seq: number; commit: string }): string {
  let lastMessage = 0;
  let toolSinceMessage = false;
  const known = [start];
  for (const stored of events) {
    const { event } = stored;
    if (event.type === 'user.messaged') {
      lastMessage = stored.seq;
      toolSinceMessage = false;
    }
    if (event.type === 'tool.started') toolSinceMessage = true;
    if (event.type === 'changes.accepted') known.push({ seq: stored.seq, commit: event.commit });
    if (event.type === 'checkpoint.created') {
      // A run's starting checkpoint, taken after its message and before any tool ran, is the folder as the message found it.
      const atMessage = event.callId === null && !toolSinceMessage;
      known.push({ seq: atMessage ? lastMessage : stored.seq, commit: event.commit });
    }
  }
  let best = start;
  for (const point of known) if (point.seq <= lastMessage && point.seq >= best.seq) best = point;
  for (const stored of events) {
    if (stored.seq > lastMessage && stored.event.type === 'changes.accepted') best = { seq: stored.seq, commit: stored.event.commit };
  }
  return best.commit;
}

function baseRef(sessionId: string): string {
  return `sessions/${sessionId}/base`;
}
