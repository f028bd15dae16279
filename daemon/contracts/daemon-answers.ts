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

/** `GET /api/daemon`. */
export const daemonAnswer = z.object({
  ok: z.literal(true),
  version: z.string(),
  pid: z.number().int(),
  /** Null only before the daemon listens. */
  port: z.number().int().nullable(),
  home: z.string(),
  database: z.string(),
  schema_version: z.number().int(),
  started_at: timestamp,
  uptime_seconds: z.number().int().nonnegative(),
  active_sessions: z.number().int().nonnegative(),
  memory_rss_bytes: z.number().int().nonnegative(),
});

/** `POST /api/shutdown`: the daemon stops after answering. */
export const shutdownAnswer = z.object({ ok: z.literal(true), stopping: z.literal(true) });
