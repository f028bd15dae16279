// The `statusLine` entry of Claude Code's settings that runs `gobby statusline`, chained with
// a status line the user already has rather than replacing it. Claude Code runs one status
// line command (settings key `statusLine: {type: "command", command, padding?, …}`), so the
// user's command moves into gobby's as `--then '<their command>'`: gobby runs it with the same
// stdin and prints its lines, then gobby's own line below them. Removal takes the user's
// command back out of `--then`, so their entry comes back exactly as it was.
import { gobbyError } from './errors.js';
import { readTopLevelKey, setTopLevelKeyInText } from './settings-edit.js';
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

// A shared (committed) status line runs gobby only where gobby is installed: a teammate
// without it sees their team's chained status line, or nothing, never "command not found"
// at every refresh. `eval` runs the chained command exactly as the shell would have (a
// trailing `# comment` in it cannot swallow the `fi`).
const PORTABLE_PREFIX = 'if command -v gobby >/dev/null 2>&1; then ';
const PORTABLE_ELSE = '; else eval ';
const PORTABLE_SUFFIX = '; fi';

export interface StatusLineCommandOptions {
  /** For a file a team commits: run gobby only when `gobby` is on PATH (see PORTABLE_PREFIX). */
  readonly portable?: boolean;
}

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
export function buildStatusLineSetting(
  existing: unknown,
  gobbyCommand: string,
  { portable = false }: StatusLineCommandOptions = {},
): { statusLine: StatusLineSetting } {
  if (existing === undefined || existing === null) return { statusLine: { type: 'command', command: composeCommand(gobbyCommand, null, portable) } };
  const setting = asCommandStatusLine(existing);
  const chained = parseGobbyStatusLineCommand(setting.command, gobbyCommand);
  const previous = chained ? chained.previous : setting.command;
  return { statusLine: { ...setting, command: composeCommand(gobbyCommand, previous, portable) } };
}

/** `<gobby> [--then '<previous>']`, guarded by `command -v gobby` when portable. */
function composeCommand(gobbyCommand: string, previous: string | null, portable: boolean): string {
  const chained = previous === null ? gobbyCommand : `${gobbyCommand}${THEN_OPTION}${quoteForShell(previous)}`;
  if (!portable) return chained;
  const fallback = previous === null ? '' : `${PORTABLE_ELSE}${quoteForShell(previous)}`;
  return `${PORTABLE_PREFIX}${chained}${fallback}${PORTABLE_SUFFIX}`;
}

/**
 * The command inside a portable wrapper (`<gobby> --then W` out of `if …; then <gobby> --then W;
 * else eval W; fi`); the command itself when it is not wrapped; null when it is wrapped in a
 * way composeCommand never writes (the two words differ: someone edited it).
 */
