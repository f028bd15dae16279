// The CLI is an HTTP client of the daemon (design §3.2: the daemon is the only writer).
// Every answer is parsed with the endpoint's schema from daemon/contracts/: what the CLI
// prints is what the contract says, and anything else becomes a catalog error. Every
// request says which GOBBY_HOME it is for, and the daemon of another home refuses it
// (GOBBY_ERR_HTTP_WRONG_DAEMON); an answer without gobby's version header is another
// program's, and is never printed.
import { hostname, userInfo } from 'node:os';
import type { z } from 'zod';
import { CLIENT_PID_HEADER, describePortConflict, GOBBY_HOME_HEADER, locateDaemon as locateDaemonOf } from '../../hooks/daemon-locator.js';
import { configuredPortProblem } from '../../hooks/daemon-file.js';
import { gobbyError, type GobbyError } from '../../hooks/errors.js';
import { loopbackFetch, type FetchLikeResponse } from '../../hooks/loopback-fetch.js';
import { GOBBY_VERSION_HEADER, type AnswerOf, type ControlEndpoint } from '../contracts/control-api.js';
import { errorAnswer } from '../contracts/error-answer.js';
import { readControlToken } from '../control-token.js';
import { homeLayout, type HomeLayout } from '../home-layout.js';
import { PACKAGE_VERSION } from '../package-info.js';

export interface DaemonAddress {
  readonly layout: HomeLayout;
  readonly port: number;
  readonly baseUrl: string;
}

/** Where this home's daemon answers; a port setting that is not a port is the user's error, not 7377. */
export function locateDaemon(env: Record<string, string | undefined>): DaemonAddress {
  const { home, port, baseUrl } = locateDaemonOf(env);
  const problem = configuredPortProblem(env, home);
  if (problem) throw gobbyError('GOBBY_ERR_CLI_CONFIG_INVALID', problem);
  return { layout: homeLayout(home), port, baseUrl };
}

interface DaemonRequest {
  /** Values for the `:name` segments of the endpoint's path. */
  readonly params?: Readonly<Record<string, string>>;
  /** Query parameters; undefined ones are left out. */
  readonly query?: Readonly<Record<string, string | undefined>>;
  readonly body?: unknown;
}

const REQUEST_TIMEOUT_MS = 5000;

/** Calls one endpoint of the control API and returns its answer, parsed with the endpoint's schema. */
export async function callDaemon<Endpoint extends ControlEndpoint>(
  address: DaemonAddress,
  endpoint: Endpoint,
  request: DaemonRequest = {},
): Promise<AnswerOf<Endpoint>> {
  const path = pathFor(endpoint, request);
  const token = readControlToken(address.layout.token);
  let response: FetchLikeResponse;
  try {
    response = await loopbackFetch(`${address.baseUrl}${path}`, {
      method: endpoint.method,
      headers: {
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        'x-gobby-actor': actorName(),
        [GOBBY_HOME_HEADER]: address.layout.home,
        // The daemon checks in /proc that this process holds the connection, then who started
        // it: an override from a process an agent's tools started is refused.
        [CLIENT_PID_HEADER]: String(process.pid),
      },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    if (timedOut(error)) {
      throw gobbyError(
        'GOBBY_ERR_CLI_DAEMON_UNREACHABLE',
        `the gobby daemon on 127.0.0.1:${address.port} (GOBBY_HOME=${address.layout.home}) did not answer within ${REQUEST_TIMEOUT_MS / 1000} s: ` +
          'it is running but busy or stuck; `gobby daemon status` and its log say more',
      );
    }
    throw gobbyError(
      'GOBBY_ERR_CLI_DAEMON_UNREACHABLE',
      `the gobby daemon is not running (nothing answers on 127.0.0.1:${address.port}; GOBBY_HOME=${address.layout.home}; ` +
        `${describeFetchError(error)}). Start it with: gobby daemon start`,
    );
  }
  return readAnswer<Endpoint['answer']>(address, `${endpoint.method} ${endpoint.path}`, response, endpoint.answer);
}

async function readAnswer<Schema extends z.ZodType>(
  address: DaemonAddress,
  what: string,
  response: FetchLikeResponse,
  schema: Schema,
): Promise<z.infer<Schema>> {
  const text = await response.text();
  const daemonVersion = response.header(GOBBY_VERSION_HEADER);
  if (daemonVersion === undefined) throw notGobby(address, response);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw badAnswer(address, what, daemonVersion, `HTTP ${response.status}, not JSON`);
  }
  if (response.status < 200 || response.status > 299) {
    const failure = errorAnswer.safeParse(json);
    if (!failure.success) throw badAnswer(address, what, daemonVersion, `HTTP ${response.status} without a gobby error code`);
    throw gobbyError(failure.data.error.code, failure.data.error.message);
  }
  const answer = schema.safeParse(json);
  if (!answer.success) throw badAnswer(address, what, daemonVersion, describeIssues(answer.error));
  return answer.data;
}

function notGobby(address: DaemonAddress, response: FetchLikeResponse): GobbyError {
  const contentType = response.header('content-type')?.split(';')[0]?.trim() || 'no content-type';
  return gobbyError(
    'GOBBY_ERR_CLI_NOT_GOBBY',
    describePortConflict({ kind: 'not-gobby', status: response.status, contentType }, address.port, address.layout.home),
  );
}

function badAnswer(address: DaemonAddress, what: string, daemonVersion: string, problem: string): GobbyError {
  return gobbyError(
    'GOBBY_ERR_CLI_BAD_ANSWER',
    `the gobby daemon on 127.0.0.1:${address.port} (version ${daemonVersion}) answered ${what} with something ` +
      `this CLI (version ${PACKAGE_VERSION}) cannot read: ${problem}. Restart the daemon so both run the same version: ` +
      'gobby daemon stop && gobby daemon start',
  );
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || '(answer)'}: ${issue.message}`)
    .join('; ');
}

function pathFor(endpoint: ControlEndpoint, request: DaemonRequest): string {
  const path = endpoint.path.replace(/:(\w+)/g, (_segment, name: string) => encodeURIComponent(request.params?.[name] ?? ''));
  const query = new URLSearchParams(
    Object.entries(request.query ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined),
  ).toString();
  return query ? `${path}?${query}` : path;
}

function actorName(): string {
  try {
    return `${userInfo().username}@${hostname()}`;
  } catch {
    return 'unknown';
  }
}

/** The request's own timeout (AbortSignal.timeout) fired: something holds the port but did not answer. */
function timedOut(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  return name === 'TimeoutError' || name === 'AbortError';
}

function describeFetchError(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  if (timedOut(error)) return 'timed out';
  return code ?? message ?? String(error);
}
