import type { FastifyReply } from 'fastify';
import { httpStatusFor } from '../errors.js';

/** Every error the daemon answers has this shape: `{ error: { code, message } }`. */
export function sendError(reply: FastifyReply, code: string, message: string): FastifyReply {
  return reply.code(httpStatusFor(code)).send({ error: { code, message } });
}
