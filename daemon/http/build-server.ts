// The fastify app factory: routes, guards and the error shape. It never listens and
// never opens the database; daemon/main.ts does both (design §4).
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { GOBBY_VERSION_HEADER } from '../contracts/control-api.js';
import type { ControlService } from '../control/control-service.js';
import type { HookService } from '../hook-service.js';
import type { EventProvenance } from '../provenance/event-provenance.js';
import type { OverrideOriginCheck } from '../provenance/override-origin.js';
import { clientErrorAnswer } from './client-error.js';
import { discardRestOfBody } from './discard-body.js';
import { registerControlRoutes, type DaemonInfo } from './control-routes.js';
import { registerHookRoutes } from './hook-routes.js';
import { registerJsonBodyParser } from './json-body.js';
import { createRequestGuard } from './security.js';
import { createDatabaseGuard } from './database-guard.js';
import { describeDatabaseDamage, isDatabaseDamage, type DatabaseHealth } from '../store/database-health.js';
import { describeError, sendError } from './send-error.js';

export interface ServerDeps {
  readonly hookService: HookService;
  readonly provenance: EventProvenance;
  /** Who sent an override: the human, or a process a Claude Code session's tools started. */
  readonly overrideOrigin: OverrideOriginCheck;
  readonly controlService: ControlService;
  readonly info: DaemonInfo;
  readonly token: string;
  readonly logger: FastifyServerOptions['loggerInstance'] | false;
  /** Largest request body accepted. Write payloads carry whole files, so this is generous. */
  readonly bodyLimitBytes: number;
  readonly shutdown: () => void;
  /** Whether gobby.db can be used; a damaged one is never written to again. */
  readonly databaseHealth: DatabaseHealth;
  /** Called as each request arrives, before anything else (the idle collector's clock). */
  readonly requestArrived?: () => void;
}

export function buildServer(deps: ServerDeps): FastifyInstance {
  const answerError = (error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    if (isDatabaseDamage(error)) {
      // Damage a query met: from now on every request that needs the database is refused (database-guard.ts).
      deps.databaseHealth.markDamaged((error as Error).message);
      request.log.error({ err: error, url: request.url }, 'the database is damaged');
      return sendError(reply, 'GOBBY_ERR_DB_CORRUPT', describeDatabaseDamage(deps.info.databasePath, (error as Error).message));
    }
    const answer = describeError(error, request, { bodyLimitBytes: deps.bodyLimitBytes });
    request.log[answer.level]({ err: error, url: request.url, code: answer.code }, answer.message);
    return sendError(reply, answer.code, answer.message);
  };

  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: false }),
    bodyLimit: deps.bodyLimitBytes,
    // Requests node's parser refuses never reach fastify's handlers.
    clientErrorHandler: clientErrorAnswer(deps.info.version),
    // Bad URLs fail before routing, where neither the hooks nor the error handler run.
    frameworkErrors: (error, request, reply) => answerError(error, request, reply.header(GOBBY_VERSION_HEADER, deps.info.version)),
    // Two log lines per tool call would dominate the daemon's work; decisions are logged
    // by the hook route instead, and every event is in the audit log.
    logController: new LogController({ disableRequestLogging: true }),
  }) as unknown as FastifyInstance;

  registerJsonBodyParser(app);
  // Marks every answer as gobby's, so the CLI can tell it from another program on the port.
  const requestArrived = deps.requestArrived;
  app.addHook('onRequest', (_request, reply, done) => {
    requestArrived?.();
    reply.header(GOBBY_VERSION_HEADER, deps.info.version);
    done();
  });
  app.addHook('onRequest', createRequestGuard({ token: deps.token, home: deps.info.home, port: deps.info.port }));
  app.addHook('onRequest', createDatabaseGuard(deps.databaseHealth, deps.info.databasePath));

  app.setErrorHandler(async (error, request, reply) => {
    // The client may still be sending the body it is refused: it reads the answer only once it has sent it all.
    if ((error as { code?: unknown }).code === 'FST_ERR_CTP_BODY_TOO_LARGE') await discardRestOfBody(request.raw);
    return answerError(error, request, reply);
  });

  app.setNotFoundHandler((request, reply) => sendError(reply, 'GOBBY_ERR_HTTP_NOT_FOUND', `no route ${request.method} ${request.url}`));

  registerHookRoutes(app, deps.hookService, deps.provenance);
  registerControlRoutes(app, deps.controlService, deps.info, deps.shutdown, deps.overrideOrigin);
  return app;
}
