// A gobby.db damaged on disk (a broken page: a bad sector, a copy taken mid-write), met as the
// user meets it: the daemon starts over the real file, `gobby daemon status` says the database
// is damaged, and hook events and commands are refused with GOBBY_ERR_DB_CORRUPT and the way
// to recover (exit 1, not the "bug in gobby" 70). A file that is no database stops the start.
import { existsSync, openSync, closeSync, writeFileSync, writeSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runBuiltEntry } from '../support/built-entry.js';
import { createGobby, GOBBY_CLI } from '../support/gobby-process.js';
import { TestDaemon, TOKEN, type Json } from './test-daemon.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

beforeAll(() => {
  if (!existsSync(GOBBY_CLI)) throw new Error(`${GOBBY_CLI} is missing: run \`npm run build\` first`);
});

/** Zeroes the first page of the audit log's table in the (closed) SQLite file, as a bad sector would. */
function breakAuditTable(databasePath: string): void {
  const db = new Database(databasePath, { readonly: true });
  const { rootpage } = db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'audit_log'").get() as { rootpage: number };
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  db.close();
  const fd = openSync(databasePath, 'r+');
  writeSync(fd, Buffer.alloc(pageSize), 0, pageSize, (rootpage - 1) * pageSize);
  closeSync(fd);
}

/** A daemon that has served a session, restarted over its gobby.db with the audit table broken. */
async function daemonOverDamagedFile(): Promise<{ t: TestDaemon; env: { home: string; port: number } }> {
  const t = TestDaemon.create();
  cleanups.push(() => t.dispose());
  await t.planningSession();
  await t.restart(() => breakAuditTable(t.layout.database));
  writeFileSync(t.layout.token, `${TOKEN}\n`, { mode: 0o600 });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address();
  if (typeof address !== 'object' || !address) throw new Error('not listening');
  return { t, env: { home: t.home, port: address.port } };
}

describe('a damaged gobby.db', () => {
  it('is reported by `gobby daemon status` (exit 1) and its --json', async () => {
    const { t, env } = await daemonOverDamagedFile();
    const json = await runBuiltEntry(GOBBY_CLI, ['daemon', 'status', '--json'], env, { cwd: t.project });
    expect(json.code, json.stderr).toBe(1);
    const answer = JSON.parse(json.stdout) as Json;
    expect(answer).toMatchObject({ running: true, ok: false, database_health: { ok: false } });
    expect(answer.database_health.problem).toMatch(/\S/);
    const human = await runBuiltEntry(GOBBY_CLI, ['daemon', 'status'], env, { cwd: t.project });
    expect(human.code).toBe(1);
    expect(human.stdout).toContain('DATABASE IS DAMAGED');
    expect(human.stdout).toContain('To recover: gobby daemon stop');
  });

  it('refuses hook events with 503 GOBBY_ERR_DB_CORRUPT and the recovery steps', async () => {
    const { t } = await daemonOverDamagedFile();
    const reply = await t.preToolUse(t.newSessionId(), 'Write', { file_path: 'a.txt', content: 'x' });
    expect(reply.status).toBe(503);
    expect(reply.body.error.code).toBe('GOBBY_ERR_DB_CORRUPT');
    expect(reply.body.error.message).toContain(`move ${t.layout.database} aside`);
  });

  it('makes `gobby workflow status` fail with GOBBY_ERR_DB_CORRUPT, exit 1, not as a bug', async () => {
    const { t, env } = await daemonOverDamagedFile();
    const run = await runBuiltEntry(GOBBY_CLI, ['workflow', 'status'], env, { cwd: t.project });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/is damaged .*To recover: stop the daemon \(`gobby daemon stop`\).* \[GOBBY_ERR_DB_CORRUPT\]\n$/);
  });

  it('still lets `gobby daemon stop` through, the first step of the recovery', async () => {
    const { t } = await daemonOverDamagedFile();
    const reply = await t.api('POST', '/api/shutdown');
    expect(reply.status).toBe(200);
  });
});

describe('a healthy gobby.db', () => {
  it('is reported healthy by the daemon', async () => {
    const t = TestDaemon.create();
    cleanups.push(() => t.dispose());
    await t.planningSession();
    await t.restart();
    expect((await t.api('GET', '/api/daemon')).body).toMatchObject({ ok: true, database_health: { ok: true, problem: null } });
  });
});

describe('a gobby.db that is no database at all', () => {
  it('stops `gobby daemon start` with the file and the way to recover', async () => {
    const gobby = await createGobby();
    cleanups.push(() => gobby.cleanup());
    writeFileSync(`${gobby.home}/gobby.db`, Buffer.alloc(64 * 1024, 'garbage '));
    const run = await gobby.cli(['daemon', 'start'], gobby.home);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${gobby.home}/gobby.db is damaged or is no SQLite database`);
    expect(run.stderr).toContain('aside');
  });
});
