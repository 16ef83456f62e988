-- Makes appending an event cheap enough for one transaction per event (see bench/eventAppend).
--
-- 1. A CHECK written `x IN ('a', 'b', 'c')` (more than two constants) makes SQLite build a
--    temporary b-tree of the list every time a statement writes that column: a page cache
--    allocated and freed per statement, which cost about half the CPU of an append. The same
--    constraints are written here as `x = 'a' OR x = 'b' OR ...`, which compiles to comparisons
--    and means exactly the same (a NULL still passes).
-- 2. sessions.last_seq goes: the next seq is read from the events key inside the write
--    transaction, so the session row is written only when something on it changes (status,
--    token totals, title), not on every event. Listings read the last seq and the time of the
--    last event from the log; updated_at is now when the row itself last changed.
--
-- A CHECK cannot be altered in place, so the three tables are rebuilt the way SQLite documents
-- (https://sqlite.org/lang_altertable.html#otheralter): db.ts runs migrations with foreign keys
-- off, so dropping the old tables cascades to nothing, and checks them before committing.
-- Every column but last_seq keeps its data; rowids are kept, since approvals are listed by it.

-- The delete trigger reads sessions, which does not exist between the DROP and the RENAME.
DROP TRIGGER events_append_only_delete;

CREATE TABLE new_sessions (
  id                  TEXT PRIMARY KEY,
  project_id          TEXT REFERENCES projects (id) ON DELETE SET NULL,
  title               TEXT NOT NULL DEFAULT '',
  workspace           TEXT NOT NULL,
  model               TEXT NOT NULL,
  api                 TEXT NOT NULL CHECK (api IN ('responses', 'chat')),
  base_url            TEXT NOT NULL,
  status              TEXT NOT NULL DEFAULT 'new'
                      CHECK (status = 'new' OR status = 'working' OR status = 'waiting' OR status = 'done'
                             OR status = 'max_steps' OR status = 'failed' OR status = 'aborted'),
  max_steps           INTEGER NOT NULL CHECK (max_steps > 0),
  created_at          INTEGER NOT NULL,
  -- When the row itself last changed (created, renamed, status set by hand); an event does not
  -- touch it, so "updated" for a person is the later of this and the session's last event.
  updated_at          INTEGER NOT NULL,
  input_tokens        INTEGER NOT NULL DEFAULT 0,
  output_tokens       INTEGER NOT NULL DEFAULT 0,
  cached_input_tokens INTEGER NOT NULL DEFAULT 0,
  reasoning_tokens    INTEGER NOT NULL DEFAULT 0
) STRICT;

INSERT INTO new_sessions (rowid, id, project_id, title, workspace, model, api, base_url, status, max_steps,
                          created_at, updated_at, input_tokens, output_tokens, cached_input_tokens, reasoning_tokens)
SELECT rowid, id, project_id, title, workspace, model, api, base_url, status, max_steps,
       created_at, updated_at, input_tokens, output_tokens, cached_input_tokens, reasoning_tokens
FROM sessions;

DROP TABLE sessions;
ALTER TABLE new_sessions RENAME TO sessions;
CREATE INDEX sessions_by_project ON sessions (project_id);
CREATE INDEX sessions_by_creation ON sessions (created_at);

CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events
WHEN EXISTS (SELECT 1 FROM sessions WHERE id = OLD.session_id)
BEGIN
  SELECT RAISE(ABORT, 'events are append-only: delete the session to drop its log');
END;

CREATE TABLE new_tool_calls (
  session_id   TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  call_id      TEXT NOT NULL,
  name         TEXT NOT NULL,
  status       TEXT NOT NULL CHECK (status IN ('started', 'finished')),
  outcome      TEXT CHECK (outcome = 'ok' OR outcome = 'error' OR outcome = 'denied' OR outcome = 'unknown' OR outcome = 'aborted'),
  started_seq  INTEGER,
  finished_seq INTEGER,
  started_at   INTEGER,
  finished_at  INTEGER,
  PRIMARY KEY (session_id, call_id),
  CHECK ((status = 'finished') = (outcome IS NOT NULL AND finished_seq IS NOT NULL)),
  CHECK ((started_seq IS NULL) = (started_at IS NULL))
) STRICT, WITHOUT ROWID;

INSERT INTO new_tool_calls SELECT session_id, call_id, name, status, outcome, started_seq, finished_seq, started_at, finished_at FROM tool_calls;
DROP TABLE tool_calls;
ALTER TABLE new_tool_calls RENAME TO tool_calls;

CREATE TABLE new_approvals (
  id          TEXT PRIMARY KEY,
  session_id  TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  call_id     TEXT NOT NULL,
  tool        TEXT NOT NULL,
  request     TEXT NOT NULL,
  decision    TEXT CHECK (decision IN ('allow', 'deny')),
  scope       TEXT CHECK (scope = 'once' OR scope = 'session' OR scope = 'project' OR scope = 'everywhere'),
  message     TEXT,
  answered_by TEXT CHECK (answered_by = 'person' OR answered_by = 'headless' OR answered_by = 'policy'),
  rule_id     TEXT REFERENCES rules (id) ON DELETE SET NULL,
  asked_at    INTEGER NOT NULL,
  answered_at INTEGER,
  expired_at  INTEGER,
  CHECK ((decision IS NULL) = (answered_at IS NULL))
) STRICT;

INSERT INTO new_approvals (rowid, id, session_id, call_id, tool, request, decision, scope, message, answered_by,
                           rule_id, asked_at, answered_at, expired_at)
SELECT rowid, id, session_id, call_id, tool, request, decision, scope, message, answered_by,
       rule_id, asked_at, answered_at, expired_at
FROM approvals;

DROP TABLE approvals;
ALTER TABLE new_approvals RENAME TO approvals;
CREATE INDEX approvals_by_session ON approvals (session_id);
CREATE INDEX approvals_pending ON approvals (asked_at) WHERE decision IS NULL AND expired_at IS NULL;
