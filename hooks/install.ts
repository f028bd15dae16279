// Installs gobby's hook entries into a Claude Code settings.json and removes
// them again. The pure functions (build / merge / remove) do the editing; the
// file functions add the safety a user's hand-edited file deserves: refuse to
// touch a file we cannot read correctly, never write a file Claude Code would
// silently ignore, back up what we replace, and write atomically.
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, realpath, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

import { gobbyError, type GobbyError } from './errors.js';
import { validateSettings, type MatcherGroup } from './settings-schema.js';
import { quoteForShell } from './shell-quote.js';

/** Header on every gobby http handler; it is how uninstall recognises ours. */
const GOBBY_HOOK_HEADER = 'X-Gobby-Hook';
/** Trailing shell comment on every gobby command handler, for the same reason. */
const GOBBY_COMMAND_MARKER = ' # gobby-hook';

export type GobbyHooks = Record<string, MatcherGroup[]>;
type JsonObject = Record<string, unknown>;

interface HttpHookSpec {
  event: string;
  /** Tool events filter on tool_name; '*' states "every tool" explicitly. */
  matcher?: string;
  /** Seconds. Claude Code's default is 600 s, far too long to stall on a hung daemon. */
  timeout: number;
  /** Guard events fail closed in strict mode, so a dead daemon blocks instead of waving through. */
  guard: boolean;
}

// The daemon answers in milliseconds; these bounds only matter when it hangs.
const HTTP_HOOKS: readonly HttpHookSpec[] = [
  { event: 'PreToolUse', matcher: '*', timeout: 5, guard: true },
  { event: 'PostToolUse', matcher: '*', timeout: 5, guard: false },
  { event: 'PostToolUseFailure', matcher: '*', timeout: 5, guard: false },
  { event: 'UserPromptSubmit', timeout: 5, guard: true },
  { event: 'Stop', timeout: 10, guard: false },
  { event: 'SubagentStart', timeout: 10, guard: false },
  { event: 'SubagentStop', timeout: 10, guard: false },
  { event: 'PreCompact', timeout: 10, guard: false },
  // Claude Code waits for SessionEnd hooks while exiting; keep that wait short.
  { event: 'SessionEnd', timeout: 5, guard: false },
];

// SessionStart may have to start the daemon (spawn + health poll ≈ 5 s) before posting.
const SESSION_START_TIMEOUT_SECONDS = 15;

export interface BuildGobbyHooksOptions {
  port: number;
  /** Command that runs the hook client, without the event name, e.g. `formatClientCommand(...)`. */
  clientCommand: string;
  /** Fail open: no `onFailure: "block"`, and the client never blocks. */
  lenient?: boolean;
}

/** gobby's hook entries, keyed by Claude Code event name. */
export function buildGobbyHooks({ port, clientCommand, lenient = false }: BuildGobbyHooksOptions): GobbyHooks {
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new RangeError(`gobby: port must be an integer between 1 and 65535, got ${port}`);
  }
  const hooks: GobbyHooks = {};
  // Claude Code never runs http hooks for SessionStart (§1 fact 2), hence a command hook.
  const sessionStartCommand = `${clientCommand} SessionStart${lenient ? ' --lenient' : ''}${GOBBY_COMMAND_MARKER}`;
  hooks['SessionStart'] = [
    { hooks: [{ type: 'command', command: sessionStartCommand, timeout: SESSION_START_TIMEOUT_SECONDS }] },
  ];
  for (const spec of HTTP_HOOKS) {
    const handler = {
      type: 'http' as const,
      url: `http://127.0.0.1:${port}/hooks/${spec.event}`,
      timeout: spec.timeout,
      headers: { [GOBBY_HOOK_HEADER]: '1' },
      ...(spec.guard && !lenient ? { onFailure: 'block' as const } : {}),
    };
    hooks[spec.event] = [spec.matcher === undefined ? { hooks: [handler] } : { matcher: spec.matcher, hooks: [handler] }];
  }
  return hooks;
}

