-- The first schema. `events` is the truth; `tool_calls`, `approvals` and the status, totals and
-- last_seq of `sessions` are projections of it, written in the same transaction as the event that
-- caused them, so they can never disagree with the log.

CREATE TABLE projects (
  id         TEXT PRIMARY KEY,
  path       TEXT NOT NULL UNIQUE,
  name       TEXT NOT NULL,
  -- Until a person trusts the folder, its .tether/settings.json may add ask and deny rules, never allow.
  trusted    INTEGER NOT NULL DEFAULT 0 CHECK (trusted IN (0, 1)),
  created_at INTEGER NOT NULL
) STRICT;

CREATE TABLE sessions (
  id                  TEXT PRIMARY KEY,
  project_id          TEXT REFERENCES projects (id) ON DELETE SET NULL,
  title               TEXT NOT NULL DEFAULT '',
  workspace           TEXT NOT NULL,
  -- The model is pinned for the session's life: a resumed session talks to the same one.
  model               TEXT NOT NULL,
  api                 TEXT NOT NULL CHECK (api IN ('responses', 'chat')),
  base_url            TEXT NOT NULL,
  status              TEXT NOT NULL DEFAULT 'new'
                      CHECK (status IN ('new', 'working', 'waiting', 'done', 'max_steps', 'failed', 'aborted')),
  max_steps           INTEGER NOT NULL CHECK (max_steps > 0),
  created_at          INTEGER NOT NULL,
  updated_at          INTEGER NOT NULL,
  -- The next event takes last_seq + 1, read and bumped under the write lock in one statement.
  last_seq            INTEGER NOT NULL DEFAULT 0,
  input_tokens        INTEGER NOT NULL DEFAULT 0,
  output_tokens       INTEGER NOT NULL DEFAULT 0,
  cached_input_tokens INTEGER NOT NULL DEFAULT 0,
  reasoning_tokens    INTEGER NOT NULL DEFAULT 0
) STRICT;

CREATE INDEX sessions_by_project ON sessions (project_id);
CREATE INDEX sessions_by_creation ON sessions (created_at);

CREATE TABLE events (
  session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  seq        INTEGER NOT NULL CHECK (seq > 0),
  type       TEXT NOT NULL,
  at         INTEGER NOT NULL,
  -- The whole SessionEvent as JSON, type included, so a row parses on its own.
  payload    TEXT NOT NULL,
  PRIMARY KEY (session_id, seq)
) STRICT;

-- The log is what the ledger and every replay trust, so nothing may rewrite it. Its rows go only
-- with their session (the cascade runs after the session row is gone, so the trigger lets it by).
CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events
BEGIN
  SELECT RAISE(ABORT, 'events are append-only: a stored event cannot be changed');
END;

CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events
WHEN EXISTS (SELECT 1 FROM sessions WHERE id = OLD.session_id)
BEGIN
  SELECT RAISE(ABORT, 'events are append-only: delete the session to drop its log');
END;

-- The ledger: a call is written before it runs and its result after, so a restart replays stored
-- results and reports a call that started and never finished as "outcome unknown". Arguments and
-- output stay in the tool.started and tool.finished events the row points at: an output can be
-- large, and writing it twice per call cost a third of the append rate (see bench/eventAppend).
-- That keeps rows small, so they cluster on their key without a second b-tree.
CREATE TABLE tool_calls (
  session_id   TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  call_id      TEXT NOT NULL,
  name         TEXT NOT NULL,
  status       TEXT NOT NULL CHECK (status IN ('started', 'finished')),
  outcome      TEXT CHECK (outcome IN ('ok', 'error', 'denied', 'unknown', 'aborted')),
  -- NULL for a call that finished without ever starting (bad arguments, a denial).
  started_seq  INTEGER,
  finished_seq INTEGER,
  started_at   INTEGER,
  finished_at  INTEGER,
  PRIMARY KEY (session_id, call_id),
  CHECK ((status = 'finished') = (outcome IS NOT NULL AND finished_seq IS NOT NULL)),
  CHECK ((started_seq IS NULL) = (started_at IS NULL))
) STRICT, WITHOUT ROWID;

CREATE TABLE approvals (
  id          TEXT PRIMARY KEY,
  session_id  TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  call_id     TEXT NOT NULL,
  tool        TEXT NOT NULL,
  -- JSON { risk, summary, args }: exactly what the person was shown.
  request     TEXT NOT NULL,
  decision    TEXT CHECK (decision IN ('allow', 'deny')),
  scope       TEXT CHECK (scope IN ('once', 'session', 'project', 'everywhere')),
  message     TEXT,
  answered_by TEXT CHECK (answered_by IN ('person', 'headless', 'policy')),
  -- The rule "Allow always" created from this answer.
  rule_id     TEXT REFERENCES rules (id) ON DELETE SET NULL,
  asked_at    INTEGER NOT NULL,
  answered_at INTEGER,
  -- The session finished before anyone answered: the question is moot and leaves the inbox.
  expired_at  INTEGER,
  CHECK ((decision IS NULL) = (answered_at IS NULL))
) STRICT;

CREATE INDEX approvals_by_session ON approvals (session_id);
CREATE INDEX approvals_pending ON approvals (asked_at) WHERE decision IS NULL AND expired_at IS NULL;

CREATE TABLE rules (
  id                    TEXT PRIMARY KEY,
  -- tool(specifier), e.g. run_command(npm test *), edit_file(src/**), fetch_url(domain:docs.example.com)
  pattern               TEXT NOT NULL,
  action                TEXT NOT NULL CHECK (action IN ('allow', 'ask', 'deny')),
  scope                 TEXT NOT NULL CHECK (scope IN ('session', 'project', 'everywhere')),
  source                TEXT NOT NULL,
  project_id            TEXT REFERENCES projects (id) ON DELETE CASCADE,
  session_id            TEXT REFERENCES sessions (id) ON DELETE CASCADE,
  created_from_approval TEXT REFERENCES approvals (id) ON DELETE SET NULL,
  created_at            INTEGER NOT NULL,
  -- Revoked rules stay, so the approvals that made them still say what they made.
  revoked_at            INTEGER,
  CHECK (scope <> 'project' OR project_id IS NOT NULL),
  CHECK (scope <> 'session' OR session_id IS NOT NULL)
) STRICT;

CREATE INDEX rules_by_project ON rules (project_id);
CREATE INDEX rules_by_session ON rules (session_id);
