// When a "yes" counts as approval: only after the model ended its turn with the phase's
// approval question, so a yes to a clarifying question does not leave the plan phase.
import { describe, expect, it } from 'vitest';
import { evaluateEvent, startWorkflow, type CompiledWorkflow, type WorkflowState } from '../../workflows/index.js';
import { loadTemplate } from './engine-test-helpers.js';

function planExecute(): CompiledWorkflow {
  return loadTemplate('plan-execute');
}

function afterTurnEndingWith(workflow: CompiledWorkflow, lastAssistantMessage: string | undefined): WorkflowState {
  const { state } = startWorkflow(workflow, { now: 0 });
  return evaluateEvent(workflow, state, { name: 'Stop', stopHookActive: false, lastAssistantMessage }, { now: 1 }).state;
}

describe('user_approval in plan-execute', () => {
  const workflow = planExecute();

  it.each([
    ['the exact question', 'Plan: 1. add x. Plan complete. Ready to implement?', true],
    ['the question in other case and punctuation', 'PLAN COMPLETE — ready to implement', true],
    ['a clarifying question', 'Should I also update the tests?', false],
    ['a plan without the question', 'Here is my plan: 1. add x.', false],
    ['the question and then another', 'Plan complete. Ready to implement? Or should I first update the docs?', false],
    ['the question and then more text', 'Plan complete. Ready to implement?\n\nP.S. This also drops a table.', false],
    ['no message (older Claude Code)', undefined, true],
  ])('a turn ending with %s asks for approval: %s', (_label, message, asked) => {
    const state = afterTurnEndingWith(workflow, message);
    expect(state.pendingApproval !== null).toBe(asked);
    const reply = evaluateEvent(workflow, state, { name: 'UserPromptSubmit', prompt: 'yes' }, { now: 2 });
    expect(reply.state.phase).toBe(asked ? 'execute' : 'plan');
  });

  it('the latest turn decides: a question asked after the approval question withdraws it', () => {
    const asked = afterTurnEndingWith(workflow, 'Plan complete. Ready to implement?');
    expect(asked.pendingApproval).not.toBeNull();
    const withdrawn = evaluateEvent(workflow, asked, { name: 'Stop', stopHookActive: false, lastAssistantMessage: 'Which database should I use?' }, { now: 2 }).state;
    expect(withdrawn.pendingApproval).toBeNull();
    expect(evaluateEvent(workflow, withdrawn, { name: 'UserPromptSubmit', prompt: 'yes' }, { now: 3 }).state.phase).toBe('plan');
  });

  it('tells the model the exact question to end its turn with', () => {
    const { state } = startWorkflow(workflow, { now: 0 });
    const decision = evaluateEvent(workflow, state, { name: 'UserPromptSubmit', prompt: 'build x' }, { now: 1 }).decision;
    expect(decision.kind === 'allow' && decision.context).toContain(
      'end your turn with exactly this question to the user: "Plan complete. Ready to implement?"',
    );
  });
});
