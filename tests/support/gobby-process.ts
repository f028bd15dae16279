// Runs the built gobby (dist/) as a user would: the CLI as a child process and the
// daemon started through `gobby daemon start`, each test with its own GOBBY_HOME and port.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isProcessRunning } from '../../daemon/cli/process-alive.js';
import { REPO_ROOT } from './claude-cli.js';

export const GOBBY_CLI = join(REPO_ROOT, 'dist', 'daemon', 'cli', 'main.js');

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface GobbyInstance {
  readonly home: string;
  readonly port: number;
  readonly env: Record<string, string>;
  /** Runs `gobby <args>` in `cwd`, with `extraEnv` added to the instance's environment. */
  cli(args: readonly string[], cwd: string, extraEnv?: Record<string, string>): Promise<CliRun>;
  /** Runs `gobby <args> --json` and parses stdout; throws with stderr on a non-zero exit. */
  json<T = Record<string, unknown>>(args: readonly string[], cwd: string, extraEnv?: Record<string, string>): Promise<T>;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Stops the daemon and removes GOBBY_HOME. */
  cleanup(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface CreateGobbyOptions {
  readonly home?: string;
  /** Where the port is configured: `GOBBY_PORT` (default) or `"port"` in `$GOBBY_HOME/config.json`. */
  readonly portIn?: 'env' | 'config';
}

export async function createGobby(options: CreateGobbyOptions = {}): Promise<GobbyInstance> {
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'gobby-home-'));
  mkdirSync(home, { recursive: true });
  const port = await freePort();
  if (options.portIn === 'config') writeFileSync(join(home, 'config.json'), JSON.stringify({ port }));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    GOBBY_HOME: home,
    ...(options.portIn === 'config' ? {} : { GOBBY_PORT: String(port) }),
  };
  const cli = (args: readonly string[], cwd: string, extraEnv: Record<string, string> = {}): Promise<CliRun> =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [GOBBY_CLI, ...args], { cwd, env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
    });
  const instance: GobbyInstance = {
    home,
    port,
    env,
    cli,
    async json<T>(args: readonly string[], cwd: string, extraEnv: Record<string, string> = {}): Promise<T> {
      const run = await cli([...args, '--json'], cwd, extraEnv);
      if (run.code !== 0) throw new Error(`gobby ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
      return JSON.parse(run.stdout) as T;
    },
    async start() {
      const run = await cli(['daemon', 'start'], home);
      if (run.code !== 0) throw new Error(`gobby daemon start failed: ${run.stderr}`);
    },
    async stop() {
      await cli(['daemon', 'stop'], home);
    },
    async cleanup() {
      const pid = daemonPid(home);
      await instance.stop();
      // `daemon stop` is an override: refused when this test process was registered as a
      // session's Claude Code (it ran a SessionStart hook itself). A test's daemon must not outlive it.
      if (pid !== undefined && isProcessRunning(pid)) process.kill(pid, 'SIGTERM');
      rmSync(home, { recursive: true, force: true });
    },
  };
  return instance;
}

function daemonPid(home: string): number | undefined {
  try {
    const pid = (JSON.parse(readFileSync(join(home, 'daemon.json'), 'utf8')) as { pid?: unknown }).pid;
    return typeof pid === 'number' ? pid : undefined;
  } catch {
    return undefined;
  }
}
