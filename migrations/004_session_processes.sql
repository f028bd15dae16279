-- The Claude Code process each session's hook events must come from (see
-- daemon/provenance/): an event sent by any other process, such as a `curl` the agent ran
-- from its Bash tool, is refused as forged. Start time and pid together name a process
-- even after the kernel reuses its pid.
CREATE TABLE session_processes (
  session_id     TEXT    PRIMARY KEY,
  pid            INTEGER NOT NULL,
  start_time     INTEGER NOT NULL,
  comm           TEXT    NOT NULL,
  registered_at  INTEGER NOT NULL,
  registered_by  TEXT    NOT NULL     -- session-start (the command client's parent) | first-event
);
