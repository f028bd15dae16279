// Every error the daemon answers has one shape, `{ error: { code, message } }`, and a code
// from the catalog. This module turns whatever went wrong (a GobbyError, one of fastify's
// own errors, a bug) into that answer.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GobbyError, httpStatusOf, isHttpErrorCode, type HttpErrorCode } from '../../hooks/errors.js';

export function sendError(reply: FastifyReply, code: HttpErrorCode, message: string): FastifyReply {
  return reply.code(httpStatusOf(code)).send({ error: { code, message } });
}

/**
 * fastify's errors that a client can cause (node_modules/fastify/lib/errors.js), by their
 * code. Each maps to a gobby code with the same HTTP status; tests/unit/error-catalog.test.ts
 * checks that against fastify, so an upgrade that changes a status fails there.
 */
export const FASTIFY_ERROR_CODES = {
  FST_ERR_NOT_FOUND: 'GOBBY_ERR_HTTP_NOT_FOUND',
  FST_ERR_VALIDATION: 'GOBBY_ERR_HTTP_BAD_REQUEST',
  FST_ERR_CTP_INVALID_JSON_BODY: 'GOBBY_ERR_HTTP_BAD_REQUEST',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'GOBBY_ERR_HTTP_BAD_REQUEST',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'GOBBY_ERR_HTTP_BAD_REQUEST',
  FST_ERR_ROUTE_MISSING_CONTENT_TYPE: 'GOBBY_ERR_HTTP_BAD_REQUEST',
  FST_ERR_BAD_URL: 'GOBBY_ERR_HTTP_BAD_REQUEST',
  FST_ERR_INVALID_URL: 'GOBBY_ERR_HTTP_BAD_REQUEST',
  FST_ERR_CTP_BODY_TOO_LARGE: 'GOBBY_ERR_HTTP_TOO_LARGE',
  FST_ERR_MAX_PARAM_LENGTH: 'GOBBY_ERR_HTTP_URI_TOO_LONG',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'GOBBY_ERR_HTTP_UNSUPPORTED_MEDIA_TYPE',
} as const satisfies Record<`FST_ERR_${string}`, HttpErrorCode>;

interface DescribedError {
  readonly code: HttpErrorCode;
  readonly message: string;
  /**
   * How loudly the daemon log records it: gobby's own refusals are expected (debug), a
   * request fastify could not read is the client's mistake (warn), a 5xx is gobby's (error).
   */
  readonly level: 'debug' | 'warn' | 'error';
}

interface ErrorContext {
  readonly bodyLimitBytes: number;
}

/** The catalog code and message for any error a request ended in. */
export function describeError(error: unknown, request: FastifyRequest, context: ErrorContext): DescribedError {
  if (error instanceof GobbyError) {
    if (isHttpErrorCode(error.code)) {
      return { code: error.code, message: error.message, level: httpStatusOf(error.code) >= 500 ? 'error' : 'debug' };
    }
    return { code: 'GOBBY_ERR_INTERNAL', message: `internal error: ${error.code}: ${error.message}`, level: 'error' };
  }
  const { code, statusCode, message } = error as { code?: unknown; statusCode?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : String(error);
  const mapped = typeof code === 'string' ? (FASTIFY_ERROR_CODES as Record<string, HttpErrorCode | undefined>)[code] : undefined;
  if (mapped) return { code: mapped, message: fastifyMessage(mapped, text, request, context), level: 'warn' };
  // A client error fastify raised without a code we know (an aborted upload, a future
  // fastify error): still a catalog code, never fastify's own shape.
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    return { code: 'GOBBY_ERR_HTTP_BAD_REQUEST', message: text, level: 'warn' };
  }
  return { code: 'GOBBY_ERR_INTERNAL', message: `internal error: ${text}`, level: 'error' };
}

function fastifyMessage(code: HttpErrorCode, message: string, request: FastifyRequest, context: ErrorContext): string {
  switch (code) {
    case 'GOBBY_ERR_HTTP_TOO_LARGE':
      return (
        `the request body is over the daemon's limit of ${context.bodyLimitBytes} bytes (${formatMegabytes(context.bodyLimitBytes)} MB): ` +
        'raise `body_limit_mb` in $GOBBY_HOME/config.json and restart the daemon (`gobby daemon stop`, `gobby daemon start`)'
      );
    case 'GOBBY_ERR_HTTP_UNSUPPORTED_MEDIA_TYPE':
      return `unsupported content-type ${request.headers['content-type'] ?? '(none)'}: send application/json`;
    case 'GOBBY_ERR_HTTP_BAD_REQUEST':
      return /JSON/.test(message) ? `malformed JSON body: ${message}` : message;
    default:
      return message;
  }
}

/** 33554432 → "32", 1572864 → "1.5". */
function formatMegabytes(bytes: number): string {
  return String(Math.round((bytes / 1024 / 1024) * 100) / 100);
}
