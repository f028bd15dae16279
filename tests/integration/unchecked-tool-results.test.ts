// A tool result for a tool the phase refuses, with no PreToolUse gobby allowed before it: the
// call ran without gobby's say (lenient mode, a PreToolUse hook that timed out, a daemon
// restart). It is recorded as `ran-unchecked`, the user and the model are told, and it counts
// for nothing: no action count, no on_tool_result, no transition.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestDaemon, writeProjectWorkflow, type Json } from './test-daemon.js';

let t: TestDaemon;
beforeEach(() => {
  t = TestDaemon.create();
});
afterEach(async () => {
  await t.dispose();
});

/** `look` refuses Write; a Write result would set `wrote` and move the session to `done`. */
const GATED = `name: gated
variables:
  wrote: null
triggers:
  on_tool_result:
    - action: set_variable
      name: wrote
      value: "yes"
      when: "tool == 'Write'"
phases:
  - name: look
    blocked_tools: [Write, Bash]
    transitions:
      - to: done
        when: "tool == 'Write'"
  - name: done
`;

async function gatedSession(): Promise<string> {
  writeProjectWorkflow(t.project, 'gated.yaml', GATED);
  expect((await t.setWorkflow('gated')).status).toBe(200);
  const session = t.newSessionId();
  await t.sessionStart(session);
  return session;
}

const WRITE = { tool_name: 'Write', tool_input: { file_path: 'a.txt', content: 'x' }, tool_response: { success: true } };

describe('a result of a refused tool that gobby never saw called', () => {
  it('is audited as ran-unchecked, told to the user and the model, and not counted', async () => {
    const session = await gatedSession();
    const answer = await t.hook('PostToolUse', session, { ...WRITE, tool_use_id: 'toolu_unseen_write' });
    expect(answer.status).toBe(200);
    expect(answer.body.systemMessage).toContain('gobby: Write ran in gated\'s phase `look`, which refuses it: gobby did not see the call');
    expect(answer.body.hookSpecificOutput.additionalContext).toContain('Do not use Write again in this phase');
    const row = t.auditRows(session).at(-1)!;
    expect(row).toMatchObject({ event: 'PostToolUse', tool: 'Write', decision: 'ran-unchecked', phase: 'look' });
    const status = (await t.status()).body as Json;
    expect(status.action_counts).toMatchObject({ phase: 0, total: 0 });
    expect(status.decision_counts['ran-unchecked']).toBe(1);
  });

  it('satisfies no condition: its on_tool_result and transition do not run', async () => {
    const session = await gatedSession();
    await t.hook('PostToolUse', session, { ...WRITE, tool_use_id: 'toolu_unseen_write' });
    await t.hook('PostToolUseFailure', session, { tool_name: 'Bash', tool_input: { command: 'rm -rf build' }, error: 'x', tool_use_id: 'toolu_unseen_bash' });
    const status = (await t.status()).body as Json;
    expect(status.phase).toBe('look');
    expect(status.variables.wrote).toBeNull();
    expect(t.auditRows(session).filter((row) => row.decision === 'ran-unchecked').map((row) => row.event)).toEqual(['PostToolUse', 'PostToolUseFailure']);
  });

  it('leaves a result whose call gobby allowed alone, even when the phase changed in between', async () => {
    const session = await gatedSession();
    await t.api('POST', '/api/sessions/phase', { cwd: t.project, phase: 'done', force: true, reason: 'test' });
    const pre = await t.hook('PreToolUse', session, { tool_name: 'Write', tool_input: WRITE.tool_input, tool_use_id: 'toolu_seen_write' });
    expect(pre.body.hookSpecificOutput?.permissionDecision).not.toBe('deny');
    await t.api('POST', '/api/sessions/phase', { cwd: t.project, phase: 'look', force: true, reason: 'back' });
    await t.hook('PostToolUse', session, { ...WRITE, tool_use_id: 'toolu_seen_write' });
    const row = t.auditRows(session).filter((entry) => entry.event === 'PostToolUse').at(-1)!;
    expect(row.decision).not.toBe('ran-unchecked');
    expect(((await t.status()).body as Json).phase).toBe('done');
  });

  it('counts a result of a tool the phase allows, seen or not', async () => {
    const session = await gatedSession();
    await t.postToolUse(session, 'Read', { file_path: 'a.txt' });
    expect((((await t.status()).body as Json).action_counts as Json).phase).toBe(1);
    expect(t.auditRows(session).at(-1)!.decision).toBe('allow');
  });
});
