// The error catalog and its documentation must agree in both directions (after fastify's
// test/internals/errors.test.js): a code a user meets is explained in docs/errors.md with the
// same HTTP status and exit code, and the docs name no code that does not exist. The count is
// pinned, so adding a code means a docs row and a look at this file.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { FASTIFY_ERROR_CODES } from '../../daemon/http/send-error.js';
import { ERROR_CATALOG, EXIT_CODES, gobbyError, GobbyError, httpStatusOf, isErrorCode } from '../../hooks/errors.js';

const EXPECTED_CODE_COUNT = 37;

const docs = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
/** `| \`GOBBY_ERR_…\` | 400 | 1 | meaning |` rows of the codes table. */
const documented = new Map(
  [...docs.matchAll(/^\| `(GOBBY_ERR_[A-Z_]+)` \| (\d{3}|—) \| (\d+) \| (.+) \|$/gm)].map((match) => [
    match[1]!,
    { status: match[2] === '—' ? null : Number(match[2]), exitCode: Number(match[3]), meaning: match[4]!.trim() },
  ]),
);
const catalog = Object.entries(ERROR_CATALOG);

describe('the error catalog', () => {
  it(`holds ${EXPECTED_CODE_COUNT} codes`, () => {
    expect(catalog).toHaveLength(EXPECTED_CODE_COUNT);
  });

  it.each(catalog)('%s is named GOBBY_ERR_<AREA>_<WHAT> and has a one-line summary', (code, entry) => {
    expect(code).toMatch(/^GOBBY_ERR_[A-Z]+(_[A-Z]+)*$/);
    expect(entry.summary).not.toContain('\n');
    expect(entry.summary.length).toBeGreaterThan(10);
  });

  it('uses only the documented exit codes', () => {
    const exits = new Set<number>(Object.values(EXIT_CODES));
    for (const [, entry] of catalog) expect(exits.has(entry.exitCode)).toBe(true);
    for (const exit of exits) expect(docs).toMatch(new RegExp(`^\\| ${exit} \\| `, 'm'));
  });

  it('gives a GobbyError its code and the exit code of that code', () => {
    const error = gobbyError('GOBBY_ERR_CLI_DAEMON_UNREACHABLE', 'nothing answers');
    expect(error).toBeInstanceOf(GobbyError);
    expect(error).toMatchObject({ code: 'GOBBY_ERR_CLI_DAEMON_UNREACHABLE', message: 'nothing answers', exitCode: 2 });
    expect(httpStatusOf('GOBBY_ERR_PHASE_NOT_ALLOWED')).toBe(409);
  });

  it('tells a catalog code from anything else read off the wire', () => {
    expect(isErrorCode('GOBBY_ERR_INTERNAL')).toBe(true);
    expect(isErrorCode('GOBBY_ERR_NO_SUCH_THING')).toBe(false);
    expect(isErrorCode('toString')).toBe(false);
    expect(isErrorCode(404)).toBe(false);
  });
});

describe('docs/errors.md', () => {
  it(`documents ${EXPECTED_CODE_COUNT} codes, each once`, () => {
    const rows = [...docs.matchAll(/^\| `(GOBBY_ERR_[A-Z_]+)` \|/gm)].map((match) => match[1]);
    expect(new Set(rows).size).toBe(rows.length);
    expect(documented.size).toBe(EXPECTED_CODE_COUNT);
  });

  it.each(catalog)('documents %s with its HTTP status and exit code', (code, entry) => {
    expect(documented.get(code)).toMatchObject({ status: entry.status, exitCode: entry.exitCode });
  });

  it('names no code the catalog does not have', () => {
    const everyMention = new Set([...docs.matchAll(/GOBBY_ERR_[A-Z_]+/g)].map((match) => match[0]));
    everyMention.delete('GOBBY_ERR_'); // the `GOBBY_ERR_…` placeholder in the prose
    for (const code of everyMention) expect(isErrorCode(code), `${code} is in the docs but not in the catalog`).toBe(true);
  });
});

describe("fastify's own errors", () => {
  // fastify is CommonJS without an exports map; its error table is the source of truth.
  const fastifyErrors = createRequire(import.meta.url)('fastify/lib/errors.js') as Record<string, unknown>;

  it.each(Object.entries(FASTIFY_ERROR_CODES))('%s maps to %s with the same HTTP status', (fastifyCode, gobbyCode) => {
    const FastifyError = fastifyErrors[fastifyCode] as new (...args: string[]) => { statusCode?: number };
    expect(FastifyError, `fastify no longer has ${fastifyCode}`).toBeTypeOf('function');
    expect(new FastifyError('x', 'y').statusCode).toBe(httpStatusOf(gobbyCode));
  });

  it('maps every fastify error a client can cause (4xx)', () => {
    const clientErrors = Object.entries(fastifyErrors)
      .filter(([code, value]) => code.startsWith('FST_ERR_') && typeof value === 'function')
      .filter(([, FastifyError]) => {
        const status = new (FastifyError as new (...args: string[]) => { statusCode?: number })('x', 'y', 'z').statusCode;
        return status !== undefined && status >= 400 && status < 500;
      })
      .map(([code]) => code)
      // Neither reaches a client: fastify 5 keeps the first only for compatibility and never
      // throws it; the second is thrown at setup, when a parser is added after start.
      .filter((code) => code !== 'FST_ERR_ROUTE_MISSING_CONTENT' && code !== 'FST_ERR_CTP_INSTANCE_ALREADY_STARTED');
    expect(Object.keys(FASTIFY_ERROR_CODES).sort()).toEqual(expect.arrayContaining(clientErrors.sort()));
  });
});
