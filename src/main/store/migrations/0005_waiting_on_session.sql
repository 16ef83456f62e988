-- The approvals a session waits on are kept on its row; `approvals` keeps the settled ones.
--
-- Every approval.asked used to insert a row into `approvals` (the table and three indexes: its id,
-- its session, the pending ones) and every answer rewrote it: six b-tree pages per question and
-- answer on top of the session row, which both already write for the status change. The request
-- is in the asking event and the answer in the answering one, so what is waiting needs no more
-- than the asking event's place in the log:
--
-- 1. sessions.waiting lists the session's unanswered approvals, in the order they were asked, as
--    JSON [{"id", "callId", "seq"}] (seq: the approval.asked event). It is written with the status
--    the same events already write, so asking costs no page of its own. The inbox reads it from
--    the rows that have any (approvals.ts).
-- 2. approvals holds an approval once it is settled: answered (one row inserted with the answer,
--    its request copied from the asking event) or expired (its session finished first). Keyed by
--    its id, WITHOUT ROWID: one b-tree, no index to keep up. Rules still point at it.
--
-- A pending row whose approval.asked is not in its session's log cannot have come from Tether (a
-- row was only ever inserted with its event, in the same transaction); it has nothing for the
-- session row to point at, so it is settled as expired now, with its request kept.
--
-- bench/eventAppend.bench.ts: about a fifth of the pages an append wrote.
--
-- And a repair: an "Allow always" for the project or everywhere was stored with the session it was
-- given in, and rules go with their session (ON DELETE CASCADE), so deleting that session took
-- the person's grant with it. Only a session-scoped rule belongs to a session.

ALTER TABLE sessions ADD COLUMN waiting TEXT NOT NULL DEFAULT '[]';

CREATE TEMP TABLE waiting_now AS
SELECT a.id, a.session_id, a.call_id, e.seq, e.key
FROM approvals a
JOIN sessions s ON s.id = a.session_id
JOIN events e ON e.key > (s.num << 32) AND e.key <= (s.num << 32) + 4294967295
  AND e.type = 'approval.asked' AND json_extract(e.payload, '$.approvalId') = a.id
WHERE a.decision IS NULL AND a.expired_at IS NULL;

UPDATE sessions SET waiting = (
  SELECT json_group_array(json_object('id', w.id, 'callId', w.call_id, 'seq', w.seq) ORDER BY w.key)
  FROM temp.waiting_now w WHERE w.session_id = sessions.id
)
WHERE id IN (SELECT session_id FROM temp.waiting_now);

-- A session resumed while a question waited (after a restart) was set to working, though its run
-- went on waiting for the answer; with the rule the log's fold now follows, it is waiting. A status
-- set by hand to an end stays.
UPDATE sessions SET status = 'waiting' WHERE waiting <> '[]' AND status = 'working';

-- A rule is made from an answer, so none points at a waiting approval; were one to (written by
-- hand), it would lose the link rather than fail the migration.
UPDATE rules SET created_from_approval = NULL WHERE created_from_approval IN (SELECT id FROM temp.waiting_now);

UPDATE approvals SET expired_at = CAST(unixepoch('subsec') * 1000 AS INTEGER)
WHERE decision IS NULL AND expired_at IS NULL AND id NOT IN (SELECT id FROM temp.waiting_now);

CREATE TABLE new_approvals (
  id          TEXT PRIMARY KEY,
  session_id  TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  call_id     TEXT NOT NULL,
  tool        TEXT NOT NULL,
  -- JSON { risk, summary, args }: exactly what the person was shown (a copy of the asking event's).
  request     TEXT NOT NULL,
  decision    TEXT CHECK (decision = 'allow' OR decision = 'deny'),
  scope       TEXT CHECK (scope = 'once' OR scope = 'session' OR scope = 'project' OR scope = 'everywhere'),
  message     TEXT,
  answered_by TEXT CHECK (answered_by = 'person' OR answered_by = 'headless' OR answered_by = 'policy'),
  rule_id     TEXT REFERENCES rules (id) ON DELETE SET NULL,
  asked_at    INTEGER NOT NULL,
  answered_at INTEGER,
  expired_at  INTEGER,
  CHECK ((decision IS NULL) = (answered_at IS NULL)),
  -- Settled: answered, or expired unanswered.
  CHECK ((decision IS NULL) <> (expired_at IS NULL))
) STRICT, WITHOUT ROWID;

INSERT INTO new_approvals (id, session_id, call_id, tool, request, decision, scope, message, answered_by,
                           rule_id, asked_at, answered_at, expired_at)
SELECT id, session_id, call_id, tool, request, decision, scope, message, answered_by,
       rule_id, asked_at, answered_at, expired_at
FROM approvals
WHERE id NOT IN (SELECT id FROM temp.waiting_now);

DROP TABLE temp.waiting_now;
DROP TABLE approvals;
ALTER TABLE new_approvals RENAME TO approvals;

UPDATE rules SET session_id = NULL WHERE scope <> 'session';
