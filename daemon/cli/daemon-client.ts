// The CLI is an HTTP client of the daemon (design §3.2: the daemon is the only writer).
import { hostname, userInfo } from 'node:os';
import { locateDaemon as locateDaemonOf } from '../../hooks/daemon-locator.js';
import { readControlToken } from '../control-token.js';
import { homeLayout, type HomeLayout } from '../home-layout.js';
import { loopbackFetch, type FetchLikeResponse } from '../../hooks/loopback-fetch.js';

export class CliError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

export interface DaemonAddress {
  readonly layout: HomeLayout;
  readonly port: number;
  readonly baseUrl: string;
}

export function locateDaemon(env: Record<string, string | undefined>): DaemonAddress {
  const { home, port, baseUrl } = locateDaemonOf(env);
  return { layout: homeLayout(home), port, baseUrl };
}

const REQUEST_TIMEOUT_MS = 5000;

export async function callDaemon<T>(
  address: DaemonAddress,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body?: unknown,
): Promise<T> {
  const token = readControlToken(address.layout.token);
  let response: FetchLikeResponse;
  try {
    response = await loopbackFetch(`${address.baseUrl}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        'x-gobby-actor': actorName(),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    throw new CliError(
      `the gobby daemon is not running (nothing answers on 127.0.0.1:${address.port}; GOBBY_HOME=${address.layout.home}).\n` +
        `Start it with: gobby daemon start   (${describeFetchError(error)})`,
      'GOBBY_ERR_CLI_DAEMON_UNREACHABLE',
      2,
    );
  }
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    throw new CliError(`unexpected answer from 127.0.0.1:${address.port} (HTTP ${response.status}): ${text.slice(0, 200)}`, 'GOBBY_ERR_CLI_BAD_ANSWER');
  }
  if (response.status < 200 || response.status > 299) {
    const error = (json as { error?: { code?: string; message?: string } }).error;
    throw new CliError(error?.message ?? `HTTP ${response.status}`, error?.code ?? 'GOBBY_ERR_CLI_BAD_ANSWER');
  }
  return json as T;
}

function actorName(): string {
  try {
    return `${userInfo().username}@${hostname()}`;
  } catch {
    return 'unknown';
  }
}

function describeFetchError(error: unknown): string {
  const { code, name, message } = error as { code?: string; name?: string; message?: string };
  if (name === 'TimeoutError' || name === 'AbortError') return 'timed out';
  return code ?? message ?? String(error);
}