export interface ClientCommandOptions {
  /** Absolute path of dist/hooks/client.js. */
  clientPath: string;
  /** Defaults to this Node binary, so the hook does not depend on Claude Code's PATH. */
  nodePath?: string;
}

/** `<node> <client.js>`, each quoted for the bash that Claude Code runs command hooks in. */
export function formatClientCommand({ clientPath, nodePath = process.execPath }: ClientCommandOptions): string {
  return `${quoteForShell(nodePath)} ${quoteForShell(clientPath)}`;
}

/** True for a handler gobby wrote: an http handler with our header or a command with our marker. */
function isGobbyHandler(handler: unknown): boolean {
  if (!isPlainObject(handler)) return false;
  if (handler['type'] === 'http') {
    const headers = handler['headers'];
    return isPlainObject(headers) && Object.keys(headers).some((k) => k.toLowerCase() === GOBBY_HOOK_HEADER.toLowerCase());
  }
  if (handler['type'] === 'command') {
    const command = handler['command'];
    return typeof command === 'string' && command.trimEnd().endsWith(GOBBY_COMMAND_MARKER);
  }
  return false;
}

/**
 * Replaces gobby's entries in `settings` with `gobbyHooks`. Everything else,
 * including user handlers that share a matcher group with one of ours, is kept
 * in place; our groups go at the end of each event's list. Idempotent.
 */
export function mergeGobbyHooks(settings: JsonObject, gobbyHooks: GobbyHooks): JsonObject {
  assertHooksIsObject(settings);
  const { hooks: stripped } = stripGobbyHandlers(settings['hooks']);
  const events = new Map<string, unknown>(Object.entries(stripped ?? {}));
  for (const [event, groups] of Object.entries(gobbyHooks)) {
    const existing = events.get(event);
    if (existing !== undefined && !Array.isArray(existing)) {
      throw invalidSettings(`hooks.${event} must be an array of matcher groups`);
    }
    events.set(event, [...(existing ?? []), ...groups]);
  }
  if (settings['hooks'] === undefined && events.size === 0) return { ...settings };
  // Object spread and fromEntries define own properties, so odd keys such as "__proto__" survive.
  return { ...settings, hooks: Object.fromEntries(events) };
}

/** Removes exactly gobby's handlers, then the groups, events and `hooks` key that this left empty. */
export function removeGobbyHooks(settings: JsonObject): JsonObject {
  return removeGobbyHooksReporting(settings).settings;
}

function removeGobbyHooksReporting(settings: JsonObject): { settings: JsonObject; removedFrom: string[] } {
  assertHooksIsObject(settings);
  const { hooks, removedFrom } = stripGobbyHandlers(settings['hooks']);
  if (removedFrom.length === 0) return { settings: { ...settings }, removedFrom };
  if (hooks && Object.keys(hooks).length > 0) return { settings: { ...settings, hooks }, removedFrom };
  const withoutHooks = { ...settings };
  delete withoutHooks['hooks'];
  return { settings: withoutHooks, removedFrom };
}

function stripGobbyHandlers(hooks: unknown): { hooks: JsonObject | undefined; removedFrom: string[] } {
  if (!isPlainObject(hooks)) return { hooks: undefined, removedFrom: [] };
  const removedFrom: string[] = [];
  const keptEvents: [string, unknown][] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) {
      keptEvents.push([event, groups]);
      continue;
    }
    let removedHere = false;
    const keptGroups: unknown[] = [];
    for (const group of groups) {
      const handlers = isPlainObject(group) ? group['hooks'] : undefined;
      if (!isPlainObject(group) || !Array.isArray(handlers)) {
        keptGroups.push(group);
        continue;
      }
      const keptHandlers = handlers.filter((h) => !isGobbyHandler(h));
      if (keptHandlers.length === handlers.length) {
        keptGroups.push(group);
        continue;
      }
      removedHere = true;
      if (keptHandlers.length > 0) keptGroups.push({ ...group, hooks: keptHandlers });
    }
    if (removedHere) removedFrom.push(event);
    // An event list the user left empty is theirs to keep; one we emptied goes.
    if (!removedHere || keptGroups.length > 0) keptEvents.push([event, keptGroups]);
  }
  return { hooks: Object.fromEntries(keptEvents), removedFrom };
}

