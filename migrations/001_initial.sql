-- Projects: one row per project root (the git root of a session's cwd, or the cwd).
CREATE TABLE projects (
  id          INTEGER PRIMARY KEY,
  root        TEXT    NOT NULL UNIQUE,
  workflow    TEXT,                       -- the workflow `gobby workflow set` chose, or NULL
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL
);

-- Sessions: one row per Claude Code session_id.
CREATE TABLE sessions (
  id               TEXT    PRIMARY KEY,
  project_id       INTEGER NOT NULL REFERENCES projects(id),
  cwd              TEXT    NOT NULL,
  transcript_path  TEXT,
  started_at       INTEGER NOT NULL,
  last_event_at    INTEGER NOT NULL,
  ended_at         INTEGER,
  end_reason       TEXT
);
CREATE INDEX sessions_by_project_activity ON sessions(project_id, last_event_at DESC);

-- Workflow state: one row per session that runs a workflow. The definition is pinned:
-- its source text is kept so the session keeps the definition it started with.
CREATE TABLE workflow_states (
  session_id         TEXT    PRIMARY KEY REFERENCES sessions(id),
  workflow           TEXT    NOT NULL,
  definition_hash    TEXT    NOT NULL,
  definition_file    TEXT    NOT NULL,
  definition_tier    TEXT    NOT NULL,
  definition_text    TEXT    NOT NULL,
  state_json         TEXT    NOT NULL,
  updated_at         INTEGER NOT NULL
);

-- The audit log: append-only, one row per hook event and per human override.
CREATE TABLE audit_log (
  id           INTEGER PRIMARY KEY,     -- rowid: append-only, so ids only grow
  at           INTEGER NOT NULL,
  session_id   TEXT    NOT NULL,
  event        TEXT    NOT NULL,      -- hook event name, or an override such as `override:phase`
  tool_name    TEXT,
  tool_use_id  TEXT,
  decision     TEXT    NOT NULL,      -- allow | deny | context | none
  workflow     TEXT,
  phase        TEXT,                  -- the phase the decision was made in
  because      TEXT    NOT NULL,      -- the rule or phase that decided
  reason       TEXT,                  -- what the model (or the log reader) was told
  actor        TEXT    NOT NULL DEFAULT 'claude-code',
  detail_json  TEXT
);
CREATE INDEX audit_by_session ON audit_log(session_id, id);

CREATE TRIGGER audit_log_is_append_only_update BEFORE UPDATE ON audit_log
BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
CREATE TRIGGER audit_log_is_append_only_delete BEFORE DELETE ON audit_log
BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
