// Requests node's HTTP parser refuses before fastify sees them: a URL and headers over its limit
// (431), a request that never finished arriving (408), bytes that are no HTTP (400). fastify's
// default answer for these has its own shape; the daemon's is `{ error: { code, message } }`
// like every other answer (docs/errors.md). Written on the socket, as there is no request.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { httpStatusOf, type HttpErrorCode } from '../../hooks/errors.js';
import { GOBBY_VERSION_HEADER } from '../contracts/control-api.js';

/** The catalog code and message for a request the parser refused, by node's error code. */
function describeClientError(code: unknown): { readonly code: HttpErrorCode; readonly message: string } {
  if (code === 'HPE_HEADER_OVERFLOW') return { code: 'GOBBY_ERR_HTTP_HEADERS_TOO_LARGE', message: 'the request line and headers are larger than the daemon reads (16 KB); a long URL query is the usual cause' };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { code: 'GOBBY_ERR_HTTP_REQUEST_TIMEOUT', message: 'the request did not arrive whole in time' };
  return { code: 'GOBBY_ERR_HTTP_BAD_REQUEST', message: `the daemon could not read the request as HTTP${typeof code === 'string' ? ` (${code})` : ''}` };
}

/**
 * fastify's `clientErrorHandler`: answers in the daemon's shape, marked as gobby's like every
 * answer (the CLI tells the daemon from another program by that header), then closes the
 * connection, as node does.
 */
export function clientErrorAnswer(version: string): (error: Error & { code?: unknown }, socket: Socket) => void {
  return (error, socket) => {
    // A reset connection has nobody to answer (https://nodejs.org/api/http.html#event-clienterror).
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    if (socket.writable) {
      const { code, message } = describeClientError(error.code);
      const status = httpStatusOf(code);
      const body = JSON.stringify({ error: { code, message } });
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `${GOBBY_VERSION_HEADER}: ${version}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(error);
  };
}
