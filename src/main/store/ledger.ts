import type { ToolOutcome } from '../../shared/events';
import type { Json } from '../../shared/json';
import type { Database, Statement } from './sqlite/database';
import { eventsOf } from './eventKeys';
import { parseEvent, type EventRecord } from './parseEvent';

interface LedgerBase {
  sessionId: string;
  callId: string;
  name: string;
  /** The arguments the call ran with; null for a call that finished without starting. */
  args: Json | null;
  startedAt: number | null;
}

/** Written before the tool ran; still 'started' after a restart means the outcome is unknown. */
export interface StartedCall extends LedgerBase {
  status: 'started';
}

/** The stored result: what a retry, reconnect or restart reports instead of running the call again. */
export interface FinishedCall extends LedgerBase {
  status: 'finished';
  outcome: ToolOutcome;
  title: string;
  output: string;
  metadata: Json | null;
  durationMs: number;
  finishedAt: number;
}

export type LedgerEntry = StartedCall | FinishedCall;

/**
 * The tool-call ledger, read from the log: a call's tool.started event is its start (written before
 * it ran), its tool.finished event its result. toolCallGuard.ts keeps each call to one of each.
 */
export class Ledger {
  private readonly selectCall: Statement<[{ sessionId: string; callId: string }], EventRecord>;
  private readonly selectCalls: Statement<[{ sessionId: string }], EventRecord>;

  constructor(private readonly db: Database) {
    const toolEvents = `SELECT e.seq, e.type, e.at, e.payload FROM sessions s JOIN events e ON ${eventsOf('e', 's.num')}
      WHERE s.id = @sessionId AND e.type IN ('tool.started', 'tool.finished')`;
    this.selectCall = db.prepare(`${toolEvents} AND json_extract(e.payload, '$.callId') = @callId ORDER BY e.key`);
    this.selectCalls = db.prepare(`${toolEvents} ORDER BY e.key`);
  }

  get(sessionId: string, callId: string): LedgerEntry | undefined {
    return this.entries(sessionId, this.selectCall.all({ sessionId, callId }))[0];
  }

  /** Calls that started and never finished, oldest first: after a crash, their outcome is unknown. */
  unfinished(sessionId: string): StartedCall[] {
    return this.entries(sessionId, this.selectCalls.all({ sessionId })).filter((entry): entry is StartedCall => entry.status === 'started');
  }

  /** Pairs each call's start with its result, in the order the calls first appear in the log. */
  private entries(sessionId: string, records: EventRecord[]): LedgerEntry[] {
    const calls = new Map<string, LedgerEntry>();
    for (const record of records) {
      const event = parseEvent(this.db.file, sessionId, record);
      if (event.type === 'tool.started') {
        calls.set(event.callId, {
          sessionId,
          callId: event.callId,
          name: event.name,
          args: event.args,
          startedAt: record.at,
          status: 'started',
        });
      } else if (event.type === 'tool.finished') {
        const started = calls.get(event.callId);
        calls.set(event.callId, {
          sessionId,
          callId: event.callId,
          name: event.name,
          args: started?.args ?? null,
          startedAt: started?.startedAt ?? null,
          status: 'finished',
          outcome: event.outcome,
          title: event.title,
          output: event.output,
          metadata: event.metadata ?? null,
          durationMs: event.durationMs,
          finishedAt: record.at,
        });
      }
    }
    return [...calls.values()];
  }
}
