-- Two things an append wrote besides its event are now read from the log instead.
--
-- 1. The tool-call ledger is the log's own tool.started and tool.finished events. tool_calls
--    repeated what those events say (which call started, which finished, with which outcome, at
--    which seq), and writing it cost every tool event two more b-trees (the row and its
--    (session_id, call_id) key). The ledger now reads the events (ledger.ts), and "a call starts
--    once and finishes once" is checked against them inside the append (toolCallGuard.ts).
--    Nothing is lost: every row of tool_calls pointed at the events it came from.
-- 2. A session's token and cost totals were added to its row by every response, one more page
--    per model.responded. The row now holds them as of `totals_seq` and is brought up to date when
--    it is written anyway (a status change, the end of a run); readers add the responses after
--    that seq (sessionTotals.ts). The totals already in the rows are whole, so they hold as of
--    each session's last event.
--
-- bench/eventAppend.bench.ts: together these were about a third of the pages an append wrote.

DROP TABLE tool_calls;

ALTER TABLE sessions ADD COLUMN totals_seq INTEGER NOT NULL DEFAULT 0 CHECK (totals_seq >= 0);
UPDATE sessions SET totals_seq = coalesce(
  (SELECT e.seq FROM events e WHERE e.key > (sessions.num << 32) AND e.key <= (sessions.num << 32) + 4294967295 ORDER BY e.key DESC LIMIT 1),
  0);
