/**
 * The daemon's life as a user drives it through the built CLI: start returns once it
 * answers, a second start (or a second daemon process) finds the first, status reports
 * it, stop ends it, and the CLI says how to start it when it is not running.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { listMigrationFiles } from '../../daemon/store/migrate.js';
import { REPO_ROOT } from '../support/claude-cli.js';
import { createGobby } from '../support/gobby-process.js';

const DAEMON_MAIN = join(REPO_ROOT, 'dist', 'daemon', 'main.js');
const LATEST_SCHEMA_VERSION = Math.max(...listMigrationFiles(join(REPO_ROOT, 'migrations')).map((m) => m.version));

describe('gobby daemon', () => {
  it('starts once per GOBBY_HOME, reports its status, and stops', async () => {
    const gobby = await createGobby();
    onTestFinished(() => gobby.cleanup());

    const notRunning = await gobby.cli(['workflow', 'status'], gobby.home);
    expect(notRunning.code).toBe(2);
    expect(notRunning.stderr).toContain('Start it with: gobby daemon start');

    const first = await gobby.json<{ started: boolean; pid: number; port: number }>(['daemon', 'start'], gobby.home);
    expect(first).toMatchObject({ started: true, port: gobby.port });
    const again = await gobby.json<{ started: boolean; already_running: boolean; pid: number }>(['daemon', 'start'], gobby.home);
    expect(again).toMatchObject({ started: false, already_running: true, pid: first.pid });

    // A second daemon process for the same home is refused by the lock, even one that
    // bypasses the CLI's own check.
    const second = spawnSync(process.execPath, [DAEMON_MAIN], { env: gobby.env, encoding: 'utf8', timeout: 20_000 });
    expect(second.status).toBe(3);
    expect(second.stderr).toContain(`already running for GOBBY_HOME=${gobby.home} (pid ${first.pid}`);

    const status = await gobby.json<Record<string, unknown>>(['daemon', 'status'], gobby.home);
    expect(status).toMatchObject({
      running: true,
      pid: first.pid,
      port: gobby.port,
      home: gobby.home,
      database: join(gobby.home, 'gobby.db'),
      schema_version: LATEST_SCHEMA_VERSION,
      active_sessions: 0,
    });
    expect(typeof status.version).toBe('string');
    expect(typeof status.uptime_seconds).toBe('number');
    expect(statSync(join(gobby.home, 'token')).mode & 0o777).toBe(0o600);

    // A daemon.json that names another port does not hide the daemon on the configured one.
    const daemonFile = join(gobby.home, 'daemon.json');
    const written = JSON.parse(readFileSync(daemonFile, 'utf8')) as Record<string, unknown>;
    writeFileSync(daemonFile, JSON.stringify({ ...written, port: gobby.port === 65000 ? 65001 : 65000 }));
    expect(await gobby.json<Record<string, unknown>>(['daemon', 'status'], gobby.home)).toMatchObject({ pid: first.pid, port: gobby.port });
    expect(await gobby.json(['daemon', 'start'], gobby.home)).toMatchObject({ started: false, already_running: true, pid: first.pid });

    const stopped = await gobby.json<{ stopped: boolean; pid: number }>(['daemon', 'stop'], gobby.home);
    expect(stopped).toEqual({ stopped: true, pid: first.pid });
    expect(existsSync(join(gobby.home, 'daemon.json'))).toBe(false);
    expect((await gobby.cli(['daemon', 'status'], gobby.home)).code).toBe(2);
    // The WAL checkpoint worker is a file of its own, loaded by path: a worker that fails to load
    // is only logged, and checkpoints fall back to the hook requests' thread.
    const log = readFileSync(join(gobby.home, 'logs', 'daemon.log'), 'utf8');
    expect(log).toContain('listening');
    expect(log).not.toContain('WAL checkpoint worker failed');
  }, 60_000);

  it('says why when it cannot start: the port is taken by another program', async () => {
    const gobby = await createGobby();
    onTestFinished(() => gobby.cleanup());
    const { createServer } = await import('node:net');
    const squatter = createServer().listen(gobby.port, '127.0.0.1');
    onTestFinished(() => void squatter.close());
    await new Promise((resolve) => squatter.once('listening', resolve));

    const start = await gobby.cli(['daemon', 'start'], gobby.home);
    expect(start.code).toBe(1);
    expect(start.stderr).toContain(`port ${gobby.port} on 127.0.0.1 is in use by another program`);
    expect(readFileSync(join(gobby.home, 'logs', 'daemon-start.log'), 'utf8')).toContain('in use');
  }, 60_000);

  it('says what is wrong with config.json, without a stack trace', async () => {
    const gobby = await createGobby();
    onTestFinished(() => gobby.cleanup());
    const config = join(gobby.home, 'config.json');
    writeFileSync(config, '{"log_level": "info",}\n');
    const notJson = await gobby.cli(['daemon', 'start'], gobby.home);
    expect(notJson.code).toBe(1);
    expect(notJson.stderr).toContain(`${config} is not valid JSON`);
    expect(notJson.stderr.match(/gobby: /g)).toHaveLength(1);

    writeFileSync(config, '{"log_level": "loud"}\n');
    const wrongValue = await gobby.cli(['daemon', 'start'], gobby.home);
    expect(wrongValue.code).toBe(1);
    expect(wrongValue.stderr).toContain(`${config}: log_level:`);
    // The daemon's own stderr (its startup log) has the same line, not a stack trace.
    const startupLog = readFileSync(join(gobby.home, 'logs', 'daemon-start.log'), 'utf8');
    expect(startupLog).toContain(`gobby: the daemon could not start: ${config}: log_level:`);
    expect(startupLog).not.toMatch(/^\s+at /m);
  }, 60_000);

  it('says which file is wrong when the database cannot be opened, and nothing else', async () => {
    const gobby = await createGobby();
    onTestFinished(() => gobby.cleanup());
    writeFileSync(join(gobby.home, 'gobby.db'), 'this is not an SQLite file, whoever wrote it\n'.repeat(20));
    const start = await gobby.cli(['daemon', 'start'], gobby.home);
    expect(start.code).toBe(1);
    expect(start.stderr).toContain(`${join(gobby.home, 'gobby.db')} is damaged or is no SQLite database (file is not a database)`);
    // With the way back: move it aside, or restore a backup.
    expect(start.stderr).toMatch(/To recover: move .*gobby\.db aside/);
    expect(start.stderr).not.toContain('..');
    // A start that fails at once used to end in pino's "sonic boom is not ready yet" crash.
    expect(start.stderr).not.toContain('sonic boom');
    expect(start.stderr.match(/gobby: /g)).toHaveLength(1);
    expect(readFileSync(join(gobby.home, 'logs', 'daemon.log'), 'utf8')).toContain('file is not a database');
  }, 60_000);
});
