// What a settings file contributes to the hooks that hold a session: gobby's entries, and
// whether it switches every hook off. The daemon compares these views across a ConfigChange.
import { describe, expect, it } from 'vitest';
import { viewHookSettings } from '../../hooks/hook-settings-view.js';
import { buildGobbyHooks } from '../../hooks/install.js';
import { installGobbyHooksInText } from '../../hooks/settings-edit.js';

const URL = 'http://127.0.0.1:7377/hooks/PreToolUse';
const installed = installGobbyHooksInText('{}\n', buildGobbyHooks({ port: 7377, sessionStartCommand: 'start' })).text;

describe('viewHookSettings', () => {
  it("lists gobby's entries by event and matcher, not the user's own", () => {
    const withUsers = installGobbyHooksInText(
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './lint.sh' }] }] } }),
      buildGobbyHooks({ port: 7377, sessionStartCommand: 'start' }),
    ).text;
    const labels = [...viewHookSettings(withUsers, URL).gobbyHandlers.values()];
    expect(labels).toContain('PreToolUse');
    expect(labels).toContain('ConfigChange');
    expect(labels).toHaveLength(11);
  });

  it.each([
    ['no file', null],
    ['bad JSON', installed.replace('{', '{,')],
    ['comments (Claude Code reads strict JSON)', `// mine\n${installed}`],
    ['a wrongly typed known key', installed.replace('{', '{"permissions": "oops",')],
    ['not an object', '[]'],
  ])('counts nothing of gobby in %s', (_what, text) => {
    expect(viewHookSettings(text, URL).gobbyHandlers.size).toBe(0);
  });

  it("keeps gobby's entries when a hook entry of the user's is bad (Claude Code drops only that entry)", () => {
    const withBadEntry = installed.replace('"hooks": {', '"hooks": {\n    "Notification": [{ "hooks": [{ "type": "http", "url": "not a url" }] }],');
    expect(viewHookSettings(withBadEntry, URL).gobbyHandlers.size).toBe(11);
    expect(viewHookSettings(installed.replace('"hooks": {', '"hooks": [], "x": {'), URL).gobbyHandlers.size).toBe(0);
  });

  it('reads a file with a byte-order mark', () => {
    expect(viewHookSettings(`\uFEFF${installed}`, URL).gobbyHandlers.size).toBe(11);
  });

  it.each([
    ['{"disableAllHooks": true}', 'disableAllHooks'],
    ['{"allowedHttpHookUrls": []}', 'allowedHttpHookUrls'],
    ['{"allowedHttpHookUrls": ["http://localhost:*"]}', 'allowedHttpHookUrls'],
    ['{"allowedHttpHookUrls": ["http://127.0.0.1:7377/hooks/Stop"]}', 'allowedHttpHookUrls'],
  ])('%s switches hooks off', (text, said) => {
    expect(viewHookSettings(text, URL).switchesHooksOff).toContain(said);
  });

  it.each([
    '{"disableAllHooks": false}',
    '{"allowedHttpHookUrls": ["http://127.0.0.1:*"]}',
    '{"allowedHttpHookUrls": ["https://example.com/*", "http://127.0.0.1:7377/*"]}',
    '{"allowedHttpHookUrls": ["*"]}',
    '{"allowedHttpHookUrls": ["http://*:7377/hooks/*"]}',
    '{"model": "opus"}',
  ])('%s leaves them on', (text) => {
    expect(viewHookSettings(text, URL).switchesHooksOff).toBeUndefined();
  });
});
