// The parse adapter: unbash behind one function, with the caps that keep any input from
// stalling the daemon. unbash is tolerant (errors plus a partial tree); the classifier is
// not: any error makes the command opaque, because a partial tree may hide commands.
import { parse, type ParsedScript } from 'unbash';

/** Above this many UTF-16 code units a command is not parsed at all: it is opaque. */
export const MAX_COMMAND_LENGTH = 64 * 1024;

type ParseOutcome = { readonly ok: true; readonly script: ParsedScript } | { readonly ok: false; readonly why: string };

export function parseShell(source: string): ParseOutcome {
  if (source.length > MAX_COMMAND_LENGTH) return { ok: false, why: overTheCap(source) };
  const script = parse(source);
  const problem = firstParseError(script);
  return problem === undefined ? { ok: true, script } : { ok: false, why: problem };
}

export function overTheCap(source: string): string {
  return `the command is ${source.length} characters long, above the ${MAX_COMMAND_LENGTH}-character limit gobby parses`;
}

/** unbash reports a nested substitution's errors on that nested script, so every level is checked as it is visited. */
export function firstParseError(script: ParsedScript): string | undefined {
  const error = script.errors?.[0];
  return error === undefined ? undefined : `the shell parser could not read it (${error.message} at offset ${error.pos})`;
}
