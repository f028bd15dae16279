// Loopback-only hardening (design §3.9): a web page in the user's browser can reach
// 127.0.0.1 too, through DNS rebinding or a plain cross-origin POST. Requests must name a
// loopback Host, must not carry a browser Origin, and the control API needs the token.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from './send-error.js';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

function hostnameOf(hostHeader: string | undefined): string | undefined {
  if (!hostHeader) return undefined;
  if (hostHeader.startsWith('[')) return hostHeader.slice(0, hostHeader.indexOf(']') + 1);
  return hostHeader.split(':')[0];
}

/** Claude Code's hook posts carry no credentials; everything else needs the token. */
function isPublicRoute(route: string | undefined): boolean {
  return route === '/api/health' || route === '/hooks/:event';
}

export function createRequestGuard(options: { token: string }) {
  const expected = Buffer.from(`Bearer ${options.token}`);
  return async function guardRequest(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const hostname = hostnameOf(request.headers.host);
    if (!hostname || !LOOPBACK_HOSTS.has(hostname)) {
      return sendError(reply, 'GOBBY_ERR_HTTP_FORBIDDEN', `Host ${request.headers.host ?? '(none)'} is not a loopback address`);
    }
    if (request.headers.origin !== undefined) {
      return sendError(reply, 'GOBBY_ERR_HTTP_FORBIDDEN', 'requests from browsers (with an Origin header) are refused');
    }
    // Decide on the route fastify matched, not the raw URL: `/%61pi/status` is routed to
    // `/api/status` and must not slip past a prefix test on the undecoded path.
    if (!isPublicRoute(request.routeOptions.url)) {
      const given = Buffer.from(request.headers.authorization ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        return sendError(
          reply,
          'GOBBY_ERR_HTTP_FORBIDDEN',
          'the control API needs the token from $GOBBY_HOME/token (the gobby CLI sends it)',
        );
      }
    }
  };
}
