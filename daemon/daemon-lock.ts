// One daemon per GOBBY_HOME, guaranteed by an exclusive SQLite lock on daemon.lock. The
// operating system drops the lock when the process dies, kill -9 included, so a crash
// never leaves a stale lock behind (a pid file alone cannot promise that).
import Database from 'better-sqlite3';

export interface DaemonLock {
  release(): void;
}

export function acquireDaemonLock(lockFile: string): DaemonLock | null {
  const db = new Database(lockFile);
  db.pragma('busy_timeout = 0');
  db.pragma('locking_mode = EXCLUSIVE');
  try {
    db.exec('BEGIN EXCLUSIVE');
    db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER)');
    db.exec('COMMIT');
  } catch {
    db.close();
    return null;
  }
  return { release: () => db.close() };
}
