// The fastify app factory: routes, guards and the error shape. It never listens and
// never opens the database; daemon/main.ts does both (design §4).
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { GobbyError } from '../errors.js';
import type { ControlService } from '../control/control-service.js';
import type { HookService } from '../hook-service.js';
import type { EventProvenance } from '../provenance/event-provenance.js';
import { registerControlRoutes, type DaemonInfo } from './control-routes.js';
import { registerHookRoutes } from './hook-routes.js';
import { registerJsonBodyParser } from './json-body.js';
import { createRequestGuard } from './security.js';
import { sendError } from './send-error.js';

export interface ServerDeps {
  readonly hookService: HookService;
  readonly provenance: EventProvenance;
  readonly controlService: ControlService;
  readonly info: DaemonInfo;
  readonly token: string;
  readonly logger: FastifyServerOptions['loggerInstance'] | false;
  /** Largest request body accepted. Write payloads carry whole files, so this is generous. */
  readonly bodyLimitBytes: number;
  readonly shutdown: () => void;
}

export function buildServer(deps: ServerDeps): FastifyInstance {
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: false }),
    bodyLimit: deps.bodyLimitBytes,
    // Two log lines per tool call would dominate the daemon's work; decisions are logged
    // by the hook route instead, and every event is in the audit log.
    logController: new LogController({ disableRequestLogging: true }),
  }) as unknown as FastifyInstance;

  registerJsonBodyParser(app);
  app.addHook('onRequest', createRequestGuard({ token: deps.token, port: deps.info.port }));

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof GobbyError) {
      if (error.code === 'GOBBY_ERR_WORKFLOW_PINNED_INVALID') request.log.error({ err: error }, error.message);
      return sendError(reply, error.code, error.message);
    }
    const fastifyError = error as { statusCode?: number; code?: string; message: string };
    if (fastifyError.statusCode === 413) {
      request.log.warn({ url: request.url }, 'request body too large');
      return sendError(reply, 'GOBBY_ERR_HTTP_TOO_LARGE', `request body exceeds ${deps.bodyLimitBytes} bytes`);
    }
    if (fastifyError.statusCode !== undefined && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
      const message = fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || /JSON/.test(fastifyError.message)
        ? `malformed JSON body: ${fastifyError.message}`
        : fastifyError.message;
      request.log.warn({ url: request.url, code: fastifyError.code, message }, 'bad request');
      return reply.code(fastifyError.statusCode).send({ error: { code: 'GOBBY_ERR_HTTP_BAD_REQUEST', message } });
    }
    request.log.error({ err: error, url: request.url }, 'internal error');
    return sendError(reply, 'GOBBY_ERR_INTERNAL', `internal error: ${fastifyError.message}`);
  });

  app.setNotFoundHandler((request, reply) => sendError(reply, 'GOBBY_ERR_HTTP_NOT_FOUND', `no route ${request.method} ${request.url}`));

  registerHookRoutes(app, deps.hookService, deps.provenance);
  registerControlRoutes(app, deps.controlService, deps.info, deps.shutdown);
  return app;
}
