// The control API the gobby CLI talks to. Bodies and queries are checked with zod; the
// actor (who ran the command) comes from the CLI and goes into the audit log.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ControlService } from '../control/control-service.js';
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
    const problems = result.error.issues.map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`);
    throw gobbyError('GOBBY_ERR_HTTP_BAD_REQUEST', problems.join('; '));
  }
  return result.data;
}

function actorOf(request: FastifyRequest): string {
  const header = request.headers['x-gobby-actor'];
  return typeof header === 'string' && header.trim() ? `cli:${header.trim().slice(0, 100)}` : 'cli';
}

export function registerControlRoutes(app: FastifyInstance, control: ControlService, info: DaemonInfo, shutdown: () => void): void {
  app.get('/api/health', async () => ({ ok: true, name: 'gobby', version: info.version, pid: process.pid, home: info.home }));

  app.get('/api/daemon', async () => ({
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

  app.post('/api/shutdown', async () => {
    setImmediate(shutdown);
    return { ok: true, stopping: true };
  });

  app.get('/api/status', async (request) => {
    const query = parse(querySelector, request.query);
    return control.status({ cwd: query.cwd, sessionId: query.session });
  });

  app.get('/api/workflows', async (request) => control.listWorkflows(parse(cwdOnly, request.query).cwd));

  app.get<{ Params: { name: string } }>('/api/workflows/:name', async (request) =>
    control.showWorkflow(parse(cwdOnly, request.query).cwd, request.params.name),
  );

  app.put('/api/projects/workflow', async (request) => {
    const body = parse(setWorkflowBody, request.body);
    return control.setProjectWorkflow({ ...body, actor: actorOf(request) });
  });

  app.post('/api/projects/workflow/clear', async (request) => {
    const body = parse(clearWorkflowBody, request.body);
    return control.clearProjectWorkflow({ ...body, actor: actorOf(request) });
  });

  app.post('/api/sessions/phase', async (request) => {
    const body = parse(phaseBody, request.body);
    return control.changePhase({ ...body, sessionId: body.session, actor: actorOf(request) });
  });

  app.post('/api/sessions/reset', async (request) => {
    const body = parse(overrideBody, request.body);
    return control.reset({ ...body, sessionId: body.session, actor: actorOf(request) });
  });

  for (const [path, disabled] of [['/api/sessions/disable', true], ['/api/sessions/enable', false]] as const) {
    app.post(path, async (request) => {
      const body = parse(overrideBody, request.body);
      return control.setDisabled({ ...body, sessionId: body.session, actor: actorOf(request), disabled });
    });
  }
}
