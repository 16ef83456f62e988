import type { DiffScope } from '../../shared/contract';
import type { SessionEventType, StoredEvent } from '../../shared/events';

/** A change the session made to its folder: the snapshots just before and just after it. */
export interface OwnStep {
  before: string;
  after: string;
}

/** The log events `ownSteps` reads; the live diff asks the store for these only. */
export const OWN_STEP_EVENTS: SessionEventType[] = [
  'user.messaged',
  'checkpoint.created',
  'changes.reverted',
  'changes.revert_undone',
  'changes.accepted',
  'session.rewound',
  'session.rewind_undone',
  'worktree.created',
];

/**
 * The session's own changes to its folder, in order, as its log records them: each tool call that
 * may change files (from the snapshot taken once it was allowed to the one after it ran), each
 * revert and undone revert from the live diff, each files rewind and its undoing. Whatever happened
 * between them (another session's calls, the person's editor) is not the session's.
 *
 * `scope` picks which count: `session`, those since the person last accepted the session's changes;
 * `turn`, those since the person's latest message (or a later accept of either scope).
 *
 * A checkpoint logged before `before` was recorded falls back to the session's previous snapshot,
 * which may include others' changes made in between: only logs older than this rule see that.
 */
export function ownSteps(events: readonly StoredEvent[], scope: DiffScope, start: string | null = null): OwnStep[] {
  const cutoff = scopeStart(events, scope);
  const steps: OwnStep[] = [];
  const rewoundFrom = new Map<number, string>();
  let previous = start;
  const add = (seq: number, before: string | null | undefined, after: string) => {
    if (seq > cutoff && before && before !== after) steps.push({ before, after });
    previous = after;
  };
  for (const { seq, event } of events) {
    switch (event.type) {
      case 'checkpoint.created':
        if (event.callId === null) previous = event.commit;
        else add(seq, event.before ?? previous, event.commit);
        break;
      case 'changes.reverted':
      case 'changes.revert_undone':
        if (event.snapshots) add(seq, event.snapshots.before, event.snapshots.after);
        break;
      case 'session.rewound':
        if (event.beforeCommit && event.restoredCommit) {
          rewoundFrom.set(seq, event.beforeCommit);
          add(seq, event.beforeCommit, event.restoredCommit);
        }
        break;
      case 'session.rewind_undone': {
        // Undoing puts back the files as the rewind found them.
        const back = rewoundFrom.get(event.rewindSeq);
        if (event.beforeCommit && back) add(seq, event.beforeCommit, back);
        break;
      }
      case 'worktree.created':
        // Moved into a worktree: what it did before is carried there as one change, in that folder's snapshots.
        if (event.moved) {
          steps.length = 0;
          add(seq, event.moved.before, event.moved.after);
        }
        break;
      default:
        break;
    }
  }
  return steps;
}

/** The seq after which the scope's changes count. */
function scopeStart(events: readonly StoredEvent[], scope: DiffScope): number {
  let accepted = 0;
  let acceptedAny = 0;
  let message = 0;
  for (const { seq, event } of events) {
    if (event.type === 'user.messaged') message = seq;
    if (event.type === 'changes.accepted') {
      acceptedAny = seq;
      if (event.scope === 'session') accepted = seq;
    }
  }
  return scope === 'session' ? accepted : Math.max(message, acceptedAny);
}
