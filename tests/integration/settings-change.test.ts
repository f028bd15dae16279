// A settings file changed while a session runs (Claude Code's ConfigChange): a change that
// would drop gobby's hooks or switch every hook off is blocked for the running session,
// recorded as a tamper attempt and told to the user, whatever wrote the file. Any other change
// goes through.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildGobbyHooks } from '../../hooks/install.js';
import { installGobbyHooksInText } from '../../hooks/settings-edit.js';
import { TestDaemon, writeProjectWorkflow, type Json } from './test-daemon.js';

const FREE = `
name: free
phases:
  - name: work
    allowed_tools: all
`;

const GOBBY_HOOKS = buildGobbyHooks({ port: 7377, sessionStartCommand: 'gobby-session-start' });

let t: TestDaemon;
let session: string;
let shared: string;
let local: string;

/** The settings file as `gobby install` writes it, with the user's own keys beside gobby's hooks. */
function installedText(extra: Record<string, unknown> = {}): string {
  return installGobbyHooksInText(`${JSON.stringify({ permissions: { allow: ['Bash(npm test)'] }, ...extra }, null, 2)}\n`, GOBBY_HOOKS).text;
}

function configChange(file: string, source = 'project_settings'): Promise<{ body: Json }> {
  return t.hook('ConfigChange', session, { source, file_path: file });
}

beforeEach(async () => {
  t = TestDaemon.create();
  writeProjectWorkflow(t.project, 'free.yaml', FREE);
  await t.setWorkflow('free');
  mkdirSync(join(t.project, '.claude'), { recursive: true });
  shared = join(t.project, '.claude', 'settings.json');
  local = join(t.project, '.claude', 'settings.local.json');
  writeFileSync(shared, installedText());
  session = t.newSessionId();
  await t.sessionStart(session);
});
afterEach(async () => t?.dispose());

