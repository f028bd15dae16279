// The stop gate through the daemon: the Stop answer Claude Code gets (a block with what is
// missing, or a let-through with a systemMessage for the user), the counters kept across
// requests in SQLite, and the audit rows a user reads afterwards.
import { afterEach, describe, expect, it } from 'vitest';
import { TestDaemon, writeProjectWorkflow, type Json } from './test-daemon.js';

let t: TestDaemon;
afterEach(async () => t?.dispose());

const TESTED = `
name: tested
variables:
  tests_passed: false
phases:
  - name: work
    on_tool_result:
      - action: set_variable
        name: tests_passed
        value: false
        when: "tool in ['Write', 'Edit']"
      - action: set_variable
        name: tests_passed
        value: true
        when: "tool == 'Bash' and command_contains('npm test') and not tool_result.is_error"
    stop_gate:
      max_blocks: 2
      requires:
        - when: "tests_passed"
          missing: "the tests have not passed since the last edit"
          how: "run \`npm test\` and fix what fails"
`;

const REASON =
  'Workflow rule (tested, phase work): the turn cannot end yet; this phase requires more.\n' +
  '- Missing: the tests have not passed since the last edit. How: run `npm test` and fix what fails';

async function start(): Promise<string> {
  t = TestDaemon.create();
  writeProjectWorkflow(t.project, 'tested.yaml', TESTED);
  expect((await t.setWorkflow('tested')).status).toBe(200);
  const session = t.newSessionId();
  await t.sessionStart(session);
  await t.prompt(session, 'fix the bug in parse()');
  return session;
}

function stopSaying(session: string, lastMessage: string, stopHookActive = false) {
  return t.hook('Stop', session, { stop_hook_active: stopHookActive, last_assistant_message: lastMessage, background_tasks: [], session_crons: [] });
}

describe('the stop gate over HTTP', () => {
  it('blocks the stop with what is missing, and lets the turn end once the tests passed', async () => {
    const session = await start();
    await t.postToolUse(session, 'Edit', { file_path: 'src/parse.ts', old_string: 'a', new_string: 'b' });

    const blocked = await stopSaying(session, 'Fixed the bug.');
    expect(blocked.status).toBe(200);
    expect(blocked.body).toEqual({ decision: 'block', reason: REASON });

    await t.postToolUse(session, 'Bash', { command: 'npm test' });
    const ended = await stopSaying(session, 'Fixed, and the tests pass.', true);
    expect(ended.body).toEqual({});

    const stops = t.auditRows(session).filter((row) => row.event === 'Stop');
    expect(stops.map((row) => row.decision)).toEqual(['deny', 'allow']);
    expect(stops[0]!.reason).toBe(REASON);
    expect(t.auditRows(session).some((row) => row.event === 'stop_released')).toBe(false);
  });

  it('lets the turn end when the agent asks the user, tells the user, and records it', async () => {
    const session = await start();
    const ended = await t.stop(session, { askedApproval: false });
    expect(ended.body).toEqual({
      systemMessage:
        'gobby: the turn ended with the `work` phase of `tested` still missing: the tests have not passed since the last edit. ' +
        'Let through because the agent asked you a question.',
    });
    const released = t.auditRows(session).filter((row) => row.event === 'stop_released');
    expect(released).toEqual([
      expect.objectContaining({
        phase: 'work',
        because: 'stop gate let the turn end (asks_user, after 0 blocks), still missing: the tests have not passed since the last edit',
      }),
    ]);
  });

  it('releases an agent that keeps stopping after max_blocks, and blocks afresh after the next prompt', async () => {
    const session = await start();
    expect((await stopSaying(session, 'Done.')).body.decision).toBe('block');
    await t.postToolUse(session, 'Read', { file_path: 'src/parse.ts' });
    expect((await stopSaying(session, 'Done.', true)).body.decision).toBe('block');
    await t.postToolUse(session, 'Read', { file_path: 'src/parse.ts' });

    const released: Json = await stopSaying(session, 'Done.', true);
    expect(released.body.decision).toBeUndefined();
    expect(released.body.systemMessage).toContain('after 2 stop blocks');
    expect(released.body.systemMessage).toContain('held back as many times as the workflow allows');

    // The counters live in SQLite across daemons, and a new prompt starts them over.
    await t.restart();
    await t.prompt(session, 'please run the tests');
    expect((await stopSaying(session, 'Done.')).body).toEqual({ decision: 'block', reason: REASON });
    // No tool since that block: holding the agent again would only loop.
    const idle: Json = await stopSaying(session, 'Done.', true);
    expect(idle.body.systemMessage).toContain('ran no tool since it was last held back');

    expect(t.auditRows(session).filter((row) => row.event === 'stop_released').map((row) => row.because)).toEqual([
      'stop gate let the turn end (max_blocks, after 2 blocks), still missing: the tests have not passed since the last edit',
      'stop gate let the turn end (no_tool_since_block, after 1 block), still missing: the tests have not passed since the last edit',
    ]);
  });

  it('refuses to load a gate that waits for an event-only name, with file, line and column', async () => {
    t = TestDaemon.create();
    const file = writeProjectWorkflow(
      t.project,
      'deadlocked.yaml',
      'name: deadlocked\nphases:\n  - name: work\n    stop_gate:\n      requires:\n        - { when: "command_contains(\'npm test\')", missing: m, how: h }\n',
    );
    const set = await t.setWorkflow('deadlocked');
    expect(set.status).not.toBe(200);
    const listed: Json = await t.api('GET', `/api/workflows?cwd=${encodeURIComponent(t.project)}`);
    expect(listed.body.errors).toEqual([
      expect.objectContaining({ file, line: 6, column: 13, message: expect.stringContaining('reads `command_contains`, which is always empty at Stop') }),
    ]);
  });
});
