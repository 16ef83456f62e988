import type { AcceptDone, DiffScope, FileChange, FileDiff, RevertDone } from '../../../shared/contract';
import type { EventOf } from '../../../shared/events';
import { fileHunks, type FileHunks } from '../../review/fileHunks';
import { ownChanges, type OwnEntry, type OwnFileChange } from '../../review/ownChanges';
import { OWN_STEP_EVENTS, ownSteps, type OwnStep } from '../../review/ownSteps';
import { normalise, revertTo, type RevertTarget } from '../../review/revertFile';
import { RevertUndos } from '../../review/revertUndo';
import { SnapshotHistory } from '../../review/snapshotHistory';
import type { Store } from '../../store/store';
import { looksBinary } from '../../workspace/looksBinary';
import { languageForPath } from '../../workspace/diff';
import type { ShadowRepo } from '../../workspace/shadowRepo';
import { RequestError } from '../../../shared/requestError';
import type { SessionShadowRepos } from '../../checkpoints/sessionShadowRepos';

type ReviewEvent =
  EventOf<'changes.reverted'> | EventOf<'changes.revert_undone'> | EventOf<'changes.accepted'> | EventOf<'changes.accept_undone'>;

export interface SessionDiffsOptions {
  /** Appends an event to the session's log and tells the UI (a revert, an accept); answers with its seq. */
  record(sessionId: string, event: ReviewEvent): { seq: number };
}

/**
 * The live diff: what the session's own steps changed that still stands, and the person's review of it.
 *
 * Several sessions may work in one folder, and the person may edit it meanwhile, so the diff is not
 * "the folder against where the session started". Each step of the session that may change files
 * is bracketed by snapshots in the folder's shadow repository (the one taken once the call was
 * allowed, and its checkpoint after), and so are the person's reverts and rewinds; `ownSteps` reads
 * them from the log and `ownChanges` follows each file those steps touched, line by line, through
 * every version up to now, keeping the session's lines apart from everyone else's. What shows is
 * the file now against the file without the session's standing changes, so a revert or an accept
 * never touches another's work, and a revert refuses rather than overwrite lines someone else
 * rewrote since.
 *
 * Scopes: `session`, the steps since the person last accepted the session's changes; `turn`, the
 * steps since the person's latest message (or a later accept).
 *
 * A known limit: a change someone else makes while one of the session's steps runs (another
 * session's command running at the same moment) falls inside that step and counts as the session's.
 */
export class SessionDiffs {
  private readonly failures = new Map<string, string>();
  /** Base snapshots being taken: a diff asked for meanwhile waits for its base instead of failing. */
  private readonly basesUnderWay = new Map<string, Promise<void>>();
  /** The way back from each session's latest revert. */
  private readonly undos = new RevertUndos();
  /** What was read from each shadow repository's snapshots, kept: they never change. */
  private readonly histories = new WeakMap<ShadowRepo, SnapshotHistory>();
  /**
   * The latest answers of `own` for every file, by what decides them (the repository, the snapshot
   * of now, the steps): the panel asks for the list and then at once for a file of it, and the
   * folder has usually not changed in between, so the second answer costs a snapshot, not the work
   * of following every file again. Exact: snapshots never change.
   */
  private readonly recent = new Map<string, OwnFileChange[]>();
  /** Answers of `own` for every file being worked out, by the same key: a request meanwhile waits for it instead of doing it again. */
  private readonly working = new Map<string, Promise<OwnFileChange[]>>();
  /**
   * Snapshots of now under way for a diff being shown, by repository. A page opening a link asks for
   * the list and the file at once; each took its own snapshot and followed every file again, and the
   * two git runs slowed each other. A change made while one is under way ends a step, and the page
   * asks again after every step, so showing joins a snapshot under way; a revert or an accept, which
   * acts on what it reads, always takes its own.
   */
  private readonly showingNow = new Map<string, Promise<string>>();

