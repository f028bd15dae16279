/**
 * The human overrides of plan-execute end to end with the real Claude Code CLI: a forced
 * move holds the model to the new phase, and the agent cannot run the override itself.
 * (Split from plan-execute.test.ts so the two files run side by side.)
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { newestTurnText, toolResultsIn } from '../support/fake-anthropic.js';
import { executing, planExecuteSession, TIMEOUT, type Status } from '../support/plan-execute-session.js';
import { uniqueToolUse } from '../support/scripted-session.js';

describe('plan-execute overrides with the real Claude Code CLI', () => {
  it('lets a human force a phase with a reason, audited, and the model is held to it', async () => {
    const { gobby, box, target, turn } = await executing();
    const refused = await gobby.cli(['workflow', 'phase', 'plan'], box.project);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('does not allow execute → plan');

    const noReason = await gobby.cli(['workflow', 'phase', 'plan', '--force'], box.project);
    expect(noReason.code).not.toBe(0);
    expect(noReason.stderr).toContain('--reason');

    const forced = await gobby.json<{ from: string; to: string; forced: boolean }>(
      ['workflow', 'phase', 'plan', '--force', '--reason', 'plan needs another look'],
      box.project,
    );
    expect(forced).toMatchObject({ from: 'execute', to: 'plan', forced: true });

    const { requests: main } = await turn('Edit hello.txt again', [
      { toolUses: [uniqueToolUse('Edit', { file_path: target, old_string: 'hi', new_string: 'bye' })] },
      { text: 'ok' },
    ]);
    // The newest turn tells the model it is in plan again, with the phase's on_enter message
    // (handed out with SessionStart:resume); earlier turns' context does not count.
    expect(newestTurnText(main[0]!)).toContain('Workflow `plan-execute` is in phase `plan`');
    expect(newestTurnText(main[0]!)).toContain('[gobby] PLANNING phase.');
    const [editResult] = toolResultsIn(main[1]!);
    expect(editResult?.is_error).toBe(true);
    expect(editResult?.text).toContain('Workflow rule (plan-execute, phase plan): Edit is not allowed in this phase.');
    expect(readFileSync(target, 'utf8')).toBe('hi\n');

    const status = await gobby.json<Status>(['workflow', 'status'], box.project);
    expect(status.phase).toBe('plan');
    expect(status.last_decisions).toContainEqual(
      expect.objectContaining({ event: 'override:phase', reason: 'plan needs another look', actor: expect.stringMatching(/^cli:/) }),
    );
  }, TIMEOUT);

  it('refuses the agent running the human-only override through Bash', async () => {
    const { gobby, box, turn } = await planExecuteSession();
    await turn('hello', [{ text: 'Hello.' }]);
    await gobby.json(['workflow', 'phase', 'execute', '--force', '--reason', 'let bash run'], box.project);
    const { requests: main } = await turn('switch phase yourself', [
      { toolUses: [uniqueToolUse('Bash', { command: 'npx gobby workflow phase plan --force --reason x' })] },
      { text: 'ok' },
    ]);
    const [bashResult] = toolResultsIn(main[1]!);
    expect(bashResult?.is_error).toBe(true);
    expect(bashResult?.text).toContain('only the user may run it');
    const status = await gobby.json<Status>(['workflow', 'status'], box.project);
    expect(status.phase).toBe('execute');
  }, TIMEOUT);
});
