// The last version of each project's workflow that loaded (migration 005). Read when a
// session starts on a workflow whose file no longer loads; written when a version loads.
import type { Database } from 'better-sqlite3';
import type { DefinitionSource, DefinitionTier } from '../../workflows/index.js';

export interface LastGoodDefinition {
  readonly workflow: string;
  readonly definition: DefinitionSource;
  readonly definitionHash: string;
  readonly recordedAt: number;
}

interface Row {
  workflow: string;
  definition_hash: string;
  definition_file: string;
  definition_tier: string;
  definition_text: string;
  recorded_at: number;
}

export function createLastGoodRepository(db: Database) {
  const byProjectAndWorkflow = db.prepare(`SELECT workflow, definition_hash, definition_file, definition_tier, definition_text, recorded_at
    FROM last_good_definitions WHERE project_id = ? AND workflow = ?`);
  // Rewritten only when the version changed: sessions start often, versions change rarely.
  const upsert = db.prepare(`INSERT INTO last_good_definitions
      (project_id, workflow, definition_hash, definition_file, definition_tier, definition_text, recorded_at)
    VALUES (@projectId, @workflow, @hash, @file, @tier, @text, @now)
    ON CONFLICT(project_id, workflow) DO UPDATE SET definition_hash = @hash, definition_file = @file,
      definition_tier = @tier, definition_text = @text, recorded_at = @now
    WHERE definition_hash <> @hash OR definition_file <> @file OR definition_tier <> @tier`);
  // What was recorded last, per project and name, so the hot path skips the write.
  const known = new Map<string, string>();
  return {
    get(projectId: number, workflow: string): LastGoodDefinition | undefined {
      const row = byProjectAndWorkflow.get(projectId, workflow) as Row | undefined;
      if (!row) return undefined;
      return {
        workflow: row.workflow,
        definition: { file: row.definition_file, tier: row.definition_tier as DefinitionTier, text: row.definition_text },
        definitionHash: row.definition_hash,
        recordedAt: row.recorded_at,
      };
    },
    record(projectId: number, workflow: string, source: DefinitionSource, hash: string, now: number): void {
      const key = `${projectId}\u0000${workflow}`;
      const version = `${hash}\u0000${source.tier}\u0000${source.file}`;
      if (known.get(key) === version) return;
      upsert.run({ projectId, workflow, hash, file: source.file, tier: source.tier, text: source.text, now });
      if (known.size > 10_000) known.clear();
      known.set(key, version);
    },
    /** Drops what was remembered: after a rolled-back transaction it may be ahead of the file. */
    forgetCached(): void {
      known.clear();
    },
  };
}
