-- The last version of each project's workflow that loaded, kept so that a workflow file
-- broken while the daemon was down is never the same as no workflow at all: a restarted
-- daemon starts new sessions on this version and says the file is broken (see
-- daemon/selected-workflow.ts). One row per (project, workflow name), replaced whenever a
-- newer version loads.
CREATE TABLE last_good_definitions (
  project_id       INTEGER NOT NULL REFERENCES projects(id),
  workflow         TEXT    NOT NULL,
  definition_hash  TEXT    NOT NULL,
  definition_file  TEXT    NOT NULL,
  definition_tier  TEXT    NOT NULL,
  definition_text  TEXT    NOT NULL,
  recorded_at      INTEGER NOT NULL,
  PRIMARY KEY (project_id, workflow)
);

-- A database from before this migration already holds good versions: the definition each
-- session pinned. The newest one of each selected workflow becomes its last good version.
INSERT INTO last_good_definitions
    (project_id, workflow, definition_hash, definition_file, definition_tier, definition_text, recorded_at)
  SELECT pw.project_id, pw.workflow, ws.definition_hash, ws.definition_file, ws.definition_tier, ws.definition_text, ws.updated_at
  FROM project_workflows pw
  JOIN workflow_states ws ON ws.rowid = (
    SELECT w.rowid FROM workflow_states w JOIN sessions s ON s.id = w.session_id
    WHERE s.project_id = pw.project_id AND w.workflow = pw.workflow
    ORDER BY w.updated_at DESC, w.rowid DESC LIMIT 1
  );

-- How the session's hooks were installed, as its SessionStart client said: 'strict' (a
-- dead daemon blocks tools) or 'lenient' (it lets them through). NULL: never said, which
-- counts as strict, the default. With no good version of the workflow at all, strict
-- sessions are refused tools and lenient ones are told, every session.
ALTER TABLE sessions ADD COLUMN failure_mode TEXT CHECK (failure_mode IN ('strict', 'lenient'));
