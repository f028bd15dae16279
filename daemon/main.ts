// The composition root: the only place that opens the database, listens, writes
// daemon.json and handles signals. `node dist/daemon/main.js [--foreground]`.
import { mkdirSync, openSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import pino from 'pino';
import { resolveGobbyHome } from '../hooks/daemon-file.js';
import { DAEMON_EXIT_ALREADY_RUNNING } from '../hooks/daemon-locator.js';
import { loadDaemonConfig, type DaemonConfig } from './config.js';
import { ensureControlToken } from './control-token.js';
import { acquireDaemonLock } from './daemon-lock.js';
import { homeLayout } from './home-layout.js';
import { PACKAGE_VERSION } from './package-info.js';
import { composeDaemon } from './compose.js';
import { describeUnopenableDatabase, isDatabaseDamage } from './store/database-health.js';

/** The hook client and the CLI read this exit code as "another daemon holds this GOBBY_HOME". */
const EXIT_ALREADY_RUNNING = DAEMON_EXIT_ALREADY_RUNNING;
const EXIT_STARTUP_FAILED = 1;

// The CLI imports this dynamically for `daemon start --foreground`, which the check cannot see.
// ts-unused-exports:disable-next-line
export async function runDaemon(options: { foreground: boolean; env: Record<string, string | undefined> }): Promise<void> {
  const layout = homeLayout(resolveGobbyHome(options.env));
  mkdirSync(layout.home, { recursive: true, mode: 0o700 });
  mkdirSync(layout.logDirectory, { recursive: true });
  mkdirSync(layout.userWorkflows, { recursive: true });

  const lock = acquireDaemonLock(layout.lockFile);
  if (!lock) {
    process.stderr.write(`gobby: a daemon is already running for GOBBY_HOME=${layout.home} (${describeRunning(layout.daemonFile)})\n`);
    process.exit(EXIT_ALREADY_RUNNING);
  }

  let config: DaemonConfig;
  try {
    config = loadDaemonConfig(layout.home, layout.config, options.env);
  } catch (error) {
    // A config.json that is not JSON, or has a wrong value: its path and the problem, no stack.
    process.stderr.write(`gobby: the daemon could not start: ${(error as Error).message}\n`);
    lock.release();
    process.exit(EXIT_STARTUP_FAILED);
  }
  // The log file is opened here, synchronously: a destination that opens it later is not
  // ready when a start fails at once, and pino's exit handler then crashes with
  // "sonic boom is not ready yet" instead of the reason.
  const logFd = openSync(layout.logFile, 'a');
  const streams: pino.StreamEntry[] = [{ stream: pino.destination({ fd: logFd, sync: false }) }];
  if (options.foreground) streams.push({ stream: process.stdout });
  const logger = pino({ level: config.logLevel, base: { pid: process.pid } }, pino.multistream(streams));

  const token = ensureControlToken(layout.token);
  let shutdown: (signal: string) => void = () => undefined;
  let daemon: ReturnType<typeof composeDaemon>;
  try {
    daemon = composeDaemon({
    layout,
    token,
    logger,
    bodyLimitBytes: config.bodyLimitBytes,
    watchDefinitions: true,
    checkpointInWorker: true,
    collectWhenIdle: true,
    onCheckpointError: (error) => logger.error({ err: error }, 'WAL checkpoint worker failed; SQLite checkpoints on its own'),
    shutdown: () => shutdown('api'),
    onReloadError: (errors) => logger.warn({ errors }, 'workflow definitions failed to load; the last good versions stay in use'),
    });
  } catch (error) {
    // The database cannot be opened or migrated (a file that is not SQLite, a disk that is full):
    // one line that says which file, the stack in the log.
    const message = isDatabaseDamage(error) ? describeUnopenableDatabase(layout.database, (error as Error).message) : `${layout.database}: ${(error as Error).message}`;
    logger.fatal({ err: error }, message);
    process.stderr.write(`gobby: the daemon could not start: ${message.replace(/\.$/, '')}. Details: ${layout.logFile}\n`);
    lock.release();
    process.exit(EXIT_STARTUP_FAILED);
  }
  const { app, schemaVersion } = daemon;

  let stopping = false;
  shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'daemon stopping');
    void daemon.close().finally(() => {
      removeDaemonFileIfOurs(layout.daemonFile);
      lock.release();
      logger.flush();
      process.exit(0);
    });
  };

  try {
    await app.listen({ host: '127.0.0.1', port: config.port });
  } catch (error) {
    const message =
      (error as NodeJS.ErrnoException).code === 'EADDRINUSE'
        ? `port ${config.port} on 127.0.0.1 is in use by another program; set GOBBY_PORT or "port" in ${layout.config}`
        : (error as Error).message;
    logger.fatal({ err: error }, message);
    process.stderr.write(`gobby: the daemon could not start: ${message}\n`);
    await daemon.close();
    lock.release();
    process.exit(EXIT_STARTUP_FAILED);
  }

  writeDaemonFile(layout.daemonFile, { pid: process.pid, port: config.port, version: PACKAGE_VERSION, startedAt: new Date().toISOString() });
  logger.info({ port: config.port, home: layout.home, database: layout.database, schemaVersion }, 'daemon listening on 127.0.0.1');
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

function writeDaemonFile(path: string, content: object): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(content, null, 2)}\n`);
  renameSync(temporary, path);
}

function removeDaemonFileIfOurs(path: string): void {
  try {
    const content = JSON.parse(readFileSync(path, 'utf8')) as { pid?: number };
    if (content.pid === process.pid) rmSync(path);
  } catch {
    // already gone
  }
}

function describeRunning(daemonFile: string): string {
  try {
    const content = JSON.parse(readFileSync(daemonFile, 'utf8')) as { pid?: number; port?: number };
    return `pid ${content.pid}, port ${content.port}`;
  } catch {
    return 'its daemon.json is not written yet';
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  runDaemon({ foreground: process.argv.includes('--foreground'), env: process.env }).catch((error: unknown) => {
    process.stderr.write(`gobby: the daemon failed: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(EXIT_STARTUP_FAILED);
  });
}
