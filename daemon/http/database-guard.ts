// With a damaged database (store/database-health.ts) the daemon answers only what needs no
// database: who it is, how it is (`gobby daemon status`), and `gobby daemon stop`, the first
// step of the recovery. Everything else is refused with the way to recover, before a handler
// could read a broken page or write more into the file.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CONTROL_API } from '../contracts/control-api.js';
import { describeDatabaseDamage, type DatabaseHealth } from '../store/database-health.js';
import { sendError } from './send-error.js';

const WITHOUT_DATABASE: ReadonlySet<string> = new Set([CONTROL_API.health.path, CONTROL_API.identity.path, CONTROL_API.daemon.path, CONTROL_API.shutdown.path]);

export function createDatabaseGuard(health: DatabaseHealth, databasePath: string) {
  return async function guardDatabase(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const { ok, problem } = health.current();
    if (ok || WITHOUT_DATABASE.has(request.routeOptions.url ?? '')) return;
    return sendError(reply, 'GOBBY_ERR_DB_CORRUPT', describeDatabaseDamage(databasePath, problem ?? 'damaged'));
  };
}