describe('a settings change while a session runs', () => {
  it.each([
    ['sets disableAllHooks in another file', () => writeFileSync(local, '{"disableAllHooks": true}\n'), 'local', 'disableAllHooks'],
    ['removes the hooks', () => writeFileSync(shared, '{}\n'), 'shared', 'removes gobby\'s hooks for SessionStart, PreToolUse'],
    ['deletes the file', () => rmSync(shared), 'shared', 'removes gobby\'s hooks for'],
    ['breaks the JSON (Claude Code would drop the file)', () => writeFileSync(shared, installedText().replace('{', '{,')), 'shared', 'removes gobby\'s hooks'],
    ['types a known key wrongly (Claude Code would drop the file)', () => writeFileSync(shared, installedText({ permissions: 'oops' })), 'shared', 'removes gobby\'s hooks'],
    ['narrows the PreToolUse matcher', () => writeFileSync(shared, installedText().replace('"matcher": "*"', '"matcher": "Read"')), 'shared', 'PreToolUse'],
    ['drops onFailure', () => writeFileSync(shared, installedText().replace(/,\s*"onFailure": "block"/g, '')), 'shared', 'PreToolUse'],
    ['lists allowed hook URLs without gobby\'s', () => writeFileSync(local, '{"allowedHttpHookUrls": ["https://example.com/*"]}\n'), 'local', 'allowedHttpHookUrls'],
  ])('is blocked when it %s', async (_what, change, which, said) => {
    change();
    const file = which === 'local' ? local : shared;
    const { body } = await configChange(file, which === 'local' ? 'local_settings' : 'project_settings');
    expect(body.decision).toBe('block');
    expect(body.reason).toContain(said);
    // The user hears of it with the session's next answer (Claude Code shows no ConfigChange message).
    const next = await t.preToolUse(session, 'Read', { file_path: join(t.project, 'README.md') });
    expect(next.body.systemMessage).toContain(`gobby kept this session's hooks: ${file} was changed on disk`);
    const rows = t.auditRows(session);
    expect(rows.find((row) => row.event === 'tamper:protected-file')).toMatchObject({ tool: 'ConfigChange' });
    expect(rows.find((row) => row.event === 'ConfigChange')).toMatchObject({ decision: 'deny', because: 'guard: settings change that turns gobby off' });
  });

  it('is let through when gobby\'s hooks stay, and the next change is judged against it', async () => {
    writeFileSync(shared, installedText({ model: 'opus' }));
    expect((await configChange(shared)).body).toEqual({});
    writeFileSync(local, '{"permissions": {"deny": ["Bash(rm:*)"]}}\n');
    expect((await configChange(local, 'local_settings')).body).toEqual({});
    // gobby's hooks moved to the local file: the session still has them all.
    writeFileSync(local, installedText());
    expect((await configChange(local, 'local_settings')).body).toEqual({});
    writeFileSync(shared, '{}\n');
    expect((await configChange(shared)).body).toEqual({});
    // Now the local file is where they are: removing them there is blocked.
    writeFileSync(local, '{}\n');
    expect((await configChange(local, 'local_settings')).body.decision).toBe('block');
  });

  it('keeps judging against the last change it let through, not the blocked one', async () => {
    writeFileSync(shared, '{}\n');
    expect((await configChange(shared)).body.decision).toBe('block');
    // Claude Code kept the old settings; the file is still stripped, and a second event about it is blocked too.
    writeFileSync(shared, '{"model": "opus"}\n');
    expect((await configChange(shared)).body.decision).toBe('block');
    writeFileSync(shared, installedText({ model: 'opus' }));
    const restored = (await configChange(shared)).body;
    expect(restored.decision).toBeUndefined();
    // The answer after a block also carries the user's notice about it.
    expect(restored.systemMessage).toContain("gobby kept this session's hooks");
  });

  it('after a daemon restart judges a first ConfigChange by a switch that turns hooks off only', async () => {
    await t.restart();
    writeFileSync(shared, '{}\n');
    expect((await configChange(shared)).body).toEqual({});
    writeFileSync(local, '{"disableAllHooks": true}\n');
    expect((await configChange(local, 'local_settings')).body.decision).toBe('block');
  });

  it('after a daemon restart remembers the settings on the session\'s next event', async () => {
    await t.restart();
    await t.preToolUse(session, 'Read', { file_path: join(t.project, 'README.md') });
    writeFileSync(shared, '{}\n');
    expect((await configChange(shared)).body.decision).toBe('block');
  });

  it('lets changes through in a session whose settings never held gobby\'s hooks (installed elsewhere)', async () => {
    writeFileSync(shared, '{}\n');
    const other = t.newSessionId();
    await t.sessionStart(other);
    writeFileSync(shared, '{"model": "opus"}\n');
    expect((await t.hook('ConfigChange', other, { source: 'project_settings', file_path: shared })).body).toEqual({});
  });

  it('is not stalled by a FIFO or a device where a settings file belongs', async () => {
    rmSync(local, { force: true });
    execFileSync('mkfifo', [local]);
    // Reading a FIFO would wait for a writer for ever; the daemon answers at once instead.
    const { body } = await configChange(local, 'local_settings');
    expect(body.decision).toBeUndefined();
    rmSync(shared);
    symlinkSync('/dev/zero', shared);
    expect((await configChange(shared)).body.decision).toBe('block');
    const other = t.newSessionId();
    await t.sessionStart(other);
    expect(t.auditRows(other).map((row) => row.event)).toContain('SessionStart');
  });

  it('lets a skills change through', async () => {
    expect((await t.hook('ConfigChange', session, { source: 'skills' })).body).toEqual({});
    expect(t.auditRows(session).filter((row) => row.event.startsWith('tamper:'))).toEqual([]);
  });

  it('refuses a ConfigChange payload without its source', async () => {
    const reply = await t.hook('ConfigChange', session, { file_path: shared });
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('GOBBY_ERR_HOOK_INVALID_PAYLOAD');
  });
});

describe('an install made by an older gobby', () => {
  it('is told at session start which hooks it lacks and how to update them', async () => {
    const { ConfigChange: _dropped, ...older } = GOBBY_HOOKS;
    writeFileSync(shared, installGobbyHooksInText('{}\n', older).text);
    const old = t.newSessionId();
    const { body } = await t.sessionStart(old);
    expect(body.systemMessage).toContain('come from an older gobby and lack ConfigChange');
    expect(body.systemMessage).toContain('Run `gobby install` again');
  });

  it('is not mentioned when the install is current or gobby is installed elsewhere', async () => {
    expect((await t.sessionStart(t.newSessionId())).body.systemMessage ?? '').not.toContain('older gobby');
    writeFileSync(shared, '{}\n');
    expect((await t.sessionStart(t.newSessionId())).body.systemMessage ?? '').not.toContain('older gobby');
  });
});

