// The `statusLine` entry of Claude Code's settings that runs `gobby statusline`, chained with
// a status line the user already has rather than replacing it. Claude Code runs one status
// line command (settings key `statusLine: {type: "command", command, padding?, …}`), so the
// user's command moves into gobby's as `--then '<their command>'`: gobby runs it with the same
// stdin and prints its lines, then gobby's own line below them. Removal takes the user's
// command back out of `--then`, so their entry comes back exactly as it was.
import { gobbyError } from './errors.js';
import { quoteForShell } from './shell-quote.js';

/** Claude Code's `statusLine` setting. Keys other than these are kept as they are. */
export interface StatusLineSetting {
  readonly type: 'command';
  readonly command: string;
  readonly padding?: number;
  /** Seconds between re-runs on top of Claude Code's event-driven ones. */
  readonly refreshInterval?: number;
  readonly [key: string]: unknown;
}

const THEN_OPTION = ' --then ';

/**
 * The `statusLine` to write, given the one in the settings file now (`existing`, undefined
 * when there is none) and the command that runs gobby's (e.g. `gobby statusline`).
 *
 * - none: gobby's alone;
 * - someone else's command: chained, `<gobbyCommand> --then '<their command>'`, keeping their
 *   other keys (padding, refreshInterval);
 * - gobby's already (chained or not, from this or an earlier install): rebuilt with
 *   `gobbyCommand` around the same chained command, so installing twice changes nothing.
 *
 * Throws GOBBY_ERR_INSTALL_INVALID_SETTINGS when `existing` is not a command status line:
 * Claude Code would reject such a settings file, and gobby will not guess what it meant.
 */
export function buildStatusLineSetting(existing: unknown, gobbyCommand: string): { statusLine: StatusLineSetting } {
  if (existing === undefined || existing === null) return { statusLine: { type: 'command', command: gobbyCommand } };
  const setting = asCommandStatusLine(existing);
  const chained = parseGobbyStatusLineCommand(setting.command, gobbyCommand);
  const previous = chained ? chained.previous : setting.command;
  return { statusLine: { ...setting, command: previous === null ? gobbyCommand : `${gobbyCommand}${THEN_OPTION}${quoteForShell(previous)}` } };
}

/**
 * The `statusLine` to put back when gobby is uninstalled, given the one in the file now:
 * - `{ statusLine: undefined }`: gobby's alone; remove the key;
 * - `{ statusLine: <the user's entry> }`: gobby's chained with theirs; exactly their entry back;
 * - null: not gobby's (the user changed it since): leave it alone.
 * `gobbyCommand` (what install wrote, e.g. `gobby statusline`) is recognised even when it does
 * not name gobby; without it, any `<…gobby…> statusline` command is taken as gobby's.
 */
export function removeGobbyStatusLine(current: unknown, gobbyCommand?: string): { statusLine: StatusLineSetting | undefined } | null {
  if (current === undefined || current === null || typeof current !== 'object' || Array.isArray(current)) return null;
  const setting = current as Record<string, unknown>;
  if (setting.type !== 'command' || typeof setting.command !== 'string') return null;
  const chained = parseGobbyStatusLineCommand(setting.command, gobbyCommand);
  if (!chained) return null;
  if (chained.previous === null) return { statusLine: undefined };
  return { statusLine: { ...(setting as unknown as StatusLineSetting), command: chained.previous } };
}

function asCommandStatusLine(value: unknown): StatusLineSetting {
  const setting = value as Record<string, unknown> | null;
  if (typeof setting !== 'object' || setting === null || Array.isArray(setting) || setting.type !== 'command' || typeof setting.command !== 'string') {
    throw gobbyError(
      'GOBBY_ERR_INSTALL_INVALID_SETTINGS',
      `the settings file's statusLine is not {"type": "command", "command": "…"} (it is ${JSON.stringify(value)}); ` +
        'Claude Code would reject it. Fix or remove it, then install again.',
    );
  }
  return setting as unknown as StatusLineSetting;
}

/**
 * Reads a command gobby wrote: `<program> statusline` or `<program> statusline --then <word>`,
 * where <word> is one shell word as quoteForShell writes it. The program part may differ from
 * today's (an earlier install's path, `node …/daemon/cli/main.js`), as long as it names gobby.
 * Null: not gobby's.
 */
function parseGobbyStatusLineCommand(command: string, gobbyCommand: string | undefined): { previous: string | null } | null {
  let rest: string | undefined;
  if (gobbyCommand !== undefined && (command === gobbyCommand || command.startsWith(`${gobbyCommand}${THEN_OPTION}`))) {
    rest = command.slice(gobbyCommand.length);
  } else {
    const match = /^.*?(?:gobby|\/daemon\/cli\/)\S* statusline((?: --then .+)?)$/s.exec(command);
    if (!match) return null;
    rest = match[1]!;
  }
  if (rest === '') return { previous: null };
  const previous = unquoteShellWord(rest.slice(THEN_OPTION.length));
  return previous === null ? null : { previous };
}

/** The inverse of quoteForShell, for exactly what it writes; null for anything else. */
function unquoteShellWord(word: string): string | null {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  // '…' pieces joined by \' : 'it'\''s' → it's
  if (!/^'(?:[^']*)'(?:\\''(?:[^']*)')*$/s.test(word)) return null;
  return word.slice(1, -1).replaceAll(`'\\''`, "'");
}