function unwrapPortable(command: string): string | null {
  if (!command.startsWith(PORTABLE_PREFIX) || !command.endsWith(PORTABLE_SUFFIX)) return command;
  const middle = command.slice(PORTABLE_PREFIX.length, -PORTABLE_SUFFIX.length);
  const then = middle.indexOf(THEN_OPTION);
  if (then === -1) return middle;
  // `W; else eval W`: the same word twice, so each half has a known length.
  const words = middle.slice(then + THEN_OPTION.length);
  const half = (words.length - PORTABLE_ELSE.length) / 2;
  if (!Number.isInteger(half) || half <= 0) return null;
  const [first, separator, second] = [words.slice(0, half), words.slice(half, half + PORTABLE_ELSE.length), words.slice(half + PORTABLE_ELSE.length)];
  return separator === PORTABLE_ELSE && first === second ? middle.slice(0, then + THEN_OPTION.length + half) : null;
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

/** What install did with the status line; `command` is what Claude Code now runs. */
export type StatusLineInstallResult =
  /** `from`: the settings file of lower precedence that holds the status line chained (or gobby's already). */
  | { readonly result: 'added' | 'chained' | 'already'; readonly command: string; readonly from?: string }
  /** `not-a-command`: the file's statusLine is something else (or malformed) and was left alone. */
  | { readonly result: 'skipped'; readonly reason: 'not-a-command' | 'not-asked' };

/** What uninstall did: took gobby's out, gave the user's back, found none, or found someone else's (left alone). */
export type StatusLineRemovalResult = 'removed' | 'restored' | 'none' | 'not-gobbys';

/**
 * Puts gobby's status line in the settings text (see buildStatusLineSetting), editing only the
 * `statusLine` key. A statusLine that is not a command is the user's to fix: it is left alone
 * and reported as skipped, never an error, so the hooks still go in.
 */
/**
 * The status line Claude Code shows today from a settings file of lower precedence (statusLine
 * is one value: local > project > user), which one written into this file would hide.
 */
export interface InheritedStatusLine {
  readonly path: string;
  readonly statusLine: unknown;
}

export interface InstallStatusLineOptions extends StatusLineCommandOptions {
  /** The statusLines of the files of lower precedence, highest first; see inheritedToChain. */
  readonly inherited?: readonly InheritedStatusLine[];
}

export function installStatusLineInText(
  text: string,
  gobbyCommand: string,
  { inherited = [], ...options }: InstallStatusLineOptions = {},
): { text: string; statusLine: StatusLineInstallResult } {
  let existing = readTopLevelKey(text, 'statusLine');
  let from: string | undefined;
  if (existing === undefined) {
    const below = inheritedToChain(inherited, gobbyCommand);
    if (below?.gobbys) return { text, statusLine: { result: 'already', command: below.statusLine.command, from: below.path } };
    if (below) [existing, from] = [below.statusLine, below.path];
  }
  if (existing !== undefined && existing !== null && !isCommandStatusLine(existing)) {
    return { text, statusLine: { result: 'skipped', reason: 'not-a-command' } };
  }
  const { statusLine } = buildStatusLineSetting(existing, gobbyCommand, options);
  const next = setTopLevelKeyInText(text, 'statusLine', statusLine);
  const chained = parseGobbyStatusLineCommand(statusLine.command, gobbyCommand)?.previous != null;
  const result = next === text ? 'already' : chained ? 'chained' : 'added';
  return { text: next, statusLine: { result, command: statusLine.command, ...(from === undefined ? {} : { from }) } };
}

/**
 * What a file without a statusLine of its own chains: the status line Claude Code shows today,
 * from the highest of the lower-precedence files that has one. When that is gobby's already,
 * there is nothing to add (`gobbys`), unless it is gobby's alone (a team's shared install)
 * and a file further down holds the user's own line, which the team's had hidden: that one.
 */
function inheritedToChain(
  inherited: readonly InheritedStatusLine[],
  gobbyCommand: string,
): { path: string; statusLine: StatusLineSetting; gobbys: boolean } | undefined {
  const shown = inherited.flatMap(({ path, statusLine }) =>
    isCommandStatusLine(statusLine) ? [{ path, statusLine, chain: parseGobbyStatusLineCommand(statusLine.command, gobbyCommand) }] : [],
  );
  const [top] = shown;
  if (!top) return undefined;
  if (!top.chain) return { path: top.path, statusLine: top.statusLine, gobbys: false };
  const own = top.chain.previous === null ? shown.find((line) => !line.chain) : undefined;
  return own ? { path: own.path, statusLine: own.statusLine, gobbys: false } : { path: top.path, statusLine: top.statusLine, gobbys: true };
}

/**
 * Takes gobby's status line out of the settings text: the key removed, or the user's entry put
 * back as it was. An entry that install chained from a lower-precedence file (`inherited`: the
 * statusLines of those files) is still there, so the key is removed instead.
 */
export function removeStatusLineFromText(
  text: string,
  gobbyCommand?: string,
  inherited: readonly unknown[] = [],
): { text: string; statusLine: StatusLineRemovalResult } {
  const current = readTopLevelKey(text, 'statusLine');
  if (current === undefined) return { text, statusLine: 'none' };
  const back = removeGobbyStatusLine(current, gobbyCommand);
  if (!back) return { text, statusLine: 'not-gobbys' };
  const fromElsewhere = back.statusLine !== undefined && inherited.some((other) => JSON.stringify(other) === JSON.stringify(back.statusLine));
  const restored = fromElsewhere ? undefined : back.statusLine;
  return { text: setTopLevelKeyInText(text, 'statusLine', restored), statusLine: restored ? 'restored' : 'removed' };
}

function isCommandStatusLine(value: unknown): value is StatusLineSetting {
  const setting = value as Record<string, unknown> | null;
  return typeof setting === 'object' && setting !== null && !Array.isArray(setting) && setting.type === 'command' && typeof setting.command === 'string';
}

function asCommandStatusLine(value: unknown): StatusLineSetting {
  if (!isCommandStatusLine(value)) {
    throw gobbyError(
      'GOBBY_ERR_INSTALL_INVALID_SETTINGS',
      `the settings file's statusLine is not {"type": "command", "command": "…"} (it is ${JSON.stringify(value)}); ` +
        'Claude Code would reject it. Fix or remove it, then install again.',
    );
  }
  return value;
}

/**
 * Reads a command gobby wrote: `<program> statusline` or `<program> statusline --then <word>`,
 * bare or in the portable wrapper,
 * where <word> is one shell word as quoteForShell writes it. The program part may differ from
 * today's (an earlier install's path, `node …/daemon/cli/main.js`), as long as it names gobby.
 * Null: not gobby's.
 */
function parseGobbyStatusLineCommand(written: string, gobbyCommand: string | undefined): { previous: string | null } | null {
  const command = unwrapPortable(written);
  if (command === null) return null;
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