function assertHooksIsObject(settings: JsonObject): void {
  const hooks = settings['hooks'];
  if (hooks !== undefined && !isPlainObject(hooks)) throw invalidSettings('hooks must be an object keyed by event name');
}

function invalidSettings(problem: string): GobbyError {
  return gobbyError('GOBBY_ERR_INSTALL_INVALID_SETTINGS', `cannot edit these settings: ${problem}`);
}

// ---------------------------------------------------------------------------
// Files

export interface SettingsFileSummary {
  path: string;
  changed: boolean;
  /** Copy of the previous content; only when the file existed and was rewritten. */
  backupPath?: string;
  /** Events gobby hooks were installed for (install) or removed from (uninstall). */
  events: string[];
}

export interface InstallIntoFileOptions {
  path: string;
  gobbyHooks: GobbyHooks;
  /** Stamps the backup file name. */
  now?: Date;
}

export async function installIntoFile({ path, gobbyHooks, now = new Date() }: InstallIntoFileOptions): Promise<SettingsFileSummary> {
  const current = await readSettingsFile(path);
  const next = mergeGobbyHooks(current.settings, gobbyHooks);
  return writeSettingsIfChanged(path, current, next, now, Object.keys(gobbyHooks));
}

export interface UninstallFromFileOptions {
  path: string;
  now?: Date;
}

export async function uninstallFromFile({ path, now = new Date() }: UninstallFromFileOptions): Promise<SettingsFileSummary> {
  const current = await readSettingsFile(path);
  if (!current.existed) return { path, changed: false, events: [] };
  const { settings: next, removedFrom } = removeGobbyHooksReporting(current.settings);
  return writeSettingsIfChanged(path, current, next, now, removedFrom);
}

interface SettingsFileContent {
  existed: boolean;
  raw: Buffer | null;
  settings: JsonObject;
}

/** Reads and checks the file; a missing or blank file reads as `{}`. */
async function readSettingsFile(path: string): Promise<SettingsFileContent> {
  let raw: Buffer;
  try {
    raw = await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { existed: false, raw: null, settings: {} };
    throw error;
  }
  const text = raw.toString('utf8').replace(/^\uFEFF/, '');
  if (text.trim() === '') return { existed: true, raw, settings: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const { line, column } = lineAndColumn(text, locateJsonSyntaxError(text));
    throw gobbyError(
      'GOBBY_ERR_INSTALL_INVALID_JSON',
      `refusing to edit ${path}: it is not valid JSON (line ${line}, column ${column}: ${(error as Error).message}). ` +
        'Claude Code ignores such a file entirely. Fix it, then run the command again; the file was left untouched.',
    );
  }
  const validation = validateSettings(parsed);
  if (!validation.ok) {
    throw gobbyError(
      'GOBBY_ERR_INSTALL_INVALID_SETTINGS',
      `refusing to edit ${path}: Claude Code would ignore this file, or the entries below, because of:\n` +
        validation.problems.map((p) => `  - ${p}`).join('\n') +
        '\nFix these entries, then run the command again; the file was left untouched.',
    );
  }
  return { existed: true, raw, settings: parsed as JsonObject };
}

