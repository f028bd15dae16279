/**
 * The enforcement loop end to end, as a user meets it: the built gobby daemon, `gobby
 * install` and `gobby workflow set plan-execute` in a project, and the real Claude Code CLI
 * driven offline by a fake Messages API. What the model was sent back is the proof that a
 * block or an injection worked. Each test sets up its own daemon, project and session, so
 * any one of them runs alone (`-t`); the overrides are in plan-execute-overrides.test.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hookEvents } from '../support/claude-cli.js';
import { newestTurnText, toolResultsIn } from '../support/fake-anthropic.js';
import { awaitingApproval, planExecuteSession, TIMEOUT, type Status } from '../support/plan-execute-session.js';
import { uniqueToolUse } from '../support/scripted-session.js';

describe('plan-execute with the real Claude Code CLI', () => {
  it('denies Write in plan with the phase reason and injects the plan instructions', async () => {
    const { gobby, box, target, turn } = await planExecuteSession();
    const { run, requests: main } = await turn('Create hello.txt saying hi', [
      { toolUses: [uniqueToolUse('Write', { file_path: target, content: 'hi\n' })] },
      { text: 'Plan: 1. create hello.txt. Plan complete. Ready to implement?' },
    ]);
    expect(main.length).toBe(2);
    // SessionStart and UserPromptSubmit context reached the model.
    const firstSeen = newestTurnText(main[0]!);
    expect(firstSeen).toContain('PLANNING phase');
    expect(firstSeen).toContain('Workflow `plan-execute` is in phase `plan`');
    // The Write came back to the model as an error carrying the phase's reason.
    const [writeResult] = toolResultsIn(main[1]!);
    expect(writeResult?.is_error).toBe(true);
    // Claude Code calls every hook deny a "hook error"; gobby's first words say it is the workflow's rule.
    expect(writeResult?.text).toContain('PreToolUse:Write hook error: Workflow rule (plan-execute, phase plan): Write is not allowed in this phase.');
    expect(writeResult?.text).toContain('Ready to implement?');
    expect(existsSync(target)).toBe(false);
    // The SessionStart command client ran and answered.
    const sessionStart = hookEvents(run.events, 'SessionStart').find((event) => event.subtype === 'hook_response');
    expect(sessionStart?.exit_code).toBe(0);

    const status = await gobby.json<Status>(['workflow', 'status'], box.project);
    expect(status).toMatchObject({ workflow: 'plan-execute', phase: 'plan' });
    expect(status.pending_approval?.prompt).toBe('Plan complete. Ready to implement?');
    expect(status.action_counts.blocked).toBe(1);
    expect(status.last_decisions).toContainEqual(
      expect.objectContaining({ event: 'PreToolUse', tool: 'Write', decision: 'deny', phase: 'plan', because: 'phase plan: blocked_tools' }),
    );
  }, TIMEOUT);

  it('moves to execute when the user answers yes, and the Write then succeeds', async () => {
    const { target, turn, status: statusNow } = await awaitingApproval();
    const { requests: main } = await turn('yes', [{ toolUses: [uniqueToolUse('Write', { file_path: target, content: 'hi\n' })] }, { text: 'Done.' }]);
    expect(newestTurnText(main[0]!)).toContain('EXECUTION phase: the user approved the plan');
    const [writeResult] = toolResultsIn(main[1]!);
    expect(writeResult?.is_error).toBe(false);
    expect(readFileSync(target, 'utf8')).toBe('hi\n');

    const status = await statusNow();
    expect(status).toMatchObject({ phase: 'execute', pending_approval: null });
    expect(status.action_counts).toMatchObject({ phase: 1, total: 1, blocked: 1 });
    const events = status.last_decisions.map((d) => `${d.event}:${d.tool ?? ''}:${d.decision}:${d.phase}`);
    expect(events).toContain('phase_changed::none:execute');
    expect(events).toContain('PreToolUse:Write:allow:execute');
    expect(events).toContain('PostToolUse:Write:allow:execute');
  }, TIMEOUT);
});
