// The text edits behind `gobby install` / `uninstall`: what a user sees in `git diff` after
// an install, and that an uninstall gives back the very bytes that were there.
import { describe, expect, it } from 'vitest';

import { buildGobbyHooks } from '../../hooks/install.js';
import { detectFormatting, installGobbyHooksInText, removeGobbyHooksFromText, setTopLevelKeyInText } from '../../hooks/settings-edit.js';
import { installStatusLineInText, removeStatusLineFromText } from '../../hooks/statusline-setting.js';

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

describe('setTopLevelKeyInText', () => {
  const statusLine = { type: 'command', command: 'gobby statusline' };

  it('adds a missing key at the end, in the file\'s own layout', () => {
    expect(setTopLevelKeyInText('{\r\n\t"model": "opus"\r\n}\r\n', 'statusLine', statusLine)).toBe(
      '{\r\n\t"model": "opus",\r\n\t"statusLine": {\r\n\t\t"type": "command",\r\n\t\t"command": "gobby statusline"\r\n\t}\r\n}\r\n',
    );
    expect(setTopLevelKeyInText('{"model":"opus"}', 'statusLine', statusLine)).toBe('{"model":"opus","statusLine":{"type":"command","command":"gobby statusline"}}');
    expect(setTopLevelKeyInText('', 'statusLine', statusLine)).toBe(`${JSON.stringify({ statusLine }, null, 2)}\n`);
  });

  it('replaces only what differs: the other keys keep their place and layout', () => {
    const before = '{\n    "statusLine": { "padding": 0, "type": "command", "command": "~/sl.sh" },\n    "model": "opus"\n}\n';
    const after = setTopLevelKeyInText(before, 'statusLine', { padding: 0, type: 'command', command: "gobby statusline --then '~/sl.sh'" });
    expect(after).toBe('{\n    "statusLine": { "padding": 0, "type": "command", "command": "gobby statusline --then \'~/sl.sh\'" },\n    "model": "opus"\n}\n');
    expect(setTopLevelKeyInText(after, 'statusLine', { padding: 0, type: 'command', command: '~/sl.sh' })).toBe(before);
  });

  it('replaces a value of another kind in one splice, indented where it sits', () => {
    const before = '{\n  "statusLine": "oops",\n  "model": "opus"\n}\n';
    expect(setTopLevelKeyInText(before, 'statusLine', statusLine)).toBe(
      '{\n  "statusLine": {\n    "type": "command",\n    "command": "gobby statusline"\n  },\n  "model": "opus"\n}\n',
    );
  });

  it('removes a key with its comma, and changes nothing for a key that is absent or a value that is the same', () => {
    expect(setTopLevelKeyInText('{\n  "a": 1,\n  "statusLine": {},\n  "b": 2\n}\n', 'statusLine', undefined)).toBe('{\n  "a": 1,\n  "b": 2\n}\n');
    expect(setTopLevelKeyInText('{\n  "statusLine": 1\n}\n', 'statusLine', undefined)).toBe('{}\n');
    const text = '{\n  "statusLine": {"type": "command", "command": "x"}\n}\n';
    expect(setTopLevelKeyInText(text, 'other', undefined)).toBe(text);
    expect(setTopLevelKeyInText(text, 'statusLine', { type: 'command', command: 'x' })).toBe(text);
  });
});

describe('install then uninstall, status line included, gives back the same bytes', () => {
  const GOBBY = 'gobby statusline';
  const THEIRS = { type: 'command', command: "~/.claude/statusline.sh --color 'auto'", padding: 0 };

  function fullRoundTrip(before: string, portable: boolean): { installed: string; again: string; after: string } {
    const install = (text: string) => installStatusLineInText(installGobbyHooksInText(text, hooks).text, GOBBY, { portable }).text;
    const installed = install(before);
    const again = install(installed);
    const after = removeStatusLineFromText(removeGobbyHooksFromText(installed).text, GOBBY).text;
    return { installed, again, after };
  }

  it.each([
    ['2-space, with their status line', `${JSON.stringify({ model: 'opus', statusLine: THEIRS, hooks: USER_HOOKS }, null, 2)}\n`],
    ['2-space, without one', `${JSON.stringify({ model: 'opus', hooks: USER_HOOKS }, null, 2)}\n`],
    ['4-space, with their status line', `${JSON.stringify({ statusLine: THEIRS, model: 'opus' }, null, 4)}\n`],
    ['4-space, without one', `${JSON.stringify({ model: 'opus' }, null, 4)}\n`],
    ['tabs, with their status line', `${JSON.stringify({ model: 'opus', statusLine: THEIRS }, null, '\t')}\n`],
    ['tabs, without one', `${JSON.stringify({ model: 'opus' }, null, '\t')}\n`],
    ['CRLF, with their status line', `${JSON.stringify({ statusLine: THEIRS, hooks: USER_HOOKS }, null, 2).replaceAll('\n', '\r\n')}\r\n`],
    ['CRLF, without one', `${JSON.stringify({ model: 'opus', hooks: USER_HOOKS }, null, 2).replaceAll('\n', '\r\n')}\r\n`],
    ['their status line on one line of its own', '{\n  "statusLine": { "type": "command", "command": "echo \\"$PWD\\"" },\n  "model": "opus"\n}\n'],
    ['one line', `{"statusLine":${JSON.stringify(THEIRS)}}`],
  ])('%s', (_what, before) => {
    for (const portable of [false, true]) {
      const { installed, again, after } = fullRoundTrip(before, portable);
      expect(installed).not.toBe(before);
      expect(again).toBe(installed);
      expect(after).toBe(before);
    }
  });
});
