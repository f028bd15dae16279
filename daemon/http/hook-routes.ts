// POST /hooks/<EventName>: the boundary with Claude Code. The hooks/ adapter turns the
// payload into a typed engine event, the service decides, the adapter renders the answer.
import type { FastifyInstance } from 'fastify';
import { isKnownHookEvent, parseHookEvent } from '../../hooks/payloads.js';
import { renderHookAnswer } from '../../hooks/render.js';
import type { HookService } from '../hook-service.js';
import { sendError } from './send-error.js';

export function registerHookRoutes(app: FastifyInstance, hookService: HookService): void {
  app.post<{ Params: { event: string } }>('/hooks/:event', async (request, reply) => {
    const { event: eventName } = request.params;
    if (!isKnownHookEvent(eventName)) {
      // Claude Code has events gobby does not use; answering {} lets them pass untouched.
      request.log.debug({ event: eventName }, 'unknown hook event answered with {}');
      return {};
    }
    const parsed = parseHookEvent(eventName, request.body);
    if (!parsed.ok) {
      request.log.warn({ event: eventName, problem: parsed.message }, 'rejected hook payload');
      return sendError(reply, 'GOBBY_ERR_HOOK_INVALID_PAYLOAD', parsed.message);
    }
    const { decision } = hookService.handle(parsed.origin, parsed.event);
    // Every decision is in the audit log (`gobby workflow status`); the daemon log keeps
    // denials only at debug level, so it records problems rather than routine work.
    if (decision?.kind === 'deny') request.log.debug({ event: eventName, session: parsed.origin.sessionId }, 'hook denied');
    return renderHookAnswer(eventName, decision);
  });
}
