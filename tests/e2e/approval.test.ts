/**
 * A "yes" is an approval only after the model asked the phase's approval question: proven
 * with the real Claude Code CLI, whose Stop payload carries the model's last message.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newestTurnText } from '../support/fake-anthropic.js';
import { runScriptedSession, setUpGobbyProject } from '../support/scripted-session.js';

describe('approval in plan-execute', () => {
  it('a yes to a clarifying question stays in plan; a yes to the approval question moves on', async () => {
    const { gobby, box } = await setUpGobbyProject();
    const phase = async () => (await gobby.json<{ phase: string }>(['workflow', 'status'], box.project)).phase;
    const session = { id: randomUUID(), resume: false };

    await runScriptedSession(box, 'add a feature', [{ text: 'Should the feature also cover the CLI?' }], session);
    const answered = await runScriptedSession(box, 'yes', [{ text: 'Plan: 1. core 2. CLI. Plan complete. Ready to implement?' }], { ...session, resume: true });
    expect(await phase()).toBe('plan');
    // The user is told why their "yes" moved nothing, and what would (Claude Code shows a hook's systemMessage).
    const notices = answered.run.events.filter((event) => event.type === 'system' && event.subtype === 'informational').map((event) => String(event.content));
    expect(notices).toContainEqual(
      expect.stringMatching(/^UserPromptSubmit says: gobby: your reply was not taken as approval to leave `plan`: the agent's last message did not ask the approval question/),
    );
    expect(notices.join('\n')).toContain('gobby workflow phase execute');

    const { requests } = await runScriptedSession(box, 'yes', [{ text: 'Starting.' }], { ...session, resume: true });
    expect(await phase()).toBe('execute');
    expect(newestTurnText(requests[0]!)).toContain('EXECUTION phase: the user approved the plan');
  }, 90_000);
});
