import type { DiffScope } from '../../shared/contract';
import type { SessionEventType, StoredEvent } from '../../shared/events';

/** A change the session made to its folder: the snapshots just before and just after it. */
export interface OwnStep {
  before: string;
  after: string;
  /**
   * Files whose change in this step the person accepted since, one file at a time: for them the
   * step counts as someone else's (the accepted text is the new base), for the rest as the session's.
   */
  accepted?: ReadonlySet<string>;
}

/** The log events `ownSteps` reads; the live diff asks the store for these only. */
export const OWN_STEP_EVENTS: SessionEventType[] = [
  'user.messaged',
  'checkpoint.created',
  'changes.reverted',
  'changes.revert_undone',
  'changes.accepted',
  'changes.accept_undone',
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
 * `turn`, those since the person's latest message (or a later accept of either scope). An accept of
 * one file leaves the steps before it counted for every other file; an accept the person undid
 * counts for nothing.
 *
 * A checkpoint logged before `before` was recorded falls back to the session's previous snapshot,
 * which may include others' changes made in between: only logs older than this rule see that.
 */
export function ownSteps(events: readonly StoredEvent[], scope: DiffScope, start: string | null = null): OwnStep[] {
  const accepts = standingAccepts(events, scope);
  const cutoff = Math.max(
    0,
    ...accepts.filter((accept) => !accept.paths).map((accept) => accept.seq),
    scope === 'turn' ? lastMessage(events) : 0,
  );
  const fileAccepts = accepts.filter((accept): accept is StandingAccept & { paths: string[] } => accept.paths !== undefined);
  const steps: OwnStep[] = [];
  const rewoundFrom = new Map<number, string>();
  let previous = start;
  const add = (seq: number, before: string | null | undefined, after: string) => {
    if (seq > cutoff && before && before !== after) {
      const accepted = new Set(fileAccepts.filter((accept) => accept.seq > seq).flatMap((accept) => accept.paths));
      steps.push(accepted.size > 0 ? { before, after, accepted } : { before, after });
    }
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

interface StandingAccept {
  seq: number;
  paths?: string[];
}

/** The accepts that count for `scope` (an accept of the session counts for the turn too), less those undone. */
function standingAccepts(events: readonly StoredEvent[], scope: DiffScope): StandingAccept[] {
  const undone = new Set<number>();
  for (const { event } of events) if (event.type === 'changes.accept_undone') undone.add(event.acceptSeq);
  const accepts: StandingAccept[] = [];
  for (const { seq, event } of events) {
    if (event.type !== 'changes.accepted' || undone.has(seq)) continue;
    if (scope === 'session' && event.scope !== 'session') continue;
    accepts.push(event.paths ? { seq, paths: event.paths } : { seq });
  }
  return accepts;
}

function lastMessage(events: readonly StoredEvent[]): number {
  let message = 0;
  for (const { seq, event } of events) if (event.type === 'user.messaged') message = seq;
  return message;
}
