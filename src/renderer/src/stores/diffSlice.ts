import type {
  AcceptDone,
  DiffHunk,
  DiffScope,
  FileChange,
  FileDiff,
  RevertDone,
  WorkspaceFileView,
  WorktreeFinish,
  WorktreeSetting,
} from '../../../shared/contract';
import type { GetState, SetState, StoreDeps } from './appState';
import { without, type LoadStatus } from './sessionsSlice';
import { errorMessage } from '../lib/errorMessage';
import { selectReviewShown } from './paneDefaults';

export interface SessionDiff {
  files: FileChange[];
  status: LoadStatus;
  error?: string;
}

export interface OpenFileDiff {
  sessionId: string;
  path: string;
  /** The last content fetched; kept while a refresh is under way so the editor does not blank. */
  diff: FileDiff | null;
  status: LoadStatus;
  error?: string;
}

/** What the person last did in a session's review, and how it went: shown in the diff panel. */
export interface ReviewNotice {
  kind: 'error' | 'info';
  message: string;
}

/** A place in a file, as the conversation names it (`src/a.ts:12:5`, `src/a.ts#L12`). */
export interface FilePlace {
  /** Relative to the workspace, forward slashes. */
  path: string;
  line?: number;
  column?: number;
}

/** A line the diff editor is to bring into view once it shows `path`; `key` makes asking again for the same line count. */
export interface DiffReveal extends FilePlace {
  sessionId: string;
  line: number;
  key: number;
}

/**
 * A workspace file shown read-only in place of the diff (a path named in the conversation that the
 * session did not change): loading, shown, waiting for the person to confirm a file a read rule asks
 * about, or refused with main's reason.
 */
export interface OpenWorkspaceFile extends FilePlace {
  sessionId: string;
  status: 'loading' | 'ready' | 'asks' | 'error';
  view?: WorkspaceFileView;
  error?: string;
}

/** The live diff: files the session changed against where it started, and the one being looked at. */
export interface DiffSlice {
  diffs: Record<string, SessionDiff>;
  /** Each session's review scope: since its start (or last accept), or since the person's last message. */
  diffScope: Record<string, DiffScope>;
  /** A review action under way in a session (its label), so buttons wait for it. */
  reviewPending: Record<string, string>;
  reviewNotice: Record<string, ReviewNotice>;
  /** Each session's latest revert, offered for undoing until the next review action or change. */
  lastRevert: Record<string, RevertDone>;
  /** Each session's latest accept, offered for undoing until the next review action. */
  lastAccept: Record<string, AcceptDone>;
  /** The per-project worktree setting, once asked for. */
  worktreeSettings: Record<string, WorktreeSetting>;
  setDiffScope(sessionId: string, scope: DiffScope): Promise<void>;
  /** Undoes one hunk of the open file, named by index and fingerprint so a stale view cannot undo another. */
  revertHunk(sessionId: string, path: string, index: number, hunk: DiffHunk): Promise<void>;
  revertFile(sessionId: string, path: string): Promise<void>;
  /** Asks main to put back what the session's latest revert changed; main refuses if the file changed since. */
  undoRevert(sessionId: string): Promise<void>;
  acceptChanges(sessionId: string): Promise<void>;
  /** Accepts one file's changes: it leaves the list, the others stay. */
  acceptFile(sessionId: string, path: string): Promise<void>;
  /** Puts the session's latest accept back in the list (an accept writes nothing, nor does this). */
  undoAccept(sessionId: string): Promise<void>;
  dismissReviewNotice(sessionId: string): void;
  loadWorktreeSetting(projectId: string): Promise<void>;
  setWorktreeSetting(projectId: string, enabled: boolean): Promise<void>;
  finishWorktree(sessionId: string, action: WorktreeFinish['action'], message?: string): Promise<void>;
  /** Moves a session out of a folder it shares with another into a git worktree of its own, with its changes. */
  moveToWorktree(sessionId: string): Promise<void>;
  /** The file picked in each session's list. */
  diffPath: Record<string, string>;
  fileDiff: OpenFileDiff | null;
  /** Reads the list again; `fresh` when the person asked (Refresh): against the folder as it is now, not a reading under way. */
  refreshDiff(sessionId: string, options?: { fresh?: boolean }): Promise<void>;
  /** Tools finish in bursts; one request after the burst settles. */
  scheduleDiffRefresh(sessionId: string): void;
  selectDiffFile(sessionId: string, path: string): Promise<void>;
  /** The line the diff editor brings into view next (a hunk picked in the list, a `path:line` link). */
  diffReveal: DiffReveal | null;
  /** Brings a line of the open file's diff into view. */
  revealInDiff(sessionId: string, place: FilePlace & { line: number }): void;
  /** The workspace file shown read-only in a session's review column, in place of the diff. */
  workspaceFile: OpenWorkspaceFile | null;
  /**
   * Opens a file named in the conversation (a tool card, a path in a message), at its line: in the
   * session's diff when the session changed it, else read-only as it is now. The review column opens.
   */
  openWorkspaceFile(sessionId: string, place: FilePlace): Promise<void>;
  /** Shows a file a read rule asks about, the person having said so. */
  confirmWorkspaceFile(sessionId: string): Promise<void>;
  /** Back from a workspace file to the session's changes. */
  closeWorkspaceFile(sessionId: string): void;
}

