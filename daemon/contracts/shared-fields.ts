// Field shapes that several answers share.
import { z } from 'zod';

/** ISO 8601 with milliseconds and `Z`, as `Date.prototype.toISOString` writes it. */
export const timestamp = z.iso.datetime();
export const definitionTier = z.enum(['project', 'user', 'builtin']);
/** A phase's allowed tools: the patterns, or every tool. */
export const toolPatterns = z.union([z.literal('all'), z.array(z.string()).readonly()]);
export const stringList = z.array(z.string()).readonly();
/** Where a workflow file fails to load, and why. */
export const loadError = z.object({ file: z.string(), line: z.number().int(), column: z.number().int(), message: z.string() });
