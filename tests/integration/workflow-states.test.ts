// A session runs one phase workflow beside any number of lifecycle workflows, each with
// its own pinned definition and state, in a real SQLite file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../../daemon/package-info.js';
import { hashDefinitionText } from '../../daemon/workflow-catalog.js';
import { openDatabase } from '../../daemon/store/open-database.js';
import { createStore, type Store } from '../../daemon/store/store.js';
import { compileWorkflow, startWorkflow, type CompiledWorkflow, type WorkflowState } from '../../workflows/index.js';

const NOW = Date.UTC(2026, 0, 1);
const SESSION = 'session-1';

function compiled(name: string): CompiledWorkflow {
  const text = `name: ${name}\nphases:\n  - name: first\n    allowed_tools: [Read]\n  - name: second\n    allowed_tools: all\n`;
  const result = compileWorkflow({ text, file: `/defs/${name}.yaml`, tier: 'user' }, hashDefinitionText(text));
  if (!result.ok) throw new Error(result.errors.map((e) => e.message).join('; '));
  return result.workflow;
}

let directory: string;
let path: string;
let db: Database.Database;
let store: Store;

function open(): Store {
  db = openDatabase(path, MIGRATIONS_DIR, NOW).db;
  return createStore(db);
}

function start(workflow: CompiledWorkflow, kind: 'phase' | 'lifecycle', target = store): WorkflowState {
  const { state } = startWorkflow(workflow, { now: NOW });
  target.workflowStates.start(SESSION, { kind, definition: workflow.source, definitionHash: workflow.hash, state }, NOW);
  return state;
}

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'gobby-it-states-'));
  path = join(directory, 'gobby.db');
  store = open();
  const project = store.projects.ensure('/work/app', NOW);
  store.sessions.touch({ id: SESSION, projectId: project.id, cwd: '/work/app', transcriptPath: null, now: NOW });
});

afterEach(() => {
  db.close();
  rmSync(directory, { recursive: true, force: true });
});

/** What a daemon started on the same file would read: nothing from this store's caches. */
function reopened(): Store {
  db.close();
  return open();
}

describe('workflow states per (session, workflow)', () => {
  it('keeps a phase workflow and lifecycle workflows side by side, each saved on its own', () => {
    const phaseState = start(compiled('flow'), 'phase');
    const memoryState = start(compiled('memory'), 'lifecycle');
    start(compiled('handoff'), 'lifecycle');

    store.workflowStates.save(SESSION, { ...memoryState, phase: 'second', totalActionCount: 4 }, NOW + 1);
    store.workflowStates.save(SESSION, { ...phaseState, blockedCount: 2 }, NOW + 2);

    const expectBoth = (view: Store) => {
      expect(view.workflowStates.getPhase(SESSION)).toMatchObject({ workflow: 'flow', kind: 'phase', state: { phase: 'first', blockedCount: 2 } });
      expect(view.workflowStates.list(SESSION).map((s) => [s.workflow, s.kind, s.state.phase])).toEqual([
        ['flow', 'phase', 'first'],
        ['memory', 'lifecycle', 'second'],
        ['handoff', 'lifecycle', 'first'],
      ]);
      expect(view.workflowStates.get(SESSION, 'memory')).toMatchObject({
        definition: { file: '/defs/memory.yaml', tier: 'user' },
        state: { totalActionCount: 4, blockedCount: 0 },
      });
      expect(view.workflowStates.get(SESSION, 'nothing')).toBeUndefined();
    };
    expectBoth(store);
    expectBoth(reopened());
  });

  it('keeps one phase workflow per session: starting another replaces it, lifecycle ones stay', () => {
    start(compiled('flow'), 'phase');
    start(compiled('memory'), 'lifecycle');
    start(compiled('strict'), 'phase');
    expect(store.workflowStates.getPhase(SESSION)?.workflow).toBe('strict');
    expect(reopened().workflowStates.list(SESSION).map((s) => `${s.kind}:${s.workflow}`)).toEqual(['phase:strict', 'lifecycle:memory']);

    // The schema holds the rule too, whoever writes the row.
    expect(() =>
      db
        .prepare(`INSERT INTO workflow_states (session_id, workflow, kind, definition_hash, definition_file, definition_tier, definition_text, state_json, updated_at)
          SELECT session_id, 'another', 'phase', definition_hash, definition_file, definition_tier, definition_text, state_json, updated_at
          FROM workflow_states WHERE workflow = 'strict'`)
        .run(),
    ).toThrow(/UNIQUE/);
  });

  it('forgets a cached phase state the rolled-back transaction wrote', () => {
    const state = start(compiled('flow'), 'phase');
    expect(() =>
      store.transaction(() => {
        store.workflowStates.save(SESSION, { ...state, phase: 'second' }, NOW + 1);
        throw new Error('the evaluation failed half way');
      }),
    ).toThrow('half way');
    expect(store.workflowStates.getPhase(SESSION)?.state.phase).toBe('first');
  });
});
