import { gobbyError } from '../errors.js';

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000 } as const;
/** A week: longer than that is not a pause, and `disable` without `--for` says so honestly. */
const MAX_MS = 7 * 24 * 3_600_000;

/** `90s`, `30m`, `2h` → milliseconds. Anything else is refused with what is accepted. */
export function parseDuration(text: string): number {
  const match = /^(\d{1,7})([smh])$/.exec(text.trim());
  if (!match) {
    throw gobbyError(
      'GOBBY_ERR_DURATION_INVALID',
      `--for ${JSON.stringify(text)} is not a duration: give a whole number and a unit, s, m or h (90s, 30m, 2h)`,
    );
  }
  const ms = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  if (ms <= 0) throw gobbyError('GOBBY_ERR_DURATION_INVALID', `--for ${text}: the duration must be longer than zero`);
  if (ms > MAX_MS) throw gobbyError('GOBBY_ERR_DURATION_INVALID', `--for ${text}: at most 7 days (168h); for longer, disable without --for`);
  return ms;
}
