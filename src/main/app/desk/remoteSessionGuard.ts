import type { Handlers, RequestName } from '../../../shared/contract';
import { RequestError } from '../../../shared/requestError';
import type { Store } from '../../store/store';
import type { Desk } from './desk';

/**
 * What the contract's requests may do with a remote run's mirror. It runs on another machine: here
 * it is shown and answered, and nothing may run it, revert its files or rewind it, since its folder
 * is not on this machine (the same path here could be anyone's). Every request naming a session is in
 * exactly one list below (test/desk/remoteSessionGuard.test.ts checks that a new one is placed).
 */

/** Read or show the mirror as it is (its log is a session's like any other), or name it in a notification. */
const READS: readonly RequestName[] = [
  'session:open',
  'session:page',
  'session:events',
  'session:rename',
  'audit:list',
  'notification:show',
];

/** Would act on this machine's files or start the agent here: refused for a remote run. */
const REFUSED: readonly RequestName[] = [
  'session:send',
  'session:retry',
  'session:compact',
  'session:setMode',
  'diff:file',
  'diff:revert',
  'diff:undoRevert',
  'diff:accept',
  'diff:undoAccept',
  'workspace:readFile',
  'session:sandboxTemp',
  'session:openSandboxTemp',
  'worktree:finish',
  'worktree:move',
  'session:rewindPreview',
  'session:rewind',
  'session:undoRewind',
];

/** Answered for a remote run without looking at this machine: nothing to list. */
const EMPTY: Partial<Record<RequestName, unknown>> = {
  'diff:files': [],
  'workspace:files': { files: [], truncated: false },
};

/** Done differently for a remote run: the answer goes to the run, Stop is sent to it, a connected run is not deleted. */
const ROUTED: readonly RequestName[] = ['approval:answer', 'session:stop', 'session:delete'];

/** Every request that names a session, placed: for the test. */
export const SESSION_REQUESTS = { reads: READS, refused: REFUSED, empty: Object.keys(EMPTY) as RequestName[], routed: ROUTED };

export function guardRemoteSessions(handlers: Handlers, deps: { desk: Desk; store: Store }): Handlers {
  const { desk, store } = deps;
  const guarded: Record<string, (input: never) => Promise<unknown>> = { ...handlers };
  const sessionOf = (input: unknown): string | undefined =>
    typeof input === 'object' && input !== null && typeof (input as { sessionId?: unknown }).sessionId === 'string'
      ? (input as { sessionId: string }).sessionId
      : undefined;
  for (const name of REFUSED) {
    const inner = handlers[name] as (input: unknown) => Promise<unknown>;
    guarded[name] = async (input: unknown) => {
      const sessionId = sessionOf(input);
      if (sessionId !== undefined && desk.isRemote(sessionId)) {
        const runner = desk.info(sessionId)?.runner;
        throw new RequestError(
          'invalid_input',
          `This is a remote run on runner ${runner}: it runs there, and its files are there. The desk shows it and answers its requests; it cannot ${verbOf(name)} it.`,
        );
      }
      return inner(input);
    };
  }
  for (const [name, empty] of Object.entries(EMPTY) as [RequestName, unknown][]) {
    const inner = handlers[name] as (input: unknown) => Promise<unknown>;
    guarded[name] = async (input: unknown) => {
      const sessionId = sessionOf(input);
      return sessionId !== undefined && desk.isRemote(sessionId) ? empty : inner(input);
    };
  }
  return {
    ...(guarded as Handlers),
    'approval:answer': async (answer) => {
      const stored = store.approvals.get(answer.approvalId);
      if (stored && !stored.decision && !stored.expiredAt && desk.isRemote(stored.sessionId)) return desk.answer(answer, stored);
      return handlers['approval:answer'](answer);
    },
    'approvals:pending': async (input) => desk.decorate(await handlers['approvals:pending'](input)),
    'session:stop': async (input) => (desk.isRemote(input.sessionId) ? desk.stop(input.sessionId) : handlers['session:stop'](input)),
    'session:delete': async (input) => {
      if (desk.isRemote(input.sessionId) && desk.isConnected(input.sessionId)) {
        throw new RequestError(
          'conflict',
          'This remote run is still connected to the desk; stop it, or wait until it ends, before deleting it here.',
        );
      }
      return handlers['session:delete'](input);
    },
  };
}

function verbOf(name: RequestName): string {
  const verbs: Partial<Record<RequestName, string>> = {
    'session:send': 'send it a message',
    'session:retry': 'run it again',
    'session:compact': 'compact it',
    'session:setMode': 'change its mode',
    'session:rewindPreview': 'rewind it',
    'session:rewind': 'rewind it',
    'session:undoRewind': 'undo a rewind of it',
    'worktree:finish': 'finish its worktree',
    'worktree:move': 'move it to a worktree',
    'workspace:readFile': 'open its files here',
    'session:sandboxTemp': 'show its /tmp here',
    'session:openSandboxTemp': 'open its /tmp here',
  };
  return verbs[name] ?? 'change its files';
}
