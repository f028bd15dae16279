// The JSON body parser for every route. JSON.parse takes time far beyond linear in how deeply
// a document nests (2.5 s for a 2 MB body of a million nested arrays, 39 s for 20 MB), and
// the daemon serves every session from one thread: a body that nests deeper than any hook
// payload does is refused before it is parsed. Everything else goes to fastify's own parser,
// which also refuses `__proto__` and `constructor` keys.
import type { FastifyInstance } from 'fastify';
import { gobbyError } from '../errors.js';

/** Far deeper than any tool input Claude Code sends (TodoWrite and MCP inputs stay under ten). */
export const MAX_JSON_DEPTH = 128;

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;

/**
 * Whether the text nests arrays and objects deeper than `max`. Linear: strings, which make
 * up most of a large body (a Write's file content), are skipped with indexOf.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = closingQuote(text, i);
      if (i < 0) return false; // unterminated: the parser will say so
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    }
  }
  return false;
}

/** The index of the quote that closes the string opened at `open`, or -1. */
function closingQuote(text: string, open: number): number {
  let at = open + 1;
  for (;;) {
    at = text.indexOf('"', at);
    if (at < 0) return -1;
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
    at++;
  }
}

export function registerJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
      done(gobbyError('GOBBY_ERR_HTTP_BAD_REQUEST', `malformed JSON body: it nests deeper than ${MAX_JSON_DEPTH} levels`), undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
