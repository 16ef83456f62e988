-- The log becomes one b-tree, and sessions learn about cost and a third API.
--
-- 1. events was a rowid table with a separate (session_id, seq) primary-key index: every append
--    wrote two b-trees, so at least two WAL pages per event. Now the row's own integer key is the
--    session's number and the event's seq, `(num << 32) + seq`: the rows of one session lie in one
--    key range, in order, and an append writes one leaf page (bench/eventAppend: a bare insert goes
--    from ~22k to ~33k transactions per CPU second on this machine). session_id and seq stay as
--    plain columns for people reading the file; nothing indexes them.
-- 2. sessions gets that number (`num`, its integer primary key; the text id stays unique, and every
--    foreign key still names it), `cost_usd` (NULL until a priced response, and for models with no
--    known price), and the 'anthropic' API.
--
-- Rebuilt as SQLite documents (https://sqlite.org/lang_altertable.html#otheralter), with foreign
-- keys off while it runs (db.ts) and foreign_key_check before it commits. Sessions are numbered in
-- their old rowid order; every event keeps its seq, time and payload byte for byte.

DROP TRIGGER events_append_only_update;
DROP TRIGGER events_append_only_delete;

CREATE TABLE new_sessions (
  -- The high half of the session's event keys.
  num                 INTEGER PRIMARY KEY,
  id                  TEXT NOT NULL UNIQUE,
  project_id          TEXT REFERENCES projects (id) ON DELETE SET NULL,
  title               TEXT NOT NULL DEFAULT '',
  workspace           TEXT NOT NULL,
  model               TEXT NOT NULL,
  api                 TEXT NOT NULL CHECK (api = 'responses' OR api = 'chat' OR api = 'anthropic'),
  base_url            TEXT NOT NULL,
  status              TEXT NOT NULL DEFAULT 'new'
                      CHECK (status = 'new' OR status = 'working' OR status = 'waiting' OR status = 'done'
                             OR status = 'max_steps' OR status = 'failed' OR status = 'aborted'),
  max_steps           INTEGER NOT NULL CHECK (max_steps > 0),
  created_at          INTEGER NOT NULL,
  updated_at          INTEGER NOT NULL,
  input_tokens        INTEGER NOT NULL DEFAULT 0,
  output_tokens       INTEGER NOT NULL DEFAULT 0,
  cached_input_tokens INTEGER NOT NULL DEFAULT 0,
  reasoning_tokens    INTEGER NOT NULL DEFAULT 0,
  cost_usd            REAL CHECK (cost_usd >= 0)
) STRICT;

INSERT INTO new_sessions (num, id, project_id, title, workspace, model, api, base_url, status, max_steps,
                          created_at, updated_at, input_tokens, output_tokens, cached_input_tokens, reasoning_tokens)
SELECT rowid, id, project_id, title, workspace, model, api, base_url, status, max_steps,
       created_at, updated_at, input_tokens, output_tokens, cached_input_tokens, reasoning_tokens
FROM sessions ORDER BY rowid;

CREATE TABLE new_events (
  -- (sessions.num << 32) + seq: a session's events are one key range, in order.
  key        INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL,
  seq        INTEGER NOT NULL CHECK (seq > 0 AND seq = (key & 4294967295)),
  type       TEXT NOT NULL,
  at         INTEGER NOT NULL,
  -- The whole SessionEvent as JSON, type included, so a row parses on its own.
  payload    TEXT NOT NULL
) STRICT;

INSERT INTO new_events (key, session_id, seq, type, at, payload)
SELECT (s.num << 32) + e.seq, e.session_id, e.seq, e.type, e.at, e.payload
FROM events e JOIN new_sessions s ON s.id = e.session_id
ORDER BY s.num, e.seq;

DROP TABLE events;
ALTER TABLE new_events RENAME TO events;
DROP TABLE sessions;
ALTER TABLE new_sessions RENAME TO sessions;
CREATE INDEX sessions_by_project ON sessions (project_id);
CREATE INDEX sessions_by_creation ON sessions (created_at);

-- The log is what the ledger and every replay trust, so nothing may rewrite it. Its rows go only
-- with their session: Sessions.delete removes the session row, then its key range.
CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events
BEGIN
  SELECT RAISE(ABORT, 'events are append-only: a stored event cannot be changed');
END;

CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events
WHEN EXISTS (SELECT 1 FROM sessions WHERE num = (OLD.key >> 32))
BEGIN
  SELECT RAISE(ABORT, 'events are append-only: delete the session to drop its log');
END;
