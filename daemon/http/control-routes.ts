// The control API the gobby CLI talks to. Bodies and queries are checked with zod, answers
// are typed by the contract table (daemon/contracts/); the actor (who ran the command)
// comes from the CLI and goes into the audit log.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CONTROL_API, type AnswerOf, type ControlEndpointName } from '../contracts/control-api.js';
import type { ControlService } from '../control/control-service.js';
import { describeZodIssues } from '../../workflows/zod-issues.js';
import { gobbyError } from '../errors.js';

export interface DaemonInfo {
  readonly version: string;
  readonly home: string;
  readonly databasePath: string;
  readonly schemaVersion: number;
  readonly startedAt: number;
  readonly port: () => number | undefined;
  readonly activeSessions: () => number;
  readonly clock: () => number;
}

const selector = { cwd: z.string().min(1), session: z.string().min(1).optional() };
const querySelector = z.object(selector);
const phaseBody = z.object({ ...selector, phase: z.string().min(1), force: z.boolean().default(false), reason: z.string().optional() });
const overrideBody = z.object({ ...selector, reason: z.string().optional() });
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

export function registerControlRoutes(app: FastifyInstance, control: ControlService, info: DaemonInfo, shutdown: () => void): void {
  serve(app, 'health', () => ({ ok: true, name: 'gobby', version: info.version, pid: process.pid, home: info.home }));

  serve(app, 'daemon', () => ({
    ok: true,
    version: info.version,
    pid: process.pid,
    port: info.port() ?? null,
    home: info.home,
    database: info.databasePath,
    schema_version: info.schemaVersion,
    started_at: new Date(info.startedAt).toISOString(),
    uptime_seconds: Math.round((info.clock() - info.startedAt) / 1000),
    active_sessions: info.activeSessions(),
    memory_rss_bytes: process.memoryUsage().rss,
  }));

  serve(app, 'shutdown', () => {
    setImmediate(shutdown);
    return { ok: true, stopping: true };
  });

  serve(app, 'status', (request) => {
    const query = parse(querySelector, request.query);
    const view = control.status({ cwd: query.cwd, sessionId: query.session });
    return view.workflow === null ? view : { ...view, allowed_tools: toolPatterns(view.allowed_tools) };
  });

  serve(app, 'listWorkflows', (request) => control.listWorkflows(parse(cwdOnly, request.query).cwd));

  serve(app, 'showWorkflow', (request) => {
    const shown = control.showWorkflow(parse(cwdOnly, request.query).cwd, request.params.name ?? '');
    return { ...shown, phases: shown.phases.map((phase) => ({ ...phase, allowed_tools: toolPatterns(phase.allowed_tools) })) };
  });

  serve(app, 'setWorkflow', (request) => {
    const body = parse(setWorkflowBody, request.body);
    return control.setProjectWorkflow({ ...body, actor: actorOf(request) });
  });

  serve(app, 'clearWorkflow', (request) => {
    const body = parse(clearWorkflowBody, request.body);
    return control.clearProjectWorkflow({ ...body, actor: actorOf(request) });
  });

  serve(app, 'changePhase', (request) => {
    const body = parse(phaseBody, request.body);
    return control.changePhase({ ...body, sessionId: body.session, actor: actorOf(request) });
  });

  serve(app, 'reset', (request) => {
    const body = parse(overrideBody, request.body);
    return control.reset({ ...body, sessionId: body.session, actor: actorOf(request) });
  });

  for (const [endpoint, disabled] of [['disable', true], ['enable', false]] as const) {
    serve(app, endpoint, (request) => {
      const body = parse(overrideBody, request.body);
      return control.setDisabled({ ...body, sessionId: body.session, actor: actorOf(request), disabled });
    });
  }
}