export function createDiffSlice(deps: StoreDeps, set: SetState, get: GetState): DiffSlice {
  const { api } = deps;
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** A session's list of changed files being asked for now. */
  const listing = new Map<string, Promise<unknown>>();
  let fileRequest = 0;
  let workspaceRequest = 0;
  /**
   * A file's diff asked for before the list of changes says whether the session changed it (a link
   * clicked on a freshly loaded page): most links name a changed file, so the two requests go out
   * together, and loadFile takes this answer rather than asking again. An unchanged file's answer
   * (not found) is dropped.
   */
  let askedAhead: { sessionId: string; path: string; scope: DiffScope; answer: Promise<FileDiff> } | null = null;
  /** The link being opened: an older one still waiting gives way. */
  let linkRequest = 0;
  const scopeNow = (sessionId: string): DiffScope => get().diffScope[sessionId] ?? 'session';

  function askAhead(sessionId: string, path: string): void {
    const answer = api.request('diff:file', { sessionId, path, ...scopeOf(sessionId) });
    answer.catch(() => undefined); // an unchanged file's "not found", when nobody takes the answer
    askedAhead = { sessionId, path, scope: scopeNow(sessionId), answer };
  }
  // 'session' is the request's default: left out, so a request reads as it did before scopes existed.
  const scopeOf = (sessionId: string) => (scopeNow(sessionId) === 'turn' ? { scope: 'turn' as const } : {});

  /** Runs a review request, showing it as under way, then what came of it, then the refreshed diff. */
  async function review(sessionId: string, label: string, work: () => Promise<string | null>): Promise<void> {
    if (get().reviewPending[sessionId]) return;
    set((state) => ({
      reviewPending: { ...state.reviewPending, [sessionId]: label },
      reviewNotice: without(state.reviewNotice, sessionId),
      lastRevert: without(state.lastRevert, sessionId),
      lastAccept: without(state.lastAccept, sessionId),
    }));
    let notice: ReviewNotice | null = null;
    try {
      const done = await work();
      if (done) notice = { kind: 'info', message: done };
    } catch (error) {
      notice = { kind: 'error', message: errorMessage(error) };
    }
    set((state) => ({
      reviewPending: without(state.reviewPending, sessionId),
      reviewNotice: notice ? { ...state.reviewNotice, [sessionId]: notice } : state.reviewNotice,
    }));
    await get().refreshDiff(sessionId);
  }

  /** Keeps the way back from a revert (shown with the notice that says what was reverted). */
  function reverted(sessionId: string, done: RevertDone): string {
    set((state) => ({ lastRevert: { ...state.lastRevert, [sessionId]: done } }));
    return `Reverted ${done.note}.`;
  }

  /** Keeps the way back from an accept (shown with the notice that says what was accepted). */
  function accepted(sessionId: string, done: AcceptDone): string {
    set((state) => ({ lastAccept: { ...state.lastAccept, [sessionId]: done } }));
    return `Accepted ${done.note}.`;
  }

  async function readWorkspaceFile(sessionId: string, place: FilePlace, confirmed: boolean): Promise<void> {
    const ticket = ++workspaceRequest;
    set({ workspaceFile: { sessionId, ...place, status: 'loading' } });
    try {
      const view = await api.request('workspace:readFile', { sessionId, path: place.path, ...(confirmed ? { confirmed } : {}) });
      if (ticket !== workspaceRequest) return;
      // Main names the file as it found it (`./a/../b.ts` is `b.ts`; a link inside the folder, its target).
      set({ workspaceFile: { sessionId, ...place, path: view.path, status: view.status === 'asks' ? 'asks' : 'ready', view } });
    } catch (error) {
      if (ticket !== workspaceRequest) return;
      set({ workspaceFile: { sessionId, ...place, status: 'error', error: errorMessage(error) } });
    }
  }

  async function loadFile(sessionId: string, path: string): Promise<void> {
    const ticket = ++fileRequest;
    // Asked for before anything is drawn: the drawing that follows (the diff editor, made the first
    // time a diff shows) holds the page's main thread for a while, and the host can answer meanwhile.
    const ahead =
      askedAhead?.sessionId === sessionId && askedAhead.path === path && askedAhead.scope === scopeNow(sessionId)
        ? askedAhead.answer
        : null;
    if (ahead) askedAhead = null;
    const answer = ahead ?? api.request('diff:file', { sessionId, path, ...scopeOf(sessionId) });
    set((state) => ({
      fileDiff: {
        sessionId,
        path,
        // The previous file stays on screen until the next arrives: the editor is kept, not re-created.
        diff: state.fileDiff?.sessionId === sessionId ? state.fileDiff.diff : null,
        status: 'loading',
      },
    }));
    try {
      const diff = await answer;
      if (ticket !== fileRequest) return;
      set({ fileDiff: { sessionId, path, diff, status: 'ready' } });
    } catch (error) {
      if (ticket !== fileRequest) return;
      set((state) => ({ fileDiff: { sessionId, path, diff: state.fileDiff?.diff ?? null, status: 'error', error: errorMessage(error) } }));
    }
  }

  /**
   * Reads the session's list of changed files, then opens one: the file a link being opened names
   * when the session changed it, else the one picked before, else the first.
   */
  async function listChanges(sessionId: string, options: { fresh?: boolean } = {}): Promise<void> {
    const timer = timers.get(sessionId);
    if (timer !== undefined) {
      clearTimeout(timer);
      timers.delete(sessionId);
    }
    // Asked for before the list shows as loading: that drawing can be long (see loadFile).
    const request = api.request('diff:files', { sessionId, ...scopeOf(sessionId), ...(options.fresh ? { fresh: true } : {}) });
    listing.set(sessionId, request);
    set((state) => ({
      diffs: {
        ...state.diffs,
        [sessionId]: {
          files: state.diffs[sessionId]?.files ?? [],
          status: state.diffs[sessionId]?.status === 'ready' ? 'ready' : 'loading',
        },
      },
    }));
    let files: FileChange[];
    try {
      files = await request;
    } catch (error) {
      set((state) => ({
        diffs: {
          ...state.diffs,
          [sessionId]: { files: state.diffs[sessionId]?.files ?? [], status: 'error', error: errorMessage(error) },
        },
      }));
      return;
    } finally {
      if (listing.get(sessionId) === request) listing.delete(sessionId);
    }
    if (!get().sessions[sessionId] && !get().logs[sessionId]) return; // deleted meanwhile
    const showList = () => set((state) => ({ diffs: { ...state.diffs, [sessionId]: { files, status: 'ready' } } }));
    if (get().selectedSessionId !== sessionId) return showList();
    const picked = get().diffPath[sessionId];
    const inList = (path: string | undefined) => path !== undefined && files.some((file) => file.path === path);
    const linked = askedAhead?.sessionId === sessionId ? askedAhead.path : undefined;
    const path = inList(linked) ? linked : inList(picked) ? picked : files[0]?.path;
    if (path === undefined) {
      showList();
      if (get().fileDiff?.sessionId === sessionId) set({ fileDiff: null });
      return;
    }
    // The file is asked for before the list is drawn (drawing it may make the diff editor).
    const file = loadFile(sessionId, path);
    showList();
    if (path !== picked) set((state) => ({ diffPath: { ...state.diffPath, [sessionId]: path } }));
    await file;
  }

  return {
    diffs: {},
    diffPath: {},
    fileDiff: null,
    diffScope: {},
    reviewPending: {},
    reviewNotice: {},
    lastRevert: {},
    lastAccept: {},
    worktreeSettings: {},
    diffReveal: null,
    workspaceFile: null,

    async setDiffScope(sessionId, scope) {
      set((state) => ({ diffScope: { ...state.diffScope, [sessionId]: scope } }));
      await get().refreshDiff(sessionId);
    },

    revertHunk(sessionId, path, index, hunk) {
      return review(sessionId, 'Reverting…', async () =>
        reverted(
          sessionId,
          await api.request('diff:revert', { sessionId, path, ...scopeOf(sessionId), hunk: { index, fingerprint: hunk.fingerprint } }),
        ),
      );
    },

    revertFile(sessionId, path) {
      return review(sessionId, 'Reverting…', async () =>
        reverted(sessionId, await api.request('diff:revert', { sessionId, path, ...scopeOf(sessionId) })),
      );
    },

    undoRevert(sessionId) {
      const last = get().lastRevert[sessionId];
      if (!last) return Promise.resolve();
      return review(sessionId, 'Undoing the revert…', async () => {
        const undone = await api.request('diff:undoRevert', { sessionId, undoId: last.undoId });
        return `Undid the revert of ${undone.note}.`;
      });
    },

    acceptChanges(sessionId) {
      return review(sessionId, 'Accepting…', async () =>
        accepted(sessionId, await api.request('diff:accept', { sessionId, ...scopeOf(sessionId) })),
      );
    },

    acceptFile(sessionId, path) {
      return review(sessionId, 'Accepting…', async () =>
        accepted(sessionId, await api.request('diff:accept', { sessionId, path, ...scopeOf(sessionId) })),
      );
    },

    undoAccept(sessionId) {
      const last = get().lastAccept[sessionId];
      if (!last) return Promise.resolve();
      return review(sessionId, 'Undoing the accept…', async () => {
        const undone = await api.request('diff:undoAccept', { sessionId, acceptSeq: last.acceptSeq });
        return `Undid the accept of ${undone.note}: back in the list.`;
      });
    },

    dismissReviewNotice(sessionId) {
      set((state) => ({
        reviewNotice: without(state.reviewNotice, sessionId),
        lastRevert: without(state.lastRevert, sessionId),
        lastAccept: without(state.lastAccept, sessionId),
      }));
    },

    async loadWorktreeSetting(projectId) {
      try {
        const setting = await api.request('worktree:setting', { projectId });
        set((state) => ({ worktreeSettings: { ...state.worktreeSettings, [projectId]: setting } }));
      } catch (error) {
        get().notify(`Could not read the worktree setting: ${errorMessage(error)}`);
      }
    },

    async setWorktreeSetting(projectId, enabled) {
      try {
        const setting = await api.request('worktree:configure', { projectId, enabled });
        set((state) => ({ worktreeSettings: { ...state.worktreeSettings, [projectId]: setting } }));
      } catch (error) {
        get().notify(errorMessage(error));
      }
    },

    finishWorktree(sessionId, action, message) {
      const label = action === 'merge' ? 'Merging…' : action === 'squash' ? 'Squashing…' : 'Discarding…';
      return review(sessionId, label, async () => {
        const done = await api.request('worktree:finish', { sessionId, action, ...(message ? { message } : {}) });
        const commit = done.commit ? ` as ${done.commit.slice(0, 10)}` : '';
        if (action === 'discard') return 'Discarded the worktree and its branch.';
        return `${action === 'merge' ? 'Merged' : 'Squashed'} into ${done.into ?? 'the current branch'}${commit}; the worktree and its branch are removed.`;
      });
    },

    moveToWorktree(sessionId) {
      return review(sessionId, 'Moving to a worktree…', async () => {
        const moved = await api.request('worktree:move', { sessionId });
        const carried =
          moved.carried.length === 0
            ? 'it had no changes to carry'
            : `with its changes to ${moved.carried.length === 1 ? moved.carried[0] : `${moved.carried.length} files`}`;
        const left =
          moved.leftBehind.length > 0
            ? ` ${moved.leftBehind.join(', ')} changed meanwhile, so this session’s change is still in the shared folder too.`
            : '';
        return `This session now works in its own worktree on ${moved.branch}, ${carried}.${left}`;
      });
    },

    refreshDiff: listChanges,

    scheduleDiffRefresh(sessionId) {
      // Something changed the files: the undo's offer ends (main would refuse it if the reverted file was touched).
      if (get().lastRevert[sessionId]) set((state) => ({ lastRevert: without(state.lastRevert, sessionId) }));
      // Other sessions refresh when they are selected.
      if (get().selectedSessionId !== sessionId) return;
      const timer = timers.get(sessionId);
      if (timer !== undefined) clearTimeout(timer);
      timers.set(
        sessionId,
        setTimeout(() => {
          timers.delete(sessionId);
          void get().refreshDiff(sessionId);
        }, deps.diffDebounceMs),
      );
    },

    async selectDiffFile(sessionId, path) {
      if (get().workspaceFile?.sessionId === sessionId) get().closeWorkspaceFile(sessionId);
      set((state) => ({ diffPath: { ...state.diffPath, [sessionId]: path } }));
      await loadFile(sessionId, path);
    },

    revealInDiff(sessionId, place) {
      set({ diffReveal: { sessionId, ...place, key: Date.now() } });
    },

    async openWorkspaceFile(sessionId, place) {
      const changed = () => get().diffs[sessionId]?.files.some((file) => file.path === place.path) ?? false;
      const loadsBefore = fileRequest;
      const showsThere = () =>
        set((state) => ({
          reviewNotice: without(state.reviewNotice, sessionId),
          lastRevert: without(state.lastRevert, sessionId),
          lastAccept: without(state.lastAccept, sessionId),
          workspaceFile: state.workspaceFile?.sessionId === sessionId ? null : state.workspaceFile,
          diffReveal: place.line !== undefined ? { sessionId, ...place, line: place.line, key: Date.now() } : state.diffReveal,
        }));
      const link = ++linkRequest;
      const stillWanted = () => link === linkRequest && get().selectedSessionId === sessionId;
      // Every request goes out before the column is drawn: drawing it (the diff editor, the first
      // time) holds the page's main thread, and the host can answer meanwhile.
      // The person asked to see it: a review column folded (by them, or by default) opens.
      const showColumn = () => {
        if (!selectReviewShown(get(), sessionId)) get().setLayout({ reviewCollapsed: false });
      };
      const listed = get().diffs[sessionId]?.status === 'ready';
      if (listed && changed()) {
        showsThere();
        const opening = get().selectDiffFile(sessionId, place.path);
        showColumn();
        return opening;
      }
      if (!listed || timers.has(sessionId) || listing.has(sessionId)) askAhead(sessionId, place.path);
      // The list is read a moment after each step that changed files: one clicked meanwhile would
      // call a file changed just now unchanged. Then the list is read first (or its reading awaited).
      const refreshDue = timers.has(sessionId);
      const reading = refreshDue || (!listed && !listing.has(sessionId)) ? listChanges(sessionId) : null;
      showColumn();
      if (reading) await reading;
      else if (!changed() && listing.has(sessionId)) await listing.get(sessionId)!.catch(() => undefined);
      if (askedAhead?.sessionId === sessionId && askedAhead.path === place.path) askedAhead = null;
      // Another link clicked meanwhile, or another session opened: that one is what the person wants now.
      if (!stillWanted()) return;
      if (!changed()) {
        await readWorkspaceFile(sessionId, place, false);
        return;
      }
      showsThere();
      // Read with the list just now: the file is open (or on its way) already.
      const open = get().fileDiff;
      if (fileRequest > loadsBefore && open?.sessionId === sessionId && open.path === place.path) return;
      await get().selectDiffFile(sessionId, place.path);
    },

    async confirmWorkspaceFile(sessionId) {
      const open = get().workspaceFile;
      if (open?.sessionId !== sessionId || open.status !== 'asks') return;
      const { path, line, column } = open;
      await readWorkspaceFile(
        sessionId,
        { path, ...(line !== undefined ? { line } : {}), ...(column !== undefined ? { column } : {}) },
        true,
      );
    },

    closeWorkspaceFile(sessionId) {
      if (get().workspaceFile?.sessionId === sessionId) {
        workspaceRequest++;
        set({ workspaceFile: null });
      }
    },
  };
}
