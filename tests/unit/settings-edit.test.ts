// The text edits behind `gobby install` / `uninstall`: what a user sees in `git diff` after
// an install, and that an uninstall gives back the very bytes that were there.
import { describe, expect, it } from 'vitest';

import { buildGobbyHooks } from '../../hooks/install.js';
import { detectFormatting, installGobbyHooksInText, removeGobbyHooksFromText } from '../../hooks/settings-edit.js';

const hooks = buildGobbyHooks({ port: 7377, sessionStartCommand: 'gobby hook SessionStart' });

const USER_HOOKS = {
  PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './lint.sh', timeout: 30 }] }],
  Notification: [{ hooks: [{ type: 'http', url: 'http://127.0.0.1:9000/notify' }] }],
};

function roundTrip(before: string): { installed: string; after: string } {
  const installed = installGobbyHooksInText(before, hooks).text;
  return { installed, after: removeGobbyHooksFromText(installed).text };
}

describe('install then uninstall gives back the same bytes', () => {
  it.each([
    ['2-space JSON with other settings and hooks', `${JSON.stringify({ model: 'opus', hooks: USER_HOOKS, env: { A: 'b' } }, null, 2)}\n`],
    ['4-space indentation', `${JSON.stringify({ model: 'opus', hooks: USER_HOOKS }, null, 4)}\n`],
    ['tab indentation', `${JSON.stringify({ model: 'opus', hooks: USER_HOOKS }, null, '\t')}\n`],
    ['CRLF line endings', `${JSON.stringify({ model: 'opus', hooks: USER_HOOKS }, null, 2).replaceAll('\n', '\r\n')}\r\n`],
    ['no final newline', JSON.stringify({ model: 'opus' }, null, 2)],
    ['hand-aligned arrays kept on one line', '{\n  "permissions": { "allow": ["Bash(npm test)", "Read"] },\n  "model": "opus"\n}\n'],
    ['one line', '{"model":"opus","hooks":{"Stop":[{"hooks":[{"type":"command","command":"say done"}]}]}}'],
    ['comments (jsonc-parser keeps them; the file layer refuses them)', '{\n  // my model\n  "model": "opus" /* trailing */\n}\n'],
  ])('%s', (_what, before) => {
    const { installed, after } = roundTrip(before);
    expect(installed).not.toBe(before);
    expect(after).toBe(before);
  });

  it('keeps a user handler that shares a matcher group with a gobby handler', () => {
    const gobbyHandler = hooks['PreToolUse']![0]!.hooks[0];
    const before = `${JSON.stringify({ hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: 'mine' }, gobbyHandler] }] } }, null, 2)}\n`;
    const { text, events } = removeGobbyHooksFromText(before);
    expect(events).toEqual(['PreToolUse']);
    expect(JSON.parse(text)).toEqual({ hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: 'mine' }] }] } });
  });
});

describe('installGobbyHooksInText', () => {
  it('adds gobby entries in the file\'s own style: its indentation and line endings', () => {
    const tabs = installGobbyHooksInText('{\r\n\t"model": "opus"\r\n}\r\n', hooks).text;
    expect(tabs).toMatch(/^\{\r\n\t"model": "opus",\r\n\t"hooks": \{\r\n\t\t"SessionStart": \[/);
    expect(tabs).not.toMatch(/[^\r]\n/);
    expect(tabs.endsWith('}\r\n')).toBe(true);
    const fourSpaces = installGobbyHooksInText('{\n    "model": "opus"\n}\n', hooks).text;
    expect(fourSpaces).toContain('\n    "hooks": {\n        "SessionStart": [\n            {');
  });

  it('appends after the user\'s groups of the same event and leaves the rest in place', () => {
    const before = `${JSON.stringify({ hooks: USER_HOOKS }, null, 2)}\n`;
    const after = JSON.parse(installGobbyHooksInText(before, hooks).text);
    expect(after.hooks.PreToolUse).toEqual([...USER_HOOKS.PreToolUse, ...hooks['PreToolUse']!]);
    expect(after.hooks.Notification).toEqual(USER_HOOKS.Notification);
    expect(Object.keys(after.hooks).slice(0, 2)).toEqual(['PreToolUse', 'Notification']);
  });

  it('writes a new file as 2-space JSON with a final newline', () => {
    expect(installGobbyHooksInText('', hooks).text).toBe(`${JSON.stringify({ hooks }, null, 2)}\n`);
  });

  it('changes nothing the second time', () => {
    const once = installGobbyHooksInText('{\n    "model": "opus"\n}\n', hooks).text;
    expect(installGobbyHooksInText(once, hooks).text).toBe(once);
  });

  it('replaces an earlier install on another port instead of adding a second set', () => {
    const first = installGobbyHooksInText('{}\n', hooks).text;
    const second = JSON.parse(installGobbyHooksInText(first, buildGobbyHooks({ port: 8000, sessionStartCommand: 'x' })).text);
    expect(JSON.stringify(second)).not.toContain(':7377/');
    expect(second.hooks.PreToolUse).toHaveLength(1);
  });
});

describe('removeGobbyHooksFromText', () => {
  it('changes nothing in a file without gobby hooks', () => {
    const before = `${JSON.stringify({ hooks: USER_HOOKS }, null, 2)}\n`;
    expect(removeGobbyHooksFromText(before)).toEqual({ text: before, events: [] });
  });

  it('keeps an event list the user left empty', () => {
    const before = '{\n  "hooks": {\n    "Notification": []\n  }\n}\n';
    expect(removeGobbyHooksFromText(installGobbyHooksInText(before, hooks).text).text).toBe(before);
  });
});

describe('detectFormatting', () => {
  it.each([
    ['{\n  "a": 1\n}', { insertSpaces: true, tabSize: 2, eol: '\n' }],
    ['{\n    "a": 1\n}', { insertSpaces: true, tabSize: 4, eol: '\n' }],
    ['{\r\n\t"a": 1\r\n}', { insertSpaces: false, tabSize: 1, eol: '\r\n' }],
    ['{}\n', { insertSpaces: true, tabSize: 2, eol: '\n' }],
    ['{"a":1}\n', undefined],
  ])('%j', (text, expected) => {
    expect(detectFormatting(text)).toEqual(expected);
  });
});

describe('what an install adds', () => {
  it('leaves the user\'s own lines alone, however they are laid out', () => {
    const before = '{\r\n    "permissions": { "allow": ["Bash(npm test)"] },\r\n    "hooks": {\r\n        "Stop": [\r\n            { "hooks": [ { "type": "command", "command": "say done" } ] }\r\n        ]\r\n    }\r\n}\r\n';
    const installed = installGobbyHooksInText(before, hooks).text;
    expect(installed).toContain('\r\n            { "hooks": [ { "type": "command", "command": "say done" } ] },\r\n            {\r\n                "hooks": [');
    expect(removeGobbyHooksFromText(installed).text).toBe(before);
  });
});
