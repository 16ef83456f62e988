import type { ConversationItem } from './conversation';
import { itemCount, type ConversationState } from './conversationState';
import type { EventOf, RewindRestore, RewindWarning } from './events';
import type { PlanStep } from './plan';

/**
 * Checkpoints and rewinds, as the fold (session.ts) keeps them: the steps a person can rewind to,
 * what each rewind took out of the conversation the model sees, and how to put it back. The log
 * keeps every event; a conversation rewind only changes what the fold holds as `items` (and what
 * belongs to a place in them: the plan, compactions, reverts, instruction notes, the context meter).
 *
 * The fold is given an event's seq as the state's `lastSeq + 1`: a session's seqs are contiguous
 * (the store numbers them so, and every fold takes them in order without gaps).
 */

/** What belongs to one place in the conversation, put back by a conversation rewind to it. */
export interface ConversationMark {
  /** How many conversation items there were. */
  items: number;
  plan: PlanStep[];
  compactions: ConversationState['compactions'];
  reverts: ConversationState['reverts'];
  instructionNotes: ConversationState['instructions']['notes'];
  context: ConversationState['context'];
}

/** A step the person can rewind to: right after one of their messages, or after a checkpointed tool call. */
export interface RewindPoint {
  /** The seq of the user.messaged or checkpoint.created event. */
  seq: number;
  kind: 'message' | 'checkpoint';
  /** The tool call a checkpoint followed. */
  callId?: string;
  /** The files at this step; absent when no checkpoint recorded them (the files cannot be rewound). */
  commit?: string;
  /** Why the files of a step that had a checkpoint can no longer be rewound to (the session moved since). */
  filesUnavailable?: string;
  mark: ConversationMark;
}

/** A checkpoint as the log recorded it (or its failure). */
export interface CheckpointView {
  seq: number;
  callId: string | null;
  commit?: string;
  changed?: boolean;
  skipped?: number;
  /** Why no checkpoint was taken. */
  error?: string;
}

/** A rewind, or the undoing of one, where it sits in the conversation and what it took out. */
export interface RewindView {
  seq: number;
  kind: 'rewind' | 'undo';
  /** The step rewound to; for an undo, the seq of the rewind it undid. */
  toSeq: number;
  restore: RewindRestore;
  warnings: RewindWarning[];
  /** Files it changed. */
  files: string[];
  beforeCommit?: string;
  /** Where its marker sits: the number of conversation items right after it. */
  atItem: number;
  /** Conversation items it took out of what the model sees (shown greyed, never sent again). */
  dropped: ConversationItem[];
  /** A snapshot's `dropped` holds only the first of them: how many more the log has. */
  droppedMore?: number;
  /** For a rewind: the seq of the undo that reverted it. */
  undoneBy?: number;
  /** A later rewind or undo took the conversation back past this marker: it is no longer drawn. */
  hidden: boolean;
  /** The conversation just before it, for undoing it: from item `itemsFrom` on (0 when absent), as the state held it. */
  before: { items: ConversationItem[]; itemsFrom?: number; mark: ConversationMark; points: RewindPoint[] };
}

/** The part of the session's state this file owns. */
export interface RewindState {
  checkpoints: CheckpointView[];
  /** Steps that can be rewound to, in log order; steps a conversation rewind took out are not among them. */
  rewindPoints: RewindPoint[];
  rewinds: RewindView[];
  /** The files as last recorded (a checkpoint or a rewind), and the seq that recorded them. */
  filesCommit?: string;
  filesAtSeq: number;
}

export const initialRewindState: RewindState = { checkpoints: [], rewindPoints: [], rewinds: [], filesAtSeq: 0 };

/** What the functions below read and change: the conversation and the rewinds (SessionState holds both). */
type RewindableState = ConversationState & RewindState;

/** The rewind an "Undo rewind" would revert: the latest, when nothing was rewound or undone after it. */
export function undoableRewind(state: Pick<RewindState, 'rewinds'>): RewindView | undefined {
  const last = state.rewinds[state.rewinds.length - 1];
  return last && last.kind === 'rewind' && last.undoneBy === undefined ? last : undefined;
}

/** Whether a rewind changes the workspace's files / the conversation. */
export function restoresFiles(restore: RewindRestore): boolean {
  return restore !== 'conversation';
}
export function restoresConversation(restore: RewindRestore): boolean {
  return restore !== 'files';
}

function markOf(state: RewindableState): ConversationMark {
  return {
    items: itemCount(state),
    plan: state.plan,
    compactions: state.compactions,
    reverts: state.reverts,
    instructionNotes: state.instructions.notes,
    context: state.context,
  };
}

function putBack(state: RewindableState, mark: ConversationMark, items: ConversationItem[], itemsFrom: number): void {
  state.items = items;
  state.itemsFrom = itemsFrom;
  state.plan = mark.plan;
  state.compactions = mark.compactions;
  state.reverts = mark.reverts;
  state.instructions = { ...state.instructions, notes: mark.instructionNotes };
  // The window is the model's; what filled it is the conversation's.
  state.context = { ...mark.context, compacting: false, ...(state.context.window !== undefined ? { window: state.context.window } : {}) };
}

