// A body over the limit is refused before it is read, and fastify then closes the connection.
// A client still sending it (curl, node's fetch, Claude Code's axios: a Write of a large file)
// meets a reset before it reads the answer, so the user sees "the daemon did not answer"
// instead of the 413 that says what to change. Reading the rest of the body first, and
// throwing it away, lets the answer arrive. Past a cap the daemon stops reading: a client that
// sends without end gets the answer and the closed connection, as before.
import type { IncomingMessage } from 'node:http';

/** The most the daemon reads of a refused body before it answers anyway (a few hundred ms on loopback). */
const DISCARD_LIMIT_BYTES = 256 * 1024 * 1024;

/** Resolves once the request's body has all arrived (and been dropped), or `limit` bytes of it have. */
export function discardRestOfBody(request: IncomingMessage, limit = DISCARD_LIMIT_BYTES): Promise<void> {
  if (request.complete || request.readableEnded || request.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let discarded = 0;
    const onData = (chunk: Buffer | string): void => {
      discarded += chunk.length;
      if (discarded > limit) finish();
    };
    const finish = (): void => {
      request.off('data', onData).off('end', finish).off('error', finish).off('close', finish);
      resolve();
    };
    request.on('data', onData).once('end', finish).once('error', finish).once('close', finish);
    request.resume();
  });
}
