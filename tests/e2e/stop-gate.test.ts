/**
 * The stop gate with the real Claude Code CLI: a model that tries to end its turn before the
 * tests ran is held back and told, as a new user turn, what is missing and how to do it;
 * once it ran them the turn ends. A model that keeps stopping without getting anywhere is
 * let go after the gate's cap, and the run ends instead of looping.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newestTurnText } from '../support/fake-anthropic.js';
import { runScriptedSession, setUpGobbyProject, uniqueToolUse } from '../support/scripted-session.js';

const TESTED = `
name: tested
variables:
  tests_passed: false
phases:
  - name: work
    on_tool_result:
      - action: set_variable
        name: tests_passed
        value: true
        when: "tool == 'Bash' and command_contains('echo tests passed') and not tool_result.is_error"
    stop_gate:
      max_blocks: 2
      requires:
        - when: "tests_passed"
          missing: "the tests have not passed"
          how: "run \`echo tests passed\`"
`;

const REASON =
  'Workflow rule (tested, phase work): the turn cannot end yet; this phase requires more.\n' +
  '- Missing: the tests have not passed. How: run `echo tests passed`';

interface Status {
  phase: string;
  last_decisions: { event: string; decision: string; because: string }[];
}

async function setUp() {
  const { gobby, box } = await setUpGobbyProject({ workflow: { name: 'tested', yaml: TESTED } });
  const status = () => gobby.json<Status>(['workflow', 'status'], box.project);
  return { gobby, box, status };
}

describe('the stop gate', () => {
  it('holds the turn until the tests ran, telling the model what is missing', async () => {
    const { box, status } = await setUp();
    const { requests, run } = await runScriptedSession(
      box,
      'fix the bug',
      [
        { text: 'Fixed the bug. Done.' },
        { toolUses: [uniqueToolUse('Bash', { command: 'echo tests passed', description: 'run the tests' })] },
        { text: 'The tests pass. Done.' },
      ],
      { id: randomUUID(), resume: false },
    );

    // The blocked Stop reached the model as a new user turn carrying gobby's reason.
    expect(requests).toHaveLength(3);
    const feedback = newestTurnText(requests[1]!);
    expect(feedback).toContain('Stop hook feedback');
    expect(feedback).toContain(REASON);
    // After the tool ran, the stop went through: no fourth request, and the run's answer is the last text.
    expect(newestTurnText(requests[2]!)).toContain('tests passed');
    expect(run.result?.result).toBe('The tests pass. Done.');

    const stops = (await status()).last_decisions.filter((row) => row.event === 'Stop');
    expect(stops.map((row) => row.decision).sort()).toEqual(['allow', 'deny']);
    expect((await status()).last_decisions.some((row) => row.event === 'stop_released')).toBe(false);
  }, 120_000);

  it('lets a model that keeps stopping go after the cap, and one that does nothing after one block', async () => {
    const { box, status } = await setUp();
    const session = { id: randomUUID(), resume: false };
    const { requests, run } = await runScriptedSession(
      box,
      'fix the bug',
      [
        { text: 'Done.' },
        { toolUses: [uniqueToolUse('Bash', { command: 'ls', description: 'look around' })] },
        { text: 'Done, really.' },
        { toolUses: [uniqueToolUse('Bash', { command: 'ls', description: 'look again' })] },
        { text: 'Done, truly.' },
      ],
      session,
    );
    // Two blocks (max_blocks: 2), then the third Stop is let through: five model turns, no loop.
    expect(requests).toHaveLength(5);
    expect(newestTurnText(requests[1]!)).toContain(REASON);
    expect(newestTurnText(requests[3]!)).toContain(REASON);
    expect(run.result?.result).toBe('Done, truly.');
    const released = (await status()).last_decisions.filter((row) => row.event === 'stop_released');
    expect(released.map((row) => row.because)).toEqual([
      'stop gate let the turn end (max_blocks, after 2 blocks), still missing: the tests have not passed',
    ]);

    // A new prompt starts the count over; a model that answers the block with nothing is let go at once.
    const idle = await runScriptedSession(box, 'are you sure?', [{ text: 'Yes, done.' }, { text: 'Still done.' }], { ...session, resume: true });
    expect(idle.requests).toHaveLength(2);
    expect(newestTurnText(idle.requests[1]!)).toContain(REASON);
    expect(idle.run.result?.result).toBe('Still done.');
    const becauses = (await status()).last_decisions.filter((row) => row.event === 'stop_released').map((row) => row.because);
    expect(becauses).toContain('stop gate let the turn end (no_tool_since_block, after 1 block), still missing: the tests have not passed');
  }, 180_000);
});
