// Installs gobby's hook entries into a Claude Code settings file and removes them again.
// settings-edit.ts edits the text; this file adds the safety a user's hand-edited file
// deserves: refuse to touch a file we cannot read correctly, never write a file Claude Code
// would silently ignore, back up what we replace (under GOBBY_HOME, never beside the file,
// where it would show in `git status`), and write atomically.
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, realpath, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { printParseErrorCode } from 'jsonc-parser';

import { gobbyError } from './errors.js';
import {
  findJsonSyntaxErrors,
  GOBBY_COMMAND_MARKER,
  GOBBY_HOOK_HEADER,
  installGobbyHooksInText,
  readTopLevelKey,
  removeGobbyHooksFromText,
  type GobbyHooks,
} from './settings-edit.js';
import { validateSettings } from './settings-schema.js';
import {
  installStatusLineInText,
  removeStatusLineFromText,
  type InheritedStatusLine,
  type StatusLineInstallResult,
  type StatusLineRemovalResult,
} from './statusline-setting.js';

export type { GobbyHooks } from './settings-edit.js';

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
  // A settings change that would drop gobby's hooks is blocked for the running session.
  { event: 'ConfigChange', timeout: 5, guard: true },
  // Claude Code waits for SessionEnd hooks while exiting; keep that wait short.
  { event: 'SessionEnd', timeout: 5, guard: false },
];

/** Every event gobby installs a hook for: an install that lacks one predates it. */
export const GOBBY_HOOK_EVENTS: readonly string[] = ['SessionStart', ...HTTP_HOOKS.map((spec) => spec.event)];

// SessionStart may have to start the daemon (spawn + health poll ≈ 5 s) before posting.
const SESSION_START_TIMEOUT_SECONDS = 15;

export interface BuildGobbyHooksOptions {
  port: number;
  /** The SessionStart command (see session-start-command.ts), without gobby's marker. */
  sessionStartCommand: string;
  /** Fail open: no `onFailure: "block"` on the guard events. */
  lenient?: boolean;
}

