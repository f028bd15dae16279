// POST /hooks/<EventName>: Claude Code's payload in, Claude Code's hook JSON out.
import type { FastifyInstance } from 'fastify';
import { isKnownHookEvent, parseHookPayload } from '../../hooks/payloads.js';
import type { HookService } from '../hook-service.js';
import { sendError } from './send-error.js';

export function registerHookRoutes(app: FastifyInstance, hookService: HookService): void {
  app.post<{ Params: { event: string } }>('/hooks/:event', async (request, reply) => {
    const { event } = request.params;
    if (!isKnownHookEvent(event)) {
      // Claude Code has events gobby does not use; answering {} lets them pass untouched.
      request.log.debug({ event }, 'unknown hook event answered with {}');
      return {};
    }
    const parsed = parseHookPayload(event, request.body);
    if (!parsed.ok) {
      request.log.warn({ event, problem: parsed.message }, 'rejected hook payload');
      return sendError(reply, 'GOBBY_ERR_HOOK_INVALID_PAYLOAD', parsed.message);
    }
    const answer = hookService.handle(event, parsed.payload);
    // Every decision is in the audit log (`gobby workflow status`); the daemon log keeps
    // denials only at debug level, so it records problems rather than routine work.
    const output = answer.hookSpecificOutput as { permissionDecision?: string } | undefined;
    if (output?.permissionDecision === 'deny' || answer.decision === 'block') {
      request.log.debug({ event, session: parsed.payload.session_id, tool: parsed.payload.tool_name }, 'hook denied');
    }
    return answer;
  });
}
