// The control API the gobby CLI talks to. Bodies and queries are checked with zod, answers
// are typed by the contract table (daemon/contracts/); the actor (who ran the command)
// comes from the CLI and goes into the audit log.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CONTROL_API, type AnswerOf, type ControlEndpointName } from '../contracts/control-api.js';
import type { ControlService } from '../control/control-service.js';
import { describeZodIssues } from '../../workflows/zod-issues.js';
import { gobbyError } from '../errors.js';
import type { OverrideClient, OverrideOrigin, OverrideOriginCheck } from '../provenance/override-origin.js';
import { parseDuration } from '../control/duration.js';
import type { DatabaseHealthView } from '../store/database-health.js';
import { claimedClientPid, peerOf } from './request-sender.js';

export interface DaemonInfo {
  readonly version: string;
  readonly home: string;
  readonly databasePath: string;
  readonly schemaVersion: number;
  readonly databaseHealth: () => DatabaseHealthView;
  readonly startedAt: number;
  readonly port: () => number | undefined;
  readonly activeSessions: () => number;
  readonly clock: () => number;
}

const selector = { cwd: z.string().min(1), session: z.string().min(1).optional() };
const querySelector = z.object(selector);
const phaseBody = z.object({ ...selector, phase: z.string().min(1), force: z.boolean().default(false), reason: z.string().optional() });
const overrideBody = z.object({ ...selector, reason: z.string().optional() });
const disableBody = overrideBody.extend({ for: z.string().optional() });
const auditQuery = z.object({
  cwd: z.string().min(1),
  session: z.string().min(1).optional(),
  tamper: z.enum(['true', 'false']).default('false'),
  limit: z.coerce.number().int().min(1).max(1000).default(50),
});
const setWorkflowBody = z.object({ cwd: z.string().min(1), workflow: z.string().min(1), reason: z.string().optional() });
const clearWorkflowBody = z.object({ cwd: z.string().min(1), reason: z.string().optional() });
const cwdOnly = z.object({ cwd: z.string().min(1) });

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value ?? {});
  if (!result.success) {
    throw gobbyError('GOBBY_ERR_HTTP_BAD_REQUEST', describeZodIssues(result.error.issues, '(body)'));
  }
  return result.data;
}

function actorOf(request: FastifyRequest): string {
  const header = request.headers['x-gobby-actor'];
  return typeof header === 'string' && header.trim() ? `cli:${header.trim().slice(0, 100)}` : 'cli';
}



function describeClient(client: OverrideClient): string {
  const user = client.user ?? (client.uid === null ? 'unknown user' : `uid ${client.uid}`);
  return `user ${user}, pid ${client.pid}, ${client.tty ? `tty ${client.tty}` : 'no tty'}`;
}

function clientDetail(client: OverrideClient) {
  return { user: client.user, uid: client.uid, pid: client.pid, comm: client.comm, tty: client.tty };
}

/** Who ran a human override, for its audit row: what the CLI says, and what the daemon saw. */
interface VerifiedActor {
  readonly actor: string;
  readonly detail: Readonly<Record<string, unknown>>;
}

/**
 * The service's views widen the literal `'all'` to `string`; the contract says a phase allows
 * every tool or a list of patterns, and this holds the answer to it.
 */
function toolPatterns(allowed: string | readonly string[]): 'all' | readonly string[] {
  if (typeof allowed !== 'string') return allowed;
  if (allowed === 'all') return 'all';
  throw gobbyError('GOBBY_ERR_INTERNAL', `a phase's allowed tools are neither a list nor "all": ${allowed}`);
}

type AnswerOfEndpoint<Name extends ControlEndpointName> = AnswerOf<(typeof CONTROL_API)[Name]>;

/**
 * Registers one endpoint of the contract table. The handler must return the endpoint's
 * answer type, so a service whose answer drifts from the schema the CLI parses with
 * fails to compile here. (The endpoint goes by name: inferring it from the table entry
 * would widen the handler's literals, `ok: true` to boolean, before the check.)
 */
function serve<Name extends ControlEndpointName>(
  app: FastifyInstance,
  name: Name,
  handler: (request: FastifyRequest<{ Params: Record<string, string> }>) => AnswerOfEndpoint<Name> | Promise<AnswerOfEndpoint<Name>>,
): void {
  const { method, path } = CONTROL_API[name];
  app.route<{ Params: Record<string, string> }>({ method, url: path, handler: async (request) => handler(request) });
}

