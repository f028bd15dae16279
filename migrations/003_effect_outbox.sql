-- The effect outbox: an effect whose work must survive a crash is written here in the same
-- transaction as the state change that caused it, then run after the commit and deleted.
-- A row still here when the daemon starts is work a crash interrupted: it is run again.
CREATE TABLE effect_outbox (
  id            INTEGER PRIMARY KEY,
  created_at    INTEGER NOT NULL,
  handler       TEXT    NOT NULL,     -- the effect handler that runs it (see daemon/effects/)
  envelope_json TEXT    NOT NULL,     -- the effect with its session, workflow, actor and time
  attempts      INTEGER NOT NULL DEFAULT 0,
  last_error    TEXT,
  given_up_at   INTEGER               -- set after too many failed attempts; kept for the record
);
CREATE INDEX effect_outbox_pending ON effect_outbox(id) WHERE given_up_at IS NULL;