/** gobby's hook entries, keyed by Claude Code event name. */
export function buildGobbyHooks({ port, sessionStartCommand, lenient = false }: BuildGobbyHooksOptions): GobbyHooks {
  assertPort(port);
  const hooks: GobbyHooks = {};
  // Claude Code never runs http hooks for SessionStart (§1 fact 2), hence a command hook.
  hooks['SessionStart'] = [
    { hooks: [{ type: 'command', command: `${sessionStartCommand}${GOBBY_COMMAND_MARKER}`, timeout: SESSION_START_TIMEOUT_SECONDS }] },
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

function assertPort(port: number): void {
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new RangeError(`gobby: port must be an integer between 1 and 65535, got ${port}`);
  }
}

// ---------------------------------------------------------------------------
// Files

export interface SettingsFileSummary {
  path: string;
  changed: boolean;
  /** Copy of the previous content, under `$GOBBY_HOME/backups/`; only when an existing file was rewritten. */
  backupPath?: string;
  /** True when uninstall deleted a file that held nothing but gobby's hooks. */
  removed?: boolean;
  /** Events gobby hooks were installed for (install) or removed from (uninstall). */
  events: string[];
}

export interface SettingsFileOptions {
  path: string;
  /** Where backups go: `$GOBBY_HOME/backups`. */
  backupDir: string;
  /** Stamps the backup file name. */
  now?: Date;
}

/** gobby's status line, as install writes it into the same file as the hooks. */
export interface StatusLineRequest {
  /** What runs it, e.g. `gobby statusline` (see statusline-setting.ts). */
  readonly command: string;
  /** A file the team commits: only where `gobby` is on PATH. */
  readonly portable?: boolean;
  /**
   * Settings files of lower precedence than this one (for a personal install: the shared
   * project file, then the user's), highest first: the status line Claude Code shows today may
   * live there, and gobby's must chain it rather than hide it.
   */
  readonly lowerPrecedence?: readonly string[];
}

export interface InstallFileOptions extends SettingsFileOptions {
  readonly gobbyHooks: GobbyHooks;
  /** Undefined: leave the statusLine key alone (`--no-statusline`). */
  readonly statusLine?: StatusLineRequest | undefined;
}

export async function installIntoFile({ gobbyHooks, statusLine, ...options }: InstallFileOptions): Promise<SettingsFileSummary & { statusLine: StatusLineInstallResult }> {
  const current = await readSettingsFile(options.path);
  const hooks = installGobbyHooksInText(current.text ?? '', gobbyHooks);
  const withStatusLine = statusLine
    ? installStatusLineInText(hooks.text, statusLine.command, {
        portable: statusLine.portable ?? false,
        inherited: await readStatusLines(statusLine.lowerPrecedence ?? []),
      })
    : { text: hooks.text, statusLine: { result: 'skipped', reason: 'not-asked' } as const };
  const summary = await writeSettingsIfChanged(options, current, withStatusLine.text, hooks.events);
  return { ...summary, statusLine: withStatusLine.statusLine };
}

export interface UninstallFileOptions extends SettingsFileOptions {
  /** The status line command install wrote, recognised even when it does not name gobby. */
  readonly statusLineCommand?: string | undefined;
  /** As for install: where a status line that install chained may live, so that it is not copied here. */
  readonly lowerPrecedence?: readonly string[];
}

export async function uninstallFromFile(
  { statusLineCommand, lowerPrecedence = [], ...options }: UninstallFileOptions,
): Promise<SettingsFileSummary & { statusLine: StatusLineRemovalResult }> {
  const current = await readSettingsFile(options.path);
  if (current.text === null) return { path: options.path, changed: false, events: [], statusLine: 'none' };
  const hooks = removeGobbyHooksFromText(current.text);
  const inherited = (await readStatusLines(lowerPrecedence)).map((found) => found.statusLine).filter((found) => found !== undefined);
  const withoutStatusLine = removeStatusLineFromText(hooks.text, statusLineCommand, inherited);
  const summary = await writeSettingsIfChanged(options, current, withoutStatusLine.text, hooks.events);
  return { ...summary, statusLine: withoutStatusLine.statusLine };
}

/** True when the file exists and holds at least one gobby handler (for hints such as "the shared file has them"). */
export async function hasGobbyHooks(path: string): Promise<boolean> {
  try {
    const text = stripBom(await readFile(path, 'utf8'));
    return findJsonSyntaxErrors(text).length === 0 && removeGobbyHooksFromText(text).events.length > 0;
  } catch {
    return false;
  }
}

/**
 * The statusLine of each file, undefined where there is none. These files are only read: one
 * that is missing or unreadable holds no status line Claude Code would show.
 */
async function readStatusLines(paths: readonly string[]): Promise<InheritedStatusLine[]> {
  return Promise.all(
    paths.map(async (path) => {
      try {
        const text = stripBom(await readFile(path, 'utf8'));
        return { path, statusLine: findJsonSyntaxErrors(text).length === 0 ? readTopLevelKey(text, 'statusLine') : undefined };
      } catch {
        return { path, statusLine: undefined };
      }
    }),
  );
}

interface SettingsFileContent {
  /** The file's text without a byte-order mark; null when there is no file. */
  text: string | null;
  raw: Buffer | null;
  bom: string;
}

/** Reads and checks the file: it must be JSON that Claude Code loads (no comments, no trailing commas). */
async function readSettingsFile(path: string): Promise<SettingsFileContent> {
  let raw: Buffer;
  try {
    raw = await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { text: null, raw: null, bom: '' };
    throw error;
  }
  const decoded = raw.toString('utf8');
  const text = stripBom(decoded);
  const bom = decoded.slice(0, decoded.length - text.length);
  if (text.trim() === '') return { text, raw, bom };
  const [syntax] = findJsonSyntaxErrors(text);
  if (syntax) {
    const { line, column } = lineAndColumn(text, syntax.offset);
    throw gobbyError(
      'GOBBY_ERR_INSTALL_INVALID_JSON',
      `refusing to edit ${path}: it is not valid JSON (line ${line}, column ${column}: ${describeSyntaxError(printParseErrorCode(syntax.error))}). ` +
        'Claude Code ignores such a file entirely, comments and trailing commas included. Fix it, then run the command again; the file was left untouched.',
    );
  }
  const validation = validateSettings(JSON.parse(text));
  if (!validation.ok) {
    throw gobbyError(
      'GOBBY_ERR_INSTALL_INVALID_SETTINGS',
      `refusing to edit ${path}: Claude Code would ignore this file, or the entries below, because of:\n` +
        validation.problems.map((p) => `  - ${p}`).join('\n') +
        '\nFix these entries, then run the command again; the file was left untouched.',
    );
  }
  return { text, raw, bom };
}

async function writeSettingsIfChanged(
  { path, backupDir, now = new Date() }: SettingsFileOptions,
  current: SettingsFileContent,
  next: string,
  events: string[],
): Promise<SettingsFileSummary> {
  if (next === (current.text ?? '')) return { path, changed: false, events };

  const validation = validateSettings(JSON.parse(next));
  if (!validation.ok) {
    throw gobbyError(
      'GOBBY_ERR_INSTALL_INVALID_SETTINGS',
      `refusing to write ${path}: the result would not be valid Claude Code settings:\n` + validation.problems.map((p) => `  - ${p}`).join('\n'),
    );
  }

  // Write through a symlink (dotfile managers link settings.json) instead of replacing it.
  const target = current.raw ? await realpath(path) : path;
  const mode = current.raw ? (await stat(target)).mode & 0o777 : undefined;
  const backupPath = current.raw ? await writeBackup(backupDir, path, current.raw, now) : undefined;
  const withBackup = backupPath === undefined ? {} : { backupPath };
  // Nothing but `{}` left of a file: gobby created it, so give back "no file". Unless the user
  // had exactly these bytes before an install (an empty `{}` of their own, in a backup).
  if (current.raw && /^\s*\{\s*\}\s*$/.test(next) && !(await wasBackedUpAs(backupDir, path, `${current.bom}${next}`))) {
    await unlink(target);
    return { path, changed: true, removed: true, events, ...withBackup };
  }
  await mkdir(dirname(path), { recursive: true });
  await writeFileAtomic(target, `${current.bom}${next}`, mode);
  return { path, changed: true, events, ...withBackup };
}

/** `<the file's path, slashes as '%'>`: the start of every backup name of `path`. */
function backupPrefix(path: string): string {
  return path.replace(/^[/\\]+/, '').replace(/[/\\:]/g, '%');
}

/** True when a backup of `path` holds exactly `text`: the file had that content before gobby edited it. */
async function wasBackedUpAs(backupDir: string, path: string, text: string): Promise<boolean> {
  const prefix = `${backupPrefix(path)}.`;
  let names: string[];
  try {
    names = (await readdir(backupDir)).filter((name) => name.startsWith(prefix));
  } catch {
    return false;
  }
  for (const name of names) {
    const backup = await readFile(join(backupDir, name), 'utf8').catch(() => null);
    if (backup === text) return true;
  }
  return false;
}

/**
 * `$GOBBY_HOME/backups/<the file's path, slashes as '%'>.<UTC stamp>`: which file and when, at
 * a glance in a directory listing, and never beside the file (where git and the model see it).
 */
async function writeBackup(backupDir: string, path: string, content: Buffer, now: Date): Promise<string> {
  await mkdir(backupDir, { recursive: true, mode: 0o700 });
  // 20251121T230600Z: sortable, and free of ':' which Windows file names reject.
  const stamp = now.toISOString().replace(/\.\d+Z$/, 'Z').replace(/[-:]/g, '');
  const name = backupPrefix(path);
  for (let attempt = 0; ; attempt++) {
    const candidate = join(backupDir, `${name}.${stamp}${attempt === 0 ? '' : `-${attempt}`}`);
    try {
      // 0600: settings can carry tokens in env or headers.
      await writeFile(candidate, content, { flag: 'wx', mode: 0o600 });
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

function stripBom(text: string): string {
  return text.replace(/^\uFEFF/, '');
}

/** jsonc-parser's codes (`InvalidCommentToken`) in words. */
function describeSyntaxError(code: string): string {
  if (code === 'InvalidCommentToken') return 'a comment';
  if (code === 'ValueExpected' || code === 'PropertyNameExpected') return `${code.replace(/([A-Z])/g, ' $1').trim().toLowerCase()} (a trailing comma?)`;
  return code.replace(/([A-Z])/g, ' $1').trim().toLowerCase();
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lastNewline = before.lastIndexOf('\n');
  return { line: before.split('\n').length, column: offset - lastNewline };
}