export function registerControlRoutes(
  app: FastifyInstance,
  control: ControlService,
  info: DaemonInfo,
  shutdown: () => void,
  overrideOrigin: OverrideOriginCheck,
): void {
  /**
   * The decisive human-only check: an override sent by a process that a Claude Code
   * session's tools started is refused and recorded as `tamper:override`, however the agent
   * spelled or detached it. The CLI's own CLAUDECODE check is only a first line.
   */
  function humanOnly(request: FastifyRequest, endpoint: ControlEndpointName, target: { cwd?: string; session?: string | undefined }): VerifiedActor {
    const claimed = actorOf(request);
    const origin: OverrideOrigin = overrideOrigin.check(peerOf(request.raw.socket), claimedClientPid(request));
    switch (origin.kind) {
      case 'unverified':
        return { actor: claimed, detail: { by: { verified: false, why: origin.why } } };
      case 'human':
        return {
          actor: `${claimed} (${describeClient(origin.client)})`,
          detail: { by: { verified: true, ...clientDetail(origin.client) } },
        };
      case 'unknown':
      case 'agent': {
        const sender = origin.kind === 'agent' ? `pid ${origin.client.pid} (${origin.client.comm})` : 'a process gobby could not identify';
        const why =
          origin.kind === 'agent'
            ? `${sender} was started by the tools of Claude Code session ${origin.claudeCode.sessionId}: ${origin.signals.join('; ')}`
            : `${sender} (${origin.why}), so it cannot be told apart from the agent's`;
        control.recordRefusedOverride({
          endpoint,
          cwd: target.cwd,
          agentSessionId: origin.kind === 'agent' ? origin.claudeCode.sessionId : target.session,
          actor: origin.kind === 'agent' ? `process:${origin.client.comm}[${origin.client.pid}]` : 'process:unknown',
          because: `override ${endpoint} refused: ${why}`,
          detail: {
            claimed_actor: claimed,
            ...(origin.kind === 'agent'
              ? { by: clientDetail(origin.client), claude_code: origin.claudeCode, signals: origin.signals }
              : { why: origin.why }),
          },
        });
        request.log.warn({ endpoint, why }, 'override from an agent refused');
        throw gobbyError(
          'GOBBY_ERR_OVERRIDE_FROM_AGENT',
          `gobby: \`${endpoint}\` is a human-only override and was refused: ${why}. Only the user, from their own terminal, can run it. ` +
            'This attempt is recorded for the user.',
        );
      }
    }
  }

  serve(app, 'health', () => ({ ok: true, name: 'gobby', version: info.version, pid: process.pid, home: info.home }));

  serve(app, 'identity', () => ({
    name: 'gobby',
    version: info.version,
    home: info.home,
    pid: process.pid,
    port: info.port() ?? null,
    startedAt: new Date(info.startedAt).toISOString(),
  }));

  serve(app, 'daemon', () => ({
    ok: info.databaseHealth().ok,
    version: info.version,
    pid: process.pid,
    port: info.port() ?? null,
    home: info.home,
    database: info.databasePath,
    schema_version: info.schemaVersion,
    database_health: info.databaseHealth(),
    started_at: new Date(info.startedAt).toISOString(),
    uptime_seconds: Math.round((info.clock() - info.startedAt) / 1000),
    active_sessions: info.activeSessions(),
    memory_rss_bytes: process.memoryUsage().rss,
  }));

  serve(app, 'shutdown', (request) => {
    humanOnly(request, 'shutdown', {});
    setImmediate(shutdown);
    return { ok: true, stopping: true };
  });

  serve(app, 'status', (request) => {
    const query = parse(querySelector, request.query);
    const view = control.status({ cwd: query.cwd, sessionId: query.session });
    return view.workflow === null ? view : { ...view, allowed_tools: toolPatterns(view.allowed_tools) };
  });

  serve(app, 'statusLine', (request) => {
    const query = parse(querySelector, request.query);
    return control.statusLine({ cwd: query.cwd, sessionId: query.session });
  });

  serve(app, 'audit', (request) => {
    const query = parse(auditQuery, request.query);
    return control.auditRows({ cwd: query.cwd, sessionId: query.session, tamperOnly: query.tamper === 'true', limit: query.limit });
  });

  serve(app, 'listWorkflows', (request) => control.listWorkflows(parse(cwdOnly, request.query).cwd));

  serve(app, 'showWorkflow', (request) => {
    const shown = control.showWorkflow(parse(cwdOnly, request.query).cwd, request.params.name ?? '');
    return { ...shown, phases: shown.phases.map((phase) => ({ ...phase, allowed_tools: toolPatterns(phase.allowed_tools) })) };
  });

  serve(app, 'setWorkflow', (request) => {
    const body = parse(setWorkflowBody, request.body);
    return control.setProjectWorkflow({ ...body, ...humanOnly(request, 'setWorkflow', body) });
  });

  serve(app, 'clearWorkflow', (request) => {
    const body = parse(clearWorkflowBody, request.body);
    return control.clearProjectWorkflow({ ...body, ...humanOnly(request, 'clearWorkflow', body) });
  });

  serve(app, 'changePhase', (request) => {
    const body = parse(phaseBody, request.body);
    return control.changePhase({ ...body, sessionId: body.session, ...humanOnly(request, 'changePhase', body) });
  });

  serve(app, 'reset', (request) => {
    const body = parse(overrideBody, request.body);
    return control.reset({ ...body, sessionId: body.session, ...humanOnly(request, 'reset', body) });
  });

  serve(app, 'disable', (request) => {
    const body = parse(disableBody, request.body);
    const verified = humanOnly(request, 'disable', body);
    const forMs = body.for === undefined ? undefined : parseDuration(body.for);
    return control.setDisabled({ ...body, sessionId: body.session, ...verified, disabled: true, forMs });
  });

  serve(app, 'enable', (request) => {
    const body = parse(overrideBody, request.body);
    return control.setDisabled({ ...body, sessionId: body.session, ...humanOnly(request, 'enable', body), disabled: false });
  });
}
