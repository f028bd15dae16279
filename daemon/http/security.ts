// Loopback-only hardening (design §3.9): a web page in the user's browser can reach
// 127.0.0.1 too, through DNS rebinding or a plain cross-origin POST. Requests must name a
// loopback Host, must not carry a browser Origin, and the control API needs the token.
// A client that says which GOBBY_HOME it belongs to is refused by the daemon of another.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { describeWrongHome, GOBBY_HOME_HEADER, IDENTITY_PATH, sameGobbyHome } from '../../hooks/daemon-locator.js';
import { truncate } from '../../hooks/truncate.js';
import { sendError } from './send-error.js';

// The whole Host header, exactly: a loopback name and, when given, a port. Anything else
// (`127.0.0.1.evil.example`, `localhost:7377@evil`, a name a rebinding DNS points here) is
// refused.
const LOOPBACK_HOST = /^(?:127\.0\.0\.1|localhost|\[::1\])(?::(\d{1,5}))?$/i;

/**
 * Whether `hostHeader` names this daemon. `port` is where it listens, once it does (an app
 * under `inject()` listens nowhere, so any port is taken); a Host without a port means 80.
 */
export function isOwnHost(hostHeader: string | undefined, port: number | undefined): boolean {
  const match = hostHeader === undefined ? null : LOOPBACK_HOST.exec(hostHeader);
  if (!match) return false;
  if (port === undefined) return true;
  return Number(match[1] ?? 80) === port;
}

/** Claude Code's hook posts carry no credentials, nor do the questions "are you up" and "who are you"; everything else needs the token. */
function isPublicRoute(route: string | undefined): boolean {
  return route === '/api/health' || route === IDENTITY_PATH || route === '/hooks/:event';
}

/** Longest client GOBBY_HOME quoted back in a refusal. */
const QUOTED_HOME_LIMIT = 500;

export function createRequestGuard(options: { token: string; home: string; port: () => number | undefined }) {
  const expected = Buffer.from(`Bearer ${options.token}`);
  return async function guardRequest(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (!isOwnHost(request.headers.host, options.port())) {
      return sendError(
        reply,
        'GOBBY_ERR_HTTP_FORBIDDEN',
        `Host ${JSON.stringify(request.headers.host ?? '(none)')} is not this daemon's loopback address and port`,
      );
    }
    if (request.headers.origin !== undefined) {
      return sendError(reply, 'GOBBY_ERR_HTTP_FORBIDDEN', 'requests from browsers (with an Origin header) are refused');
    }
    // Before the token: the CLI of another home sends that home's token, and "wrong token"
    // would hide what is really wrong. The SessionStart client and the curl fast path send
    // the header too, so a session is never recorded by another home's daemon.
    const clientHome = request.headers[GOBBY_HOME_HEADER];
    if (typeof clientHome === 'string' && clientHome !== '' && !sameGobbyHome(clientHome, options.home)) {
      const port = options.port() ?? Number(LOOPBACK_HOST.exec(request.headers.host ?? '')?.[1] ?? 80);
      return sendError(reply, 'GOBBY_ERR_HTTP_WRONG_DAEMON', describeWrongHome(port, options.home, truncate(clientHome, QUOTED_HOME_LIMIT), process.pid));
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
