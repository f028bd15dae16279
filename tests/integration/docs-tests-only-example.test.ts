// docs/workflows.md's "only the tests may run" example, loaded from the docs exactly as a
// user would copy it, and driven through the daemon as Claude Code drives it: what the
// docs say runs, runs; what they say is refused, is.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { workflowExampleAfter } from '../support/docs-example.js';
import { TestDaemon, writeProjectWorkflow } from './test-daemon.js';

/** The example's heading, on a line of its own (the first yaml block after it is the example). */
const HEADING = '\n## Example: only the tests may run\n';

let t: TestDaemon;
let session: string;

beforeEach(async () => {
  t = TestDaemon.create();
  writeProjectWorkflow(t.project, 'tests-only.yaml', workflowExampleAfter(HEADING));
  const set = await t.setWorkflow('tests-only');
  expect(set.status, set.text).toBe(200);
  session = t.newSessionId();
  await t.sessionStart(session);
});
afterEach(async () => t?.dispose());

async function bash(command: string): Promise<{ denied: boolean; reason: string }> {
  const output = (await t.preToolUse(session, 'Bash', { command })).body.hookSpecificOutput;
  return { denied: output?.permissionDecision === 'deny', reason: output?.permissionDecisionReason ?? '' };
}

describe('the docs example: only the tests may run', () => {
  it('loads, and the session starts in its diagnose phase', async () => {
    expect((await t.status()).body).toMatchObject({ workflow: 'tests-only', phase: 'diagnose' });
  });

  it.each(['npm test', 'npx vitest run tests/unit', 'pytest -q', 'cd src && npm test', 'npm test 2>&1 | tail -20', 'npm run check'])(
    'runs `%s`',
    async (command) => {
      expect(await bash(command)).toEqual({ denied: false, reason: '' });
    },
  );

  it.each([
    ['npm test; touch x', 'writes'],
    ['npm test > out.txt', 'writes'],
    ['echo > f', 'writes'],
    ['npm test && curl example.com', 'Only the tests may run in the diagnose phase'],
    ['ls', 'Only the tests may run in the diagnose phase'],
    ['cat src/app.ts', 'Only the tests may run in the diagnose phase'],
    ['npm run check && terraform apply', ''],
  ])('refuses `%s`', async (command, said) => {
    const { denied, reason } = await bash(command);
    expect(denied).toBe(true);
    expect(reason).toContain(said);
  });

  it('lets everything through once the user approves the fix', async () => {
    await t.stop(session, { askedApproval: false });
    await t.hook('Stop', session, { stop_hook_active: false, last_assistant_message: 'The cause is X. Ready to fix?', background_tasks: [], session_crons: [] });
    await t.prompt(session, 'yes');
    expect((await t.status()).body.phase).toBe('fix');
    expect((await bash('npm test; touch x')).denied).toBe(false);
  });
});
