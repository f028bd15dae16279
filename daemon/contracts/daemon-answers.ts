// Answers about the daemon process itself: health, status, shutdown.
import { z } from 'zod';
import { timestamp } from './shared-fields.js';

/** `GET /api/health`, the one route without the token: `name` tells gobby from another server. */
export const healthAnswer = z.object({
  ok: z.literal(true),
  name: z.literal('gobby'),
  version: z.string(),
  pid: z.number().int(),
  home: z.string(),
});

/**
 * `GET /api/identity`, without the token and without secrets: who answers on the port. The CLI
 * and the hook clients check `name` and `home` before they use what answered, so another
 * program, or the daemon of another GOBBY_HOME, is never mistaken for theirs
 * (hooks/daemon-locator.ts reads the same fields without zod).
 */
export const identityAnswer = z.object({
  name: z.literal('gobby'),
  version: z.string(),
  /** The daemon's GOBBY_HOME, resolved to an absolute path. */
  home: z.string(),
  pid: z.number().int(),
  /** Null only before the daemon listens. */
  port: z.number().int().nullable(),
  startedAt: timestamp,
});

/** `GET /api/daemon`. */
export const daemonAnswer = z.object({
  /** False when the daemon runs but cannot serve: its database is damaged. */
  ok: z.boolean(),
  version: z.string(),
  pid: z.number().int(),
  /** Null only before the daemon listens. */
  port: z.number().int().nullable(),
  home: z.string(),
  database: z.string(),
  schema_version: z.number().int(),
  /** PRAGMA quick_check at start, and any damage a query met since. */
  database_health: z.object({ ok: z.boolean(), problem: z.string().nullable() }),
  started_at: timestamp,
  uptime_seconds: z.number().int().nonnegative(),
  active_sessions: z.number().int().nonnegative(),
  memory_rss_bytes: z.number().int().nonnegative(),
});

/** `POST /api/shutdown`: the daemon stops after answering. */
export const shutdownAnswer = z.object({ ok: z.literal(true), stopping: z.literal(true) });
