// Hostile bodies from a process that posts to the daemon: none may stall every session's
// hooks, crash the daemon, answer a 5xx, or write a multi-megabyte audit row.
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../daemon/http/json-body.js';
import { hookPayload, TestDaemon } from './test-daemon.js';

let t: TestDaemon;
afterEach(async () => t?.dispose());

function postRaw(event: string, body: string) {
  return t.inject({ method: 'POST', url: `/hooks/${event}`, headers: { 'content-type': 'application/json', host: '127.0.0.1:4517' }, payload: body });
}

function nested(depth: number, inner = '1'): string {
  return '['.repeat(depth) + inner + ']'.repeat(depth);
}

describe('hostile hook bodies', () => {
  it(
    'refuses a 20 MB body of nested arrays before parsing it, and keeps serving',
    async () => {
      t = TestDaemon.create({ bodyLimitBytes: 32 * 1024 * 1024 });
      const session = t.newSessionId();
      const payload = JSON.stringify(hookPayload('PreToolUse', session, t.project, { tool_name: 'Bash', tool_input: { command: 'ls' } }));
      const hostile = `${payload.slice(0, -1)},"x":${nested(10_000_000)}}`;
      const refused = await postRaw('PreToolUse', hostile);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toEqual({ code: 'GOBBY_ERR_HTTP_BAD_REQUEST', message: `malformed JSON body: it nests deeper than ${MAX_JSON_DEPTH} levels` });
      expect((await t.preToolUse(session, 'Read', { file_path: 'README.md' })).status).toBe(200);
    },
    // JSON.parse alone took 39 s on this body; the depth scan takes milliseconds.
    15_000,
  );

  it('accepts nesting up to the limit, counting only brackets outside strings', async () => {
    t = TestDaemon.create();
    const session = t.newSessionId();
    const deepButFine = hookPayload('PreToolUse', session, t.project, { tool_name: 'mcp__x__y', tool_input: { v: JSON.parse(nested(MAX_JSON_DEPTH - 3)) } });
    expect((await postRaw('PreToolUse', JSON.stringify(deepButFine))).status).toBe(200);
    const tooDeep = hookPayload('PreToolUse', session, t.project, { tool_name: 'mcp__x__y', tool_input: { v: JSON.parse(nested(MAX_JSON_DEPTH)) } });
    expect((await postRaw('PreToolUse', JSON.stringify(tooDeep))).status).toBe(400);
    const bracketsInStrings = hookPayload('PreToolUse', session, t.project, {
      tool_name: 'Write',
      tool_input: { file_path: 'a.txt', content: `${'['.repeat(10_000)} "\\" ${'{'.repeat(10_000)}` },
    });
    expect((await postRaw('PreToolUse', JSON.stringify(bracketsInStrings))).status).toBe(200);
  });

  it('answers a nested value where a flag belongs with a 400 naming the field', async () => {
    t = TestDaemon.create();
    const reply = await t.hook('Stop', t.newSessionId(), { stop_hook_active: JSON.parse(nested(50, '{"a":true}')) });
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('GOBBY_ERR_HOOK_INVALID_PAYLOAD');
    expect(reply.body.error.message).toContain('stop_hook_active');
  });

  it('keeps a few hundred bytes of an 8 MB agent_type in the audit row', async () => {
    t = TestDaemon.create({ bodyLimitBytes: 32 * 1024 * 1024 });
    const session = t.newSessionId();
    const reply = await t.hook('PreToolUse', session, { tool_name: 'Read', tool_input: { file_path: 'x' }, agent_id: 'a1', agent_type: 'x'.repeat(8_000_000) });
    expect(reply.status).toBe(200);
    const row = t.daemon.store.db.prepare('SELECT length(detail_json) AS bytes FROM audit_log WHERE session_id = ? ORDER BY id DESC LIMIT 1').get(session) as {
      bytes: number;
    };
    expect(row.bytes).toBeLessThan(2_000);
  });
});

describe('nestsDeeperThan', () => {
  it.each([
    ['[]', 1, false],
    ['[[]]', 1, true],
    ['{"a":{"b":[1]}}', 3, false],
    ['{"a":{"b":[1]}}', 2, true],
    ['["[[[[", "\\"[[[["]', 1, false],
    ['["\\\\", [[]]]', 2, true],
    ['"unterminated [[[[', 1, false],
  ] as const)('%j deeper than %d: %s', (text, max, expected) => {
    expect(nestsDeeperThan(text, max)).toBe(expected);
  });
});
