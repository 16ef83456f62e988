-- The permission mode a project's new sessions start in, as the person chose it.
--
-- The first time a project is opened the app asks how it should work there: ask before every
-- command, or let commands the sandbox holds run on their own (auto). The answer is kept here, in
-- Tether's own data, never in the project's folder, which the project (or what runs in it) could
-- write: a repository must not be able to choose auto for itself. It is changed in Settings.
--
-- NULL: not asked yet (every project that existed before this migration too, so each is asked once
-- at its next new session). Only the modes a new session may start in; never unleashed. `tether run`
-- does not read it: a headless run keeps its own default, and auto there is `--mode auto`.

ALTER TABLE projects ADD COLUMN default_mode TEXT
  CHECK (default_mode IS NULL OR default_mode IN ('ask', 'auto-edit', 'auto', 'read-only'));