async function writeSettingsIfChanged(
  path: string,
  current: SettingsFileContent,
  next: JsonObject,
  now: Date,
  events: string[],
): Promise<SettingsFileSummary> {
  // Compare content, not bytes: a file that only differs in formatting is left alone.
  const unchanged = current.existed ? JSON.stringify(current.settings) === JSON.stringify(next) : Object.keys(next).length === 0;
  if (unchanged) return { path, changed: false, events };

  const validation = validateSettings(next);
  if (!validation.ok) {
    throw gobbyError(
      'GOBBY_ERR_INSTALL_INVALID_SETTINGS',
      `refusing to write ${path}: the result would not be valid Claude Code settings:\n` +
        validation.problems.map((p) => `  - ${p}`).join('\n'),
    );
  }

  await mkdir(dirname(path), { recursive: true });
  // Write through a symlink (dotfile managers link settings.json) instead of replacing it.
  const target = current.existed ? await realpath(path) : path;
  const mode = current.existed ? (await stat(target)).mode & 0o777 : undefined;
  const backupPath = current.raw ? await writeBackup(path, current.raw, now, mode) : undefined;
  await writeFileAtomic(target, `${JSON.stringify(next, null, 2)}\n`, mode);
  return backupPath === undefined ? { path, changed: true, events } : { path, changed: true, backupPath, events };
}

async function writeBackup(path: string, content: Buffer, now: Date, mode: number | undefined): Promise<string> {
  // 20251121T230600Z: sortable, and free of ':' which Windows file names reject.
  const stamp = now.toISOString().replace(/\.\d+Z$/, 'Z').replace(/[-:]/g, '');
  for (let attempt = 0; ; attempt++) {
    const candidate = `${path}.gobby-backup-${stamp}${attempt === 0 ? '' : `-${attempt}`}`;
    try {
      await writeFile(candidate, content, { flag: 'wx', ...(mode === undefined ? {} : { mode }) });
      return candidate;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 99) throw error;
    }
  }
}

/** Temp file in the same directory + rename, so Claude Code never reads a half-written file. */
async function writeFileAtomic(target: string, text: string, mode: number | undefined): Promise<void> {
  const temp = join(dirname(target), `.${basename(target)}.gobby-tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    const handle = await open(temp, 'wx', mode ?? 0o644);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

// ---------------------------------------------------------------------------
// JSON error position. V8's JSON.parse messages only sometimes carry a
// position ("Unexpected token '}', ... is not valid JSON" does not), so find
// the offset with a small strict scanner instead.

class JsonSyntaxStop {
  constructor(readonly offset: number) {}
}

/** Offset of the first JSON syntax error in `text`, or `text.length` if none is found. */
function locateJsonSyntaxError(text: string): number {
  let i = 0;
  const stop = (): never => {
    throw new JsonSyntaxStop(i);
  };
  const skipWhitespace = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text.charAt(i))) i++;
  };
  const expect = (char: string): void => {
    if (text.charAt(i) !== char) stop();
    i++;
  };
  const readString = (): void => {
    expect('"');
    for (;;) {
      if (i >= text.length) stop();
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return;
      }
      if (c < 0x20) stop();
      if (c === 0x5c) {
        const escape = text.charAt(i + 1);
        if ('"\\/bfnrt'.includes(escape) && escape !== '') i += 2;
        else if (escape === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else stop();
      } else i++;
    }
  };
  const number = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const readValue = (): void => {
    skipWhitespace();
    const c = text.charAt(i);
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i++;
      skipWhitespace();
      if (text.charAt(i) === close) {
        i++;
        return;
      }
      for (;;) {
        if (c === '{') {
          skipWhitespace();
          readString();
          skipWhitespace();
          expect(':');
        }
        readValue();
        skipWhitespace();
        if (text.charAt(i) === ',') i++;
        else return expect(close);
      }
    }
    if (c === '"') return readString();
    for (const literal of ['true', 'false', 'null']) {
      if (text.startsWith(literal, i)) {
        i += literal.length;
        return;
      }
    }
    number.lastIndex = i;
    if (!number.test(text)) stop();
    i = number.lastIndex;
  };
  try {
    readValue();
    skipWhitespace();
    if (i < text.length) stop();
    return text.length;
  } catch (error) {
    if (error instanceof JsonSyntaxStop) return error.offset;
    return text.length; // nesting too deep for the stack: no better answer
  }
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lastNewline = before.lastIndexOf('\n');
  return { line: before.split('\n').length, column: offset - lastNewline };
}

function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
