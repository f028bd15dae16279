// POST /hooks/<EventName>: the boundary with Claude Code. The hooks/ adapter turns the
// payload into a typed engine event, the sender is checked to be the session's Claude Code
// process, the service decides, and the adapter renders the answer.
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isKnownHookEvent, parseHookEvent } from '../../hooks/payloads.js';
import { renderHookAnswer } from '../../hooks/render.js';
import type { EngineEvent, EventOrigin } from '../../workflows/index.js';
import type { HookService } from '../hook-service.js';
import type { EventProvenance, Provenance } from '../provenance/event-provenance.js';
import { claimedClientPid, peerOf } from './request-sender.js';
import { sendError } from './send-error.js';


export function registerHookRoutes(app: FastifyInstance, hookService: HookService, provenance: EventProvenance): void {
  // Claude Code keeps one connection open for its hook posts, and a connection belongs to one
  // process: its sender, once known for a session, needs no second look at /proc. A forged
  // verdict is not kept, so every forged request is refused and recorded again.
  const senders = new WeakMap<Socket, Map<string, Provenance>>();

  function checkSender(request: FastifyRequest, origin: EventOrigin, event: EngineEvent): Provenance {
    const socket = request.raw.socket;
    const known = senders.get(socket)?.get(origin.sessionId);
    if (known) return known;
    const peer = peerOf(socket);
    const result =
      event.name === 'SessionStart'
        ? provenance.checkSessionStart(origin.sessionId, peer, claimedClientPid(request))
        : provenance.checkHttpEvent(origin.sessionId, peer);
    // The SessionStart client's connection is short-lived; only Claude Code's own is reused.
    if (result.kind !== 'forged' && event.name !== 'SessionStart') {
      const sessions = senders.get(socket) ?? new Map<string, Provenance>();
      sessions.set(origin.sessionId, result.kind === 'claude-code' ? { kind: 'claude-code', process: result.process } : result);
      senders.set(socket, sessions);
    }
    return result;
  }

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
    const sender = checkSender(request, parsed.origin, parsed.event);
    if (sender.kind === 'forged') {
      hookService.refuseForged(parsed.origin, parsed.event, sender);
      request.log.warn({ event: eventName, session: parsed.origin.sessionId, why: sender.why }, 'forged hook event refused');
      return sendError(
        reply,
        'GOBBY_ERR_HOOK_FORGED',
        `gobby: this ${eventName} event was ${sender.why}. Hook events come from Claude Code itself; this attempt is recorded for the user.`,
      );
    }
    // The SessionStart client says how the session's hooks were installed (strict or lenient).
    const said = request.headers['x-gobby-failure-mode'];
    const failureMode: EventOrigin['failureMode'] = said === 'strict' || said === 'lenient' ? said : undefined;
    const origin: EventOrigin = failureMode ? { ...parsed.origin, failureMode } : parsed.origin;
    const { decision } = hookService.handle(origin, parsed.event, sender);
    // Every decision is in the audit log (`gobby workflow status`); the daemon log keeps
    // denials only at debug level, so it records problems rather than routine work.
    if (decision?.kind === 'deny') request.log.debug({ event: eventName, session: parsed.origin.sessionId }, 'hook denied');
    return renderHookAnswer(eventName, decision);
  });
}
