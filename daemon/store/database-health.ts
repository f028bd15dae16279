// Whether gobby.db can be trusted. A file damaged on disk (a bad sector, a copy taken while
// the daemon wrote, a hand edit) still opens: SQLite meets the damage only when a query reads
// the broken page, and every such hook event would then fail as "internal error" while the
// daemon says it is fine. So the daemon checks the file when it starts (PRAGMA quick_check:
// every page's structure, without the index-to-table cross check that makes integrity_check
// slow), and any query that meets damage later marks it unhealthy too. An unhealthy database
// is not written to again: requests that need it are refused with GOBBY_ERR_DB_CORRUPT and the
// way to recover, and `gobby daemon status` says so.
import type Database from 'better-sqlite3';

export interface DatabaseHealthView {
  readonly ok: boolean;
  /** What SQLite found, in a line; null while healthy. */
  readonly problem: string | null;
}

export interface DatabaseHealth {
  current(): DatabaseHealthView;
  /** Records damage a query met (its SQLite message). */
  markDamaged(problem: string): void;
}

/** quick_check lists at most this many problems; one says enough. */
const PROBLEMS_SHOWN = 3;

/**
 * Up to this size the whole file is checked at start. quick_check reads every page: measured
 * here, 5 ms for a 1 MB file, 100 ms for 20 MB, 300 ms for 166 MB, and the start (which a
 * session start may wait for) should not grow with the audit log. A larger file has its other
 * tables checked (small: sessions, states, processes) and its audit log left to the queries
 * that read it, which mark the database damaged when they meet a broken page.
 */
const WHOLE_CHECK_LIMIT_BYTES = 32 * 1024 * 1024;

/** The table that grows with every event; the audit_log of schema 1 was renamed in 002. */
const GROWING_TABLE = /^audit_log/;

/** Runs PRAGMA quick_check on the open database (see WHOLE_CHECK_LIMIT_BYTES). */
export function checkDatabase(db: Database.Database): DatabaseHealthView {
  try {
    const bytes = (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number);
    const checks =
      bytes <= WHOLE_CHECK_LIMIT_BYTES
        ? [`quick_check(${PROBLEMS_SHOWN})`]
        : (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[])
            .filter((table) => !GROWING_TABLE.test(table))
            .map((table) => `quick_check(${JSON.stringify(table)})`);
    const problems = checks.flatMap((check) => (db.pragma(check) as { quick_check: string }[]).map((row) => row.quick_check)).filter((line) => line !== 'ok');
    return problems.length === 0 ? { ok: true, problem: null } : { ok: false, problem: problems.slice(0, PROBLEMS_SHOWN).join('; ') };
  } catch (error) {
    if (isDatabaseDamage(error)) return { ok: false, problem: (error as Error).message };
    throw error;
  }
}

export function createDatabaseHealth(initial: DatabaseHealthView): DatabaseHealth {
  let view = initial;
  return {
    current: () => view,
    markDamaged(problem) {
      if (view.ok) view = { ok: false, problem };
    },
  };
}

/** SQLite's own word for a damaged file (SQLITE_CORRUPT and its extended codes) or one that is no database. */
export function isDatabaseDamage(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB');
}

/** What the user reads from a running daemon: which file, what is wrong, and how to get going again. */
export function describeDatabaseDamage(databasePath: string, problem: string): string {
  return `gobby's database ${databasePath} is damaged (${problem}), so the daemon refuses hook events and commands that need it. ${recoverySteps(databasePath, true)}`;
}

/** The same, for a daemon that could not even open the file. */
export function describeUnopenableDatabase(databasePath: string, problem: string): string {
  return `gobby's database ${databasePath} is damaged or is no SQLite database (${problem}). ${recoverySteps(databasePath, false)}`;
}

function recoverySteps(databasePath: string, daemonRuns: boolean): string {
  return (
    `To recover: ${daemonRuns ? 'stop the daemon (`gobby daemon stop`); ' : ''}move ${databasePath} aside, with its -wal and -shm files if they are there ` +
    "(the next start makes a new, empty database: sessions, the project's workflow choice and the audit log start over; " +
    'workflow files are kept), or put back a backup copy of it; then `gobby daemon start`.'
  );
}
