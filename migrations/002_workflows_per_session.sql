-- Many workflows per session and per project, and audit rows that belong to a project.
--
-- Until now a session ran one workflow (workflow_states keyed by session_id), a project
-- had one (projects.workflow), and every audit row needed a session. A session now keeps
-- one state row per workflow it runs: at most one "phase" workflow (the one that gates
-- tools, chosen with `gobby workflow set`) beside any number of "lifecycle" workflows.
-- Project-level events (`gobby workflow set` / `clear`) are audited against the project.
--
-- SQLite cannot change a primary key or drop NOT NULL in place, so workflow_states and
-- audit_log are rebuilt: create the new table, copy every row, drop the old, rename.

-- Projects: the workflows a project runs, by role. Replaces projects.workflow, whose value
-- becomes the project's phase workflow.
CREATE TABLE project_workflows (
  project_id  INTEGER NOT NULL REFERENCES projects(id),
  workflow    TEXT    NOT NULL,
  kind        TEXT    NOT NULL DEFAULT 'phase' CHECK (kind IN ('phase', 'lifecycle')),
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL,
  PRIMARY KEY (project_id, workflow)
);
CREATE UNIQUE INDEX project_workflows_one_phase ON project_workflows(project_id) WHERE kind = 'phase';

INSERT INTO project_workflows (project_id, workflow, kind, created_at, updated_at)
  SELECT id, workflow, 'phase', updated_at, updated_at FROM projects WHERE workflow IS NOT NULL;

ALTER TABLE projects DROP COLUMN workflow;

-- Workflow state: one row per (session, workflow). The definition stays pinned per row.
CREATE TABLE workflow_states_v2 (
  session_id         TEXT    NOT NULL REFERENCES sessions(id),
  workflow           TEXT    NOT NULL,
  kind               TEXT    NOT NULL DEFAULT 'phase' CHECK (kind IN ('phase', 'lifecycle')),
  definition_hash    TEXT    NOT NULL,
  definition_file    TEXT    NOT NULL,
  definition_tier    TEXT    NOT NULL,
  definition_text    TEXT    NOT NULL,
  state_json         TEXT    NOT NULL,
  updated_at         INTEGER NOT NULL,
  PRIMARY KEY (session_id, workflow)
);

INSERT INTO workflow_states_v2
    (session_id, workflow, kind, definition_hash, definition_file, definition_tier, definition_text, state_json, updated_at)
  SELECT session_id, workflow, 'phase', definition_hash, definition_file, definition_tier, definition_text, state_json, updated_at
  FROM workflow_states;

DROP TABLE workflow_states;
ALTER TABLE workflow_states_v2 RENAME TO workflow_states;
-- The hook path asks for "the session's phase workflow" on every event: this index
-- answers it, and keeps a session to one phase workflow.
CREATE UNIQUE INDEX workflow_states_one_phase ON workflow_states(session_id) WHERE kind = 'phase';

-- The audit log: a row belongs to exactly one session or, for project-level events, to
-- one project. A session row reaches its project through sessions.project_id.
CREATE TABLE audit_log_v2 (
  id           INTEGER PRIMARY KEY,     -- rowid: append-only, so ids only grow
  at           INTEGER NOT NULL,
  session_id   TEXT,
  project_id   INTEGER REFERENCES projects(id),
  event        TEXT    NOT NULL,      -- hook event name, an override such as `override:phase`, or `workflow:set`
  tool_name    TEXT,
  tool_use_id  TEXT,
  decision     TEXT    NOT NULL,      -- allow | deny | context | none
  workflow     TEXT,
  phase        TEXT,                  -- the phase the decision was made in
  because      TEXT    NOT NULL,      -- the rule or phase that decided
  reason       TEXT,                  -- what the model (or the log reader) was told
  actor        TEXT    NOT NULL DEFAULT 'claude-code',
  detail_json  TEXT,
  CHECK ((session_id IS NULL) <> (project_id IS NULL))
);

INSERT INTO audit_log_v2
    (id, at, session_id, project_id, event, tool_name, tool_use_id, decision, workflow, phase, because, reason, actor, detail_json)
  SELECT id, at, session_id, NULL, event, tool_name, tool_use_id, decision, workflow, phase, because, reason, actor, detail_json
  FROM audit_log;

-- Dropping a table fires no DELETE trigger; its triggers go with it and are recreated below.
DROP TABLE audit_log;
ALTER TABLE audit_log_v2 RENAME TO audit_log;
CREATE INDEX audit_by_session ON audit_log(session_id, id);
CREATE INDEX audit_by_project ON audit_log(project_id, id) WHERE project_id IS NOT NULL;

CREATE TRIGGER audit_log_is_append_only_update BEFORE UPDATE ON audit_log
BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
CREATE TRIGGER audit_log_is_append_only_delete BEFORE DELETE ON audit_log
BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
