// Workflow state per (session, workflow). A session runs at most one phase workflow (the
// one that gates tools) beside any number of lifecycle workflows; the hook path asks for
// the phase workflow on every event, so that one is cached.
import type { Database } from 'better-sqlite3';
import { countBlock, workflowStateSchema, type DefinitionSource, type DefinitionTier, type WorkflowState } from '../../workflows/index.js';

/** The role a workflow plays in a session or project (the `kind` column). */
type WorkflowKind = 'phase' | 'lifecycle';

export interface StoredWorkflowState {
  readonly workflow: string;
  readonly kind: WorkflowKind;
  readonly state: WorkflowState;
  readonly definition: DefinitionSource;
  readonly definitionHash: string;
}

/** What `start` pins: the definition, its hash and the first state (whose `workflow` names the row). */
interface WorkflowStart {
  readonly kind: WorkflowKind;
  readonly definition: DefinitionSource;
  readonly definitionHash: string;
  readonly state: WorkflowState;
}

interface Row {
  workflow: string;
  kind: string;
  definition_hash: string;
  definition_file: string;
  definition_tier: string;
  definition_text: string;
  state_json: string;
}

const COLUMNS = 'workflow, kind, definition_hash, definition_file, definition_tier, definition_text, state_json';

function fromRow(row: Row): StoredWorkflowState {
  return {
    workflow: row.workflow,
    kind: row.kind as WorkflowKind,
    // State JSON is read back through the engine's schema: a row the engine cannot trust
    // is an error to surface, not something to half-use.
    state: workflowStateSchema.parse(JSON.parse(row.state_json)),
    definition: { file: row.definition_file, tier: row.definition_tier as DefinitionTier, text: row.definition_text },
    definitionHash: row.definition_hash,
  };
}

export function createWorkflowStatesRepository(db: Database) {
  const phaseOf = db.prepare(`SELECT ${COLUMNS} FROM workflow_states WHERE session_id = ? AND kind = 'phase'`);
  const bySessionAndWorkflow = db.prepare(`SELECT ${COLUMNS} FROM workflow_states WHERE session_id = ? AND workflow = ?`);
  // The phase workflow first, then the others in the order they started.
  const bySession = db.prepare(`SELECT ${COLUMNS} FROM workflow_states WHERE session_id = ?
    ORDER BY kind <> 'phase', rowid`);
  // A session has one phase workflow: starting one replaces the previous, whatever its name.
  const removeOtherPhase = db.prepare(`DELETE FROM workflow_states WHERE session_id = ? AND kind = 'phase' AND workflow <> ?`);
  const upsert = db.prepare(`INSERT INTO workflow_states
      (session_id, workflow, kind, definition_hash, definition_file, definition_tier, definition_text, state_json, updated_at)
    VALUES (@sessionId, @workflow, @kind, @hash, @file, @tier, @text, @stateJson, @now)
    ON CONFLICT(session_id, workflow) DO UPDATE SET kind = @kind, definition_hash = @hash, definition_file = @file,
      definition_tier = @tier, definition_text = @text, state_json = @stateJson, updated_at = @now`);
  const updateState = db.prepare('UPDATE workflow_states SET state_json = ?, updated_at = ? WHERE session_id = ? AND workflow = ?');
  // Write-through cache of each session's phase workflow: the daemon is the only writer, so
  // the state it last wrote is the state on disk, and a tool call need not read and
  // re-validate it from SQLite.
  const phaseCache = new Map<string, StoredWorkflowState>();
  const remember = (sessionId: string, stored: StoredWorkflowState): void => {
    if (phaseCache.size > 10_000) phaseCache.clear();
    phaseCache.set(sessionId, stored);
  };
  return {
    /** The session's phase workflow: the one that gates its tools. */
    getPhase(sessionId: string): StoredWorkflowState | undefined {
      const cached = phaseCache.get(sessionId);
      if (cached) return cached;
      const row = phaseOf.get(sessionId) as Row | undefined;
      if (!row) return undefined;
      const stored = fromRow(row);
      remember(sessionId, stored);
      return stored;
    },
    get(sessionId: string, workflow: string): StoredWorkflowState | undefined {
      const cached = phaseCache.get(sessionId);
      if (cached?.workflow === workflow) return cached;
      const row = bySessionAndWorkflow.get(sessionId, workflow) as Row | undefined;
      return row ? fromRow(row) : undefined;
    },
    /** Every workflow the session runs, its phase workflow first. */
    list(sessionId: string): StoredWorkflowState[] {
      return (bySession.all(sessionId) as Row[]).map(fromRow);
    },
    /** Pins a definition to the session and stores its first state (replacing a previous start of that workflow). */
    start(sessionId: string, start: WorkflowStart, now: number): void {
      const workflow = start.state.workflow;
      if (start.kind === 'phase') removeOtherPhase.run(sessionId, workflow);
      upsert.run({
        sessionId,
        workflow,
        kind: start.kind,
        hash: start.definitionHash,
        file: start.definition.file,
        tier: start.definition.tier,
        text: start.definition.text,
        stateJson: JSON.stringify(start.state),
        now,
      });
      const stored: StoredWorkflowState = { workflow, ...start };
      if (start.kind === 'phase') remember(sessionId, stored);
      else if (phaseCache.get(sessionId)?.workflow === workflow) phaseCache.delete(sessionId);
    },
    /** Stores the next state of a workflow the session already runs (`state.workflow` names it). */
    save(sessionId: string, state: WorkflowState, now: number): void {
      updateState.run(JSON.stringify(state), now, sessionId, state.workflow);
      const cached = phaseCache.get(sessionId);
      if (cached?.workflow === state.workflow) remember(sessionId, { ...cached, state });
    },
    /**
     * One more block on the session's phase workflow, for refusals made outside the engine
     * (a forged event, a refused override), so that `status` counts them like the engine's
     * own denials (the same count). A session without a workflow has nothing to count on.
     */
    countBlock(sessionId: string, now: number): void {
      const running = this.getPhase(sessionId);
      if (running) this.save(sessionId, countBlock(running.state), now);
    },
    /** Drops what was remembered: after a rolled-back transaction it may be ahead of the file. */
    forgetCached(): void {
      phaseCache.clear();
    },
  };
}
export type WorkflowStatesRepository = ReturnType<typeof createWorkflowStatesRepository>;
