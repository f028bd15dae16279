import type { Database } from 'better-sqlite3';
import { workflowStateSchema, type DefinitionSource, type DefinitionTier, type WorkflowState } from '../../workflows/index.js';

export interface StoredWorkflowState {
  readonly state: WorkflowState;
  readonly definition: DefinitionSource;
  readonly definitionHash: string;
}

interface Row {
  definition_hash: string;
  definition_file: string;
  definition_tier: string;
  definition_text: string;
  state_json: string;
}

export function createWorkflowStatesRepository(db: Database) {
  const byId = db.prepare(
    'SELECT definition_hash, definition_file, definition_tier, definition_text, state_json FROM workflow_states WHERE session_id = ?',
  );
  const upsert = db.prepare(`INSERT INTO workflow_states
      (session_id, workflow, definition_hash, definition_file, definition_tier, definition_text, state_json, updated_at)
    VALUES (@sessionId, @workflow, @hash, @file, @tier, @text, @stateJson, @now)
    ON CONFLICT(session_id) DO UPDATE SET workflow = @workflow, definition_hash = @hash, definition_file = @file,
      definition_tier = @tier, definition_text = @text, state_json = @stateJson, updated_at = @now`);
  const updateState = db.prepare('UPDATE workflow_states SET state_json = ?, updated_at = ? WHERE session_id = ?');
  const remove = db.prepare('DELETE FROM workflow_states WHERE session_id = ?');
  // Write-through cache: the daemon is the only writer, so the state it last wrote is the
  // state on disk, and a tool call need not read and re-validate it from SQLite.
  const cache = new Map<string, StoredWorkflowState>();
  const remember = (sessionId: string, stored: StoredWorkflowState): void => {
    if (cache.size > 10_000) cache.clear();
    cache.set(sessionId, stored);
  };
  return {
    get(sessionId: string): StoredWorkflowState | undefined {
      const cached = cache.get(sessionId);
      if (cached) return cached;
      const row = byId.get(sessionId) as Row | undefined;
      if (!row) return undefined;
      // State JSON is read back through the engine's schema: a row the engine cannot
      // trust is an error to surface, not something to half-use.
      const state = workflowStateSchema.parse(JSON.parse(row.state_json));
      const stored: StoredWorkflowState = {
        state,
        definition: { file: row.definition_file, tier: row.definition_tier as DefinitionTier, text: row.definition_text },
        definitionHash: row.definition_hash,
      };
      remember(sessionId, stored);
      return stored;
    },
    /** Pins a definition to the session and stores its first state. */
    start(sessionId: string, definition: DefinitionSource, hash: string, state: WorkflowState, now: number): void {
      upsert.run({
        sessionId,
        workflow: state.workflow,
        hash,
        file: definition.file,
        tier: definition.tier,
        text: definition.text,
        stateJson: JSON.stringify(state),
        now,
      });
      remember(sessionId, { state, definition, definitionHash: hash });
    },
    save(sessionId: string, state: WorkflowState, now: number): void {
      updateState.run(JSON.stringify(state), now, sessionId);
      const cached = cache.get(sessionId);
      if (cached) remember(sessionId, { ...cached, state });
    },
    remove(sessionId: string): void {
      remove.run(sessionId);
      cache.delete(sessionId);
    },
    /** Drops what was remembered: after a rolled-back transaction it may be ahead of the file. */
    forgetCached(): void {
      cache.clear();
    },
  };
}
export type WorkflowStatesRepository = ReturnType<typeof createWorkflowStatesRepository>;