  constructor(
    private readonly store: Store,
    private readonly shadowRepos: SessionShadowRepos,
    private readonly options: SessionDiffsOptions = { record: () => ({ seq: 0 }) },
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

  /** `fresh`: against a snapshot of now of its own (the person asked), which later asks for showing join. */
  async files(sessionId: string, scope: DiffScope = 'session', fresh = false): Promise<FileChange[]> {
    const { changes } = await this.own(sessionId, scope, undefined, fresh ? 'refresh' : 'show');
    return changes.map(fileChange);
  }

  async file(sessionId: string, filePath: string, scope: DiffScope = 'session'): Promise<FileDiff> {
    const relative = normalise(filePath);
    const { changes } = await this.own(sessionId, scope, relative, 'show');
    const change = changes[0];
    if (!change)
      throw new RequestError('not_found', `${nothingOwned(relative, scope)}; list the changes again to see what the session changed.`);
    return fileDiffOf(change);
  }

  /** The session's own changes that still stand (its `session` scope), to carry them elsewhere. */
  async standing(sessionId: string): Promise<{ changes: OwnFileChange[] }> {
    const { changes } = await this.own(sessionId, 'session');
    return { changes };
  }

  /**
   * Puts a file, or one hunk of it, back as it would be without the session's change, leaving
   * everyone else's changes in it, and logs what was reverted so the model is told. Refused while
   * the agent works (it may be writing the same file, and it would not learn of the change until its
   * next request anyway), and when the file changed since the change was worked out.
   */
  async revert(
    sessionId: string,
    request: { path: string; scope?: DiffScope; hunk?: { index: number; fingerprint: string } },
  ): Promise<RevertDone> {
    const relative = normalise(request.path);
    const scope = request.scope ?? 'session';
    const { repo, now, changes } = await this.own(sessionId, scope, relative);
    const change = changes[0];
    if (!change || !now)
      throw new RequestError('not_found', `${nothingOwned(relative, scope)}: there is nothing to revert. Refresh the list of changes.`);
    const target: RevertTarget = request.hunk ? { kind: 'hunk', ...request.hunk } : { kind: 'file' };
    const reverted = revertTo(repo.workspace, relative, treeEntry(change.origin), target, treeEntry(change.current));
    const after = await this.snapshotQuietly(repo, `session ${sessionId} reverted ${relative}`);
    const { path, hunks, note } = reverted;
    this.options.record(sessionId, {
      type: 'changes.reverted',
      path,
      hunks,
      note,
      ...(after ? { snapshots: { before: now, after } } : {}),
    });
    return { path, note, undoId: this.undos.remember(sessionId, reverted) };
  }

  /** Undoes the session's latest revert (`undoId` names it), and logs it so the model is told. */
  async undoRevert(sessionId: string, undoId: string): Promise<Omit<RevertDone, 'undoId'>> {
    const repo = await this.repoFor(sessionId);
    const before = await this.snapshotQuietly(repo, `session ${sessionId} before undoing a revert`);
    const undone = this.undos.undo(sessionId, undoId);
    const after = before ? await this.snapshotQuietly(repo, `session ${sessionId} undid a revert`) : null;
    this.options.record(sessionId, {
      type: 'changes.revert_undone',
      ...undone,
      ...(before && after ? { snapshots: { before, after } } : {}),
    });
    return { path: undone.path, note: undone.note };
  }

  /**
   * Accepts everything the session changed so far in `scope`, or one file's changes (`path`): they
   * leave the review list. It writes nothing, so nobody else's work is touched, and undoing it
   * (`undoAccept`) only puts them back in the list.
   */
  async accept(sessionId: string, scope: DiffScope = 'session', filePath?: string): Promise<AcceptDone> {
    const relative = filePath === undefined ? undefined : normalise(filePath);
    if (relative !== undefined) {
      const { changes } = await this.own(sessionId, scope, relative);
      if (changes.length === 0)
        throw new RequestError('not_found', `${nothingOwned(relative, scope)}: there is nothing to accept. Refresh the list of changes.`);
    } else await this.ready(sessionId);
    const repo = await this.repoFor(sessionId);
    const { commit } = await repo.snapshot(`session ${sessionId} accepted (${scope}${relative ? `, ${relative}` : ''})`, {
      ref: `sessions/${sessionId}/accepted`,
    });
    const { seq } = this.options.record(sessionId, {
      type: 'changes.accepted',
      scope,
      commit,
      ...(relative !== undefined ? { paths: [relative] } : {}),
    });
    return { acceptSeq: seq, note: relative ?? (scope === 'turn' ? 'the last turn’s changes' : 'the session’s changes') };
  }

  /** Puts an accept's changes back in the review list: the accept at `acceptSeq` counts no more. */
  undoAccept(sessionId: string, acceptSeq: number): { note: string } {
    if (!this.store.sessions.get(sessionId)) throw new RequestError('not_found', `There is no session ${sessionId}.`);
    const events = this.store.events.listOfTypes(sessionId, ['changes.accepted', 'changes.accept_undone']);
    const accept = events.find((stored) => stored.seq === acceptSeq && stored.event.type === 'changes.accepted');
    if (!accept || accept.event.type !== 'changes.accepted')
      throw new RequestError('not_found', `This session has no accept at event ${acceptSeq}; refresh the list of changes.`);
    if (events.some(({ event }) => event.type === 'changes.accept_undone' && event.acceptSeq === acceptSeq))
      throw new RequestError('conflict', 'That accept was already undone.');
    this.options.record(sessionId, { type: 'changes.accept_undone', acceptSeq });
    const paths = accept.event.paths;
    return { note: paths ? paths.join(', ') : accept.event.scope === 'turn' ? 'the last turn’s changes' : 'the session’s changes' };
  }

  /** The shadow repository that holds this session's snapshots (shared by the sessions of one workspace). */
  repoFor(sessionId: string): Promise<ShadowRepo> {
    if (!this.store.sessions.get(sessionId)) throw new RequestError('not_found', `There is no session ${sessionId}.`);
    return this.shadowRepos.forSession(sessionId);
  }

  private async ready(sessionId: string): Promise<void> {
    await this.basesUnderWay.get(sessionId);
    const failure = this.failures.get(sessionId);
    if (failure) throw new RequestError('failed', `The live diff is not available for this session: ${failure}`);
  }

  /**
   * The session's own standing changes in `scope` (to the one file `only`, when named), and the
   * snapshot of now they were worked out against. Every file is followed even for one: the page asks
   * for the list and a file of it together, and both then share one answer.
   */
  private async own(
    sessionId: string,
    scope: DiffScope,
    only?: string,
    purpose: 'show' | 'refresh' | 'act' = 'act',
  ): Promise<{ repo: ShadowRepo; now: string | null; changes: OwnFileChange[] }> {
    await this.ready(sessionId);
    const repo = await this.repoFor(sessionId);
    // Only what decides the steps: a session can hold thousands of events, and the panel asks after every tool call.
    const steps = ownSteps(this.store.events.listOfTypes(sessionId, OWN_STEP_EVENTS), scope, await repo.resolveRef(baseRef(sessionId)));
    if (steps.length === 0) return { repo, now: null, changes: [] };
    const now = purpose === 'act' ? (await repo.snapshot(NOW_LABEL)).commit : await this.snapshotToShow(repo, purpose === 'refresh');
    const key = JSON.stringify([repo.gitDir, now, steps.map((step) => [step.before, step.after, [...(step.accepted ?? [])].sort()])]);
    const all = this.recent.get(key) ?? (await this.followEveryFile(key, repo, steps, now));
    return { repo, now, changes: only === undefined ? all : all.filter((change) => change.path === only) };
  }

  private followEveryFile(key: string, repo: ShadowRepo, steps: readonly OwnStep[], now: string): Promise<OwnFileChange[]> {
    const underWay = this.working.get(key);
    if (underWay) return underWay;
    const work = ownChanges(this.historyOf(repo), steps, now).then((changes) => {
      this.recent.delete(key);
      this.recent.set(key, changes);
      for (const old of this.recent.keys()) if (this.recent.size > RECENT_ANSWERS) this.recent.delete(old);
      return changes;
    });
    // A promise reaction, so the entry is always set before it is deleted.
    this.working.set(key, work);
    void work.finally(() => this.working.delete(key)).catch(() => undefined);
    return work;
  }

  /** A snapshot of now for showing: one under way, unless `fresh`, which takes one that later asks join instead. */
  private snapshotToShow(repo: ShadowRepo, fresh: boolean): Promise<string> {
    const underWay = this.showingNow.get(repo.gitDir);
    if (underWay && !fresh) return underWay;
    const taking = repo.snapshot(NOW_LABEL).then((snapshot) => snapshot.commit);
    this.showingNow.set(repo.gitDir, taking);
    void taking
      .finally(() => {
        if (this.showingNow.get(repo.gitDir) === taking) this.showingNow.delete(repo.gitDir);
      })
      .catch(() => undefined);
    return taking;
  }

  private historyOf(repo: ShadowRepo): SnapshotHistory {
    let history = this.histories.get(repo);
    if (!history) {
      history = new SnapshotHistory(repo);
      this.histories.set(repo, history);
    }
    return history;
  }

  /** A snapshot after a revert or its undoing; without one the diff cannot tell it was the session's, which it then shows no more. */
  private async snapshotQuietly(repo: ShadowRepo, label: string): Promise<string | null> {
    try {
      return (await repo.snapshot(label)).commit;
    } catch {
      return null;
    }
  }
}

/** How many answers of `own` are kept: a few sessions' lists, each with both scopes. */
const NOW_LABEL = 'diff against the workspace';
const RECENT_ANSWERS = 6;

function nothingOwned(relative: string, scope: DiffScope): string {
  return `${relative} has no change made by this session${scope === 'turn' ? ' in the last turn' : ''} that still stands`;
}

function statusOf(change: OwnFileChange): FileChange['status'] {
  return change.origin === null ? 'added' : change.current === null ? 'deleted' : 'modified';
}

/**
 * A text change cut into hunks, worked out once per change: the list counts its lines from them, and
 * the file's diff (asked for next, and answered from the same changes while the folder stands still)
 * sends them.
 */
const hunksByChange = new WeakMap<OwnFileChange, FileHunks | null>();

function hunksOf(change: OwnFileChange, text: { origin: string; current: string }): FileHunks | null {
  if (!hunksByChange.has(change)) hunksByChange.set(change, fileHunks(text.origin, text.current));
  return hunksByChange.get(change)!;
}

function fileChange(change: OwnFileChange): FileChange {
  const status = statusOf(change);
  const { text } = change;
  if (!text) return { path: change.path, status, additions: 0, deletions: 0, binary: isBinary(change) };
  const hunks = hunksOf(change, text);
  if (!hunks) {
    // Too large and too different to diff in time: every line counts as changed.
    return { path: change.path, status, additions: lineCount(text.current), deletions: lineCount(text.origin), binary: false };
  }
  let additions = 0;
  let deletions = 0;
  for (const hunk of hunks.hunks) {
    additions += hunk.newLines;
    deletions += hunk.oldLines;
  }
  return { path: change.path, status, additions, deletions, binary: false };
}

function lineCount(text: string): number {
  return text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

function fileDiffOf(change: OwnFileChange): FileDiff {
  const language = languageForPath(change.path);
  if (change.text) {
    const split = hunksOf(change, change.text);
    return {
      path: change.path,
      status: statusOf(change),
      before: change.text.origin,
      after: change.text.current,
      language,
      binary: false,
      ...(split ? { hunks: split.hunks } : {}),
    };
  }
  const binary = isBinary(change);
  // ignoreBOM keeps a byte-order mark in the text, so adding or removing one shows as a change.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const shown = (entry: OwnEntry | null) => (binary || !entry ? '' : decoder.decode(entry.bytes));
  return { path: change.path, status: statusOf(change), before: shown(change.origin), after: shown(change.current), language, binary };
}

function isBinary(change: OwnFileChange): boolean {
  return [change.origin, change.current].some((entry) => entry !== null && entry.mode !== '120000' && looksBinary(entry.bytes));
}

function treeEntry(entry: OwnEntry | null): { mode: string; bytes: Buffer } | null {
  return entry ? { mode: entry.mode, bytes: entry.bytes } : null;
}

function baseRef(sessionId: string): string {
  return `sessions/${sessionId}/base`;
}
