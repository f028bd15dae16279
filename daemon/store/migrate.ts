// Forward-only migrations: `migrations/NNN_name.sql`, applied in order inside one
// transaction each, with the applied versions recorded in schema_migrations.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';

export interface AppliedMigration {
  readonly version: number;
  readonly name: string;
}

const MIGRATION_FILE = /^(\d+)_([\w-]+)\.sql$/;

export function listMigrationFiles(directory: string): { version: number; name: string; file: string }[] {
  return readdirSync(directory)
    .map((file) => ({ file, match: MIGRATION_FILE.exec(file) }))
    .filter((entry): entry is { file: string; match: RegExpExecArray } => entry.match !== null)
    .map(({ file, match }) => ({ version: Number(match[1]), name: match[2]!, file: join(directory, file) }))
    .sort((a, b) => a.version - b.version);
}

export function applyMigrations(db: Database, directory: string, now: number): AppliedMigration[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`);
  const applied = new Set(
    (db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((row) => row.version),
  );
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  const newlyApplied: AppliedMigration[] = [];
  for (const migration of listMigrationFiles(directory)) {
    if (applied.has(migration.version)) continue;
    const sql = readFileSync(migration.file, 'utf8');
    db.transaction(() => {
      db.exec(sql);
      record.run(migration.version, migration.name, now);
    })();
    newlyApplied.push({ version: migration.version, name: migration.name });
  }
  return newlyApplied;
}

export function currentSchemaVersion(db: Database): number {
  const row = db.prepare('SELECT MAX(version) AS version FROM schema_migrations').get() as { version: number | null };
  return row.version ?? 0;
}
