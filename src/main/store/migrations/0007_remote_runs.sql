-- Remote runs (issue 33): runs on other machines (`tether run --desk URL`) report to this desk.
--
-- 1. runner_tokens: a runner's token, kept as the SHA-256 of its secret only (the token is shown
--    once, when it is made). A runner is known by its name; a name has at most one live token, and
--    a revoked one stays, so a runner that presents it is told it was revoked rather than unknown.
-- 2. remote_runs: which sessions of this database are mirrors of remote runs, and of which runner.
--    A mirror is an ordinary session row (no project: its folder is on another machine) whose log
--    is the run's own, event for event and seq for seq; this row is what makes it remote, so the
--    desk never runs it, reverts it or rewinds it here. A run is found again by its runner and the
--    run id it chose when it reconnects.
-- 3. remote_answers: the person's answers to remote requests, written before they are sent, so an
--    answer survives the desk's restart and is delivered until the run says what it did with it.
--    Keyed by the desk's approval id: a request is answered once.
-- 4. runner_rules: "Allow always" for a repository on a runner. Kept here, not on the runner: every
--    run of that runner in that repository gets them when it registers, and a revoke reaches them.

CREATE TABLE runner_tokens (
  id           TEXT PRIMARY KEY,
  name         TEXT NOT NULL,
  -- hex SHA-256 of the token's secret part
  secret_hash  TEXT NOT NULL,
  created_at   INTEGER NOT NULL,
  last_used_at INTEGER,
  revoked_at   INTEGER
) STRICT;

CREATE UNIQUE INDEX runner_tokens_live_name ON runner_tokens (name) WHERE revoked_at IS NULL;

CREATE TABLE remote_runs (
  session_id     TEXT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
  runner         TEXT NOT NULL,
  run_id         TEXT NOT NULL,
  machine        TEXT NOT NULL,
  repository     TEXT NOT NULL,
  branch         TEXT NOT NULL,
  tether_version TEXT NOT NULL,
  wait_ms        INTEGER NOT NULL CHECK (wait_ms > 0),
  registered_at  INTEGER NOT NULL,
  last_seen_at   INTEGER NOT NULL,
  UNIQUE (runner, run_id)
) STRICT;

CREATE TABLE remote_answers (
  approval_id        TEXT PRIMARY KEY,
  session_id         TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  -- the id the run asked it with
  runner_approval_id TEXT NOT NULL,
  -- JSON DeskDecision
  decision           TEXT NOT NULL,
  answered_at        INTEGER NOT NULL,
  -- set once the run said what it did with the answer
  taken_at           INTEGER,
  outcome            TEXT CHECK (outcome IS NULL OR outcome = 'applied' OR outcome = 'already' OR outcome = 'not_waiting')
) STRICT, WITHOUT ROWID;

CREATE INDEX remote_answers_untaken ON remote_answers (session_id) WHERE taken_at IS NULL;

CREATE TABLE runner_rules (
  id                    TEXT PRIMARY KEY,
  runner                TEXT NOT NULL,
  repository            TEXT NOT NULL,
  pattern               TEXT NOT NULL,
  created_from_approval TEXT,
  created_at            INTEGER NOT NULL,
  revoked_at            INTEGER
) STRICT;

CREATE INDEX runner_rules_live ON runner_rules (runner, repository) WHERE revoked_at IS NULL;
