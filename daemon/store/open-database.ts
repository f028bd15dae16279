// Opens the daemon's SQLite file. WAL lets the CLI's reads (through the daemon) and hook
// writes proceed without blocking each other; synchronous=NORMAL in WAL mode keeps every
// committed transaction across a process crash (kill -9) and costs no fsync per event.
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { applyMigrations, currentSchemaVersion } from './migrate.js';

export interface OpenedDatabase {
  readonly db: Database.Database;
  readonly schemaVersion: number;
}

export function openDatabase(path: string, migrationsDirectory: string, now: number): OpenedDatabase {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  applyMigrations(db, migrationsDirectory, now);
  return { db, schemaVersion: currentSchemaVersion(db) };
}
