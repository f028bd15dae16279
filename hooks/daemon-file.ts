// Where the daemon lives and how to reach it. Shared by the hook command client
// (which must start fast, so this file imports node builtins only and never
// throws) and the CLI.
import { readFileSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

export const DEFAULT_DAEMON_PORT = 7377;

const DAEMON_FILE_NAME = 'daemon.json';
const CONFIG_FILE_NAME = 'config.json';

/** What the running daemon writes to `$GOBBY_HOME/daemon.json`. */
export interface DaemonFile {
  pid: number;
  port: number;
  version: string;
  startedAt: string;
}

type Env = Record<string, string | undefined>;

/**
 * `GOBBY_HOME`, else `~/.gobby`, always absolute. `HOME` is read from `env` so tests can redirect
 * it; an empty or relative one (`HOME= gobby …`) would name a folder that depends on where each
 * process runs, so the account's home from the password database is used instead.
 */
export function resolveGobbyHome(env: Env): string {
  const configured = env['GOBBY_HOME']?.trim();
  if (configured) return resolve(configured);
  const home = [env['HOME']?.trim(), env['USERPROFILE']?.trim()].find((value) => value !== undefined && isAbsolute(value)) ?? accountHome();
  return join(home, '.gobby');
}

/** The user's home as the system knows it (homedir() answers '' when HOME is set but empty). */
function accountHome(): string {
  const fromEnvironment = homedir();
  if (isAbsolute(fromEnvironment)) return fromEnvironment;
  try {
    return userInfo().homedir;
  } catch {
    return resolve(fromEnvironment);
  }
}

function daemonFilePath(home: string): string {
  return join(home, DAEMON_FILE_NAME);
}

/**
 * The port the daemon is configured to listen on: `GOBBY_PORT`, else
 * `$GOBBY_HOME/config.json` key `port`, else 7377. A value that is not a usable
 * TCP port is skipped rather than fatal: the client runs inside Claude Code and
 * must always produce an answer.
 */
export function resolveConfiguredPort(env: Env, home: string): number {
  const fromEnv = parsePort(env['GOBBY_PORT']?.trim());
  if (fromEnv !== null) return fromEnv;
  const config = readJsonObject(join(home, CONFIG_FILE_NAME));
  const fromConfig = config ? parsePort(config['port']) : null;
  return fromConfig ?? DEFAULT_DAEMON_PORT;
}

/**
 * Why the configured port cannot be used, or null when it can (or none is configured). The
 * hook clients stay lenient (resolveConfiguredPort); the daemon and the CLI refuse to start
 * or talk on a port the user did not mean, and say which setting is wrong.
 */
export function configuredPortProblem(env: Env, home: string): string | null {
  const fromEnv = env['GOBBY_PORT']?.trim();
  if (fromEnv) return parsePort(fromEnv) === null ? `GOBBY_PORT=${JSON.stringify(env['GOBBY_PORT'])} is not a TCP port: set a whole number from 1 to 65535, or unset it for ${DEFAULT_DAEMON_PORT}` : null;
  const configFile = join(home, CONFIG_FILE_NAME);
  const config = readJsonObject(configFile);
  // JSON's number, as the daemon's config schema (daemon/config.ts) takes it: "7000" is refused there too.
  if (!config || !Object.hasOwn(config, 'port') || (typeof config['port'] === 'number' && parsePort(config['port']) !== null)) return null;
  return `"port" in ${configFile} is ${JSON.stringify(config['port'])}, not a TCP port: set a whole number from 1 to 65535, or remove the key for ${DEFAULT_DAEMON_PORT}`;
}

/** The running daemon's file, or null when it is missing or malformed. Never throws. */
export function readDaemonFile(home: string): DaemonFile | null {
  const raw = readJsonObject(daemonFilePath(home));
  if (!raw) return null;
  const { pid, port, version, startedAt } = raw;
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return null;
  const validPort = parsePort(port);
  if (validPort === null) return null;
  if (typeof version !== 'string' || typeof startedAt !== 'string') return null;
  return { pid, port: validPort, version, startedAt };
}

function parsePort(value: unknown): number | null {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 65535) return null;
  return n;
}

function readJsonObject(file: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
    return parsed as Record<string, unknown>;
  } catch {
    return null;
  }
}