/** After the person's message was added to the items. */
export function addMessagePoint(state: RewindableState, seq: number): void {
  state.rewindPoints = [
    ...state.rewindPoints,
    { seq, kind: 'message', ...(state.filesCommit ? { commit: state.filesCommit } : {}), mark: markOf(state) },
  ];
}

export function applyCheckpointCreated(state: RewindableState, event: EventOf<'checkpoint.created'>, seq: number): void {
  state.checkpoints = [
    ...state.checkpoints,
    { seq, callId: event.callId, commit: event.commit, changed: event.changed, skipped: event.skipped },
  ];
  if (event.callId !== null) {
    state.rewindPoints = [
      ...state.rewindPoints,
      { seq, kind: 'checkpoint', callId: event.callId, commit: event.commit, mark: markOf(state) },
    ];
  } else {
    // A run starts right after the person's message: the files it finds are the files "at" that message
    // (including edits the person made by hand since the last checkpoint).
    const points = [...state.rewindPoints];
    for (let index = points.length - 1; index >= 0; index--) {
      const point = points[index]!;
      if (point.kind !== 'message' || point.seq <= state.filesAtSeq) break;
      points[index] = { ...point, commit: event.commit };
    }
    state.rewindPoints = points;
  }
  state.filesCommit = event.commit;
  state.filesAtSeq = seq;
}

export function applyCheckpointFailed(state: RewindableState, event: EventOf<'checkpoint.failed'>, seq: number): void {
  state.checkpoints = [...state.checkpoints, { seq, callId: event.callId, error: event.reason }];
  if (event.callId !== null) {
    // The step can still be rewound in the conversation; its files cannot.
    state.rewindPoints = [...state.rewindPoints, { seq, kind: 'checkpoint', callId: event.callId, mark: markOf(state) }];
  }
  // What the files are now is unknown: a later message must not claim an older checkpoint as its files.
  state.filesCommit = undefined;
  state.filesAtSeq = seq;
}

/**
 * The conversation as it is now, for undoing what comes next. A copy: a fold changes the items it
 * owns in place (session.ts's Draft), and a rewind that leaves the conversation as it is would see
 * what comes after it pushed into its own record of what came before.
 */
function beforeOf(state: RewindableState): RewindView['before'] {
  return {
    items: [...state.items],
    ...(state.itemsFrom > 0 ? { itemsFrom: state.itemsFrom } : {}),
    mark: markOf(state),
    points: state.rewindPoints,
  };
}

export function applyRewound(state: RewindableState, event: EventOf<'session.rewound'>, seq: number): void {
  const before = beforeOf(state);
  const point = state.rewindPoints.find((candidate) => candidate.seq === event.toSeq);
  let dropped: ConversationItem[] = [];
  let rewinds = state.rewinds;
  if (restoresConversation(event.restore) && point) {
    // Counted in the whole conversation; a state holding only its latest items keeps what it has before `kept`.
    const kept = point.mark.items;
    const keptHere = Math.max(0, kept - state.itemsFrom);
    dropped = state.items.slice(keptHere);
    putBack(state, point.mark, state.items.slice(0, keptHere), Math.min(state.itemsFrom, kept));
    state.rewindPoints = state.rewindPoints.filter((candidate) => candidate.seq <= event.toSeq);
    rewinds = rewinds.map((rewind) => (!rewind.hidden && rewind.atItem > kept ? { ...rewind, hidden: true } : rewind));
  }
  if (restoresFiles(event.restore) && event.restoredCommit) {
    state.filesCommit = event.restoredCommit;
    state.filesAtSeq = seq;
  }
  state.rewinds = [
    ...rewinds,
    {
      seq,
      kind: 'rewind',
      toSeq: event.toSeq,
      restore: event.restore,
      warnings: event.warnings,
      files: event.files,
      ...(event.beforeCommit ? { beforeCommit: event.beforeCommit } : {}),
      atItem: itemCount(state),
      dropped,
      hidden: false,
      before,
    },
  ];
}

export function applyRewindUndone(state: RewindableState, event: EventOf<'session.rewind_undone'>, seq: number): void {
  const target = state.rewinds.find((rewind) => rewind.seq === event.rewindSeq && rewind.kind === 'rewind');
  if (!target) return;
  const before = beforeOf(state);
  let dropped: ConversationItem[] = [];
  if (restoresConversation(target.restore)) {
    // What came after the rewind (its own branch) leaves what the model sees, as the rewind's part comes back.
    dropped = state.items.slice(Math.max(0, target.atItem - state.itemsFrom));
    putBack(state, target.before.mark, [...target.before.items], target.before.itemsFrom ?? 0);
    state.rewindPoints = target.before.points;
  }
  if (restoresFiles(target.restore) && target.beforeCommit) {
    state.filesCommit = target.beforeCommit;
    state.filesAtSeq = seq;
  }
  state.rewinds = [
    ...state.rewinds.map((rewind) =>
      rewind === target ? { ...rewind, undoneBy: seq, hidden: true } : rewind.seq > target.seq ? { ...rewind, hidden: true } : rewind,
    ),
    {
      seq,
      kind: 'undo',
      toSeq: target.seq,
      restore: target.restore,
      warnings: event.warnings,
      files: event.files,
      ...(event.beforeCommit ? { beforeCommit: event.beforeCommit } : {}),
      atItem: itemCount(state),
      dropped,
      hidden: false,
      before,
    },
  ];
}
