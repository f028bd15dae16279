// gobby's own ground: checks that hold in every phase of every workflow, and for sessions
// that run no workflow at all. They are the first thing evaluateEvent asks, so their
// denies are counted and audited like any other block, and each is also a tamper attempt
// the user is told about. What they protect (the token, gobby's folders, the settings files
// that install its hooks, the daemon's port and pid) comes in through the engine context;
// this module never looks at the machine itself. A Bash command is judged by what it does
// (workflows/shell/), never by its text: `grep -rn "gobby workflow phase" .` only reads.
import type { EngineEvent } from './events.js';
import type { PathRef, ShellAnalysis, ShellEffect, ShellInvocation } from './shell/index.js';
import { resolveAgainst } from './shell/paths.js';
import { HOOKLESS_CLAUDE_VARIABLES } from './shell/programs-code.js';
import { canonicalToolName } from './tool-names.js';

/** What gobby protects from the agent's tools, as the daemon knows it. */
export interface ProtectedGround {
  /** Files the agent may neither read nor change: reading the control token would let it forge overrides. */
  readonly secretFiles: readonly string[];
  /** Files and folders (everything below them) the agent may read but never change. */
  readonly protectedPaths?: readonly string[];
  /**
   * Folders that hold protected files among files of their own (`.claude/`): what a command
   * does to "everything in" one of them (`rsync --delete`, `find -delete`) reaches those files.
   */
  readonly protectedFolders?: readonly string[];
  /**
   * How code would name those paths (`.claude/settings.local.json`, `.gobby`, `GOBBY_HOME`):
   * code gobby cannot see into whose text names one is refused, as a last resort.
   */
  readonly protectedNames?: readonly string[];
  /** The daemon's port: no network access to it from the agent's tools, no signal by it. */
  readonly daemonPort?: number | undefined;
  /** The daemon's pid: no signal to it. */
  readonly daemonPid?: number | undefined;
}

/** Which of gobby's own rules a denial enforces: the `tamper:<kind>` audit row and the user's notice say it. */
export type TamperKind = 'override' | 'secret' | 'protected-file' | 'daemon-signal' | 'daemon-network' | 'nested-claude';

export interface GuardDenial {
  readonly kind: TamperKind;
  /** What the model is told. */
  readonly reason: string;
  /** What the audit row says decided it. */
  readonly because: string;
  /**
   * What the user is told every time, instead of the once-per-session notice of a refused tool
   * call, with the session's next answer: Claude Code does not show what a ConfigChange answer
   * says to the user, while a tool call's answer reaches the terminal.
   */
  readonly notice?: string | undefined;
}

/**
 * A settings file Claude Code reports changed (its ConfigChange event), as the daemon read it:
 * what the change would take away from the hooks that hold this session.
 */
export interface HookSettingsChange {
  readonly file: string;
  /** gobby's hook entries (event and matcher) the session's settings held before and no longer hold. */
  readonly removed: readonly string[];
  /** Why the file, as it is now, turns every hook off (`disableAllHooks`), if it does. */
  readonly switchesHooksOff?: string | undefined;
}

/**
 * A change of Claude Code's settings while a session runs. Claude Code applies it to the running
 * session unless a ConfigChange hook blocks it, so this is the last line for every way of
 * changing the file gobby's shell analysis cannot see: a path built at run time, an archive
 * unpacked over `.claude/`, a `git checkout` of an old commit. Blocking keeps the session's
 * hooks; the file on disk stays changed, so the user is told every time.
 */
export function checkSettingsChange(event: EngineEvent, change: HookSettingsChange | undefined): GuardDenial | null {
  if (event.name !== 'ConfigChange' || change === undefined) return null;
  const harm =
    change.switchesHooksOff ??
    (change.removed.length > 0 ? `it removes gobby's hooks for ${change.removed.join(', ')}` : undefined);
  if (harm === undefined) return null;
  return {
    kind: 'protected-file',
    reason: `gobby: the change to ${change.file} is not applied to this session: ${harm}, and the hooks hold this session to its workflow.`,
    because: 'guard: settings change that turns gobby off',
    notice:
      `gobby kept this session's hooks: ${change.file} was changed on disk and ${harm}. Claude Code does not apply the change to this session, ` +
      'but new sessions will read the file as it is now. If you did not make this change, restore the file (`gobby install` puts gobby\'s hooks back).',
  };
}

export const NO_PROTECTED_GROUND: ProtectedGround = { secretFiles: [] };

/** Tools whose input names a file they change. */
export const FILE_TOOL_PATH_KEYS = ['file_path', 'notebook_path', 'path'] as const;
const FILE_CHANGING_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

/** Where a tool call's paths are: the session's directory and home, and what the daemon found their real paths to be. */
export interface ToolPlace {
  readonly cwd: string;
  readonly home: string;
  /** A path as the tool was given it → the real path behind its symbolic links (read by the daemon). */
  readonly realPaths?: ReadonlyMap<string, string> | undefined;
}

/**
 * The first of gobby's own rules that the tool call breaks, or null. Only tool calls about to
 * run are checked. `shell` is the analysis of a Bash command, made once by the caller; `place`
 * says where a file tool's relative paths start.
 */
export function checkProtectedGround(event: EngineEvent, ground: ProtectedGround, shell?: ShellAnalysis, place?: ToolPlace): GuardDenial | null {
  if (event.name !== 'PreToolUse') return null;
  const command = typeof event.toolInput.command === 'string' ? event.toolInput.command : undefined;
  if (shell && command !== undefined) return checkShellCommand(command, shell, ground);
  if (command !== undefined) {
    // No shell context to analyse the command in: judge its text, as a last resort.
    const secret = ground.secretFiles.find((file) => mentionsPath(command, file));
    if (secret) return secretDenial(secret);
    const override = findOverrideCommand(command);
    if (override) return { kind: 'override', reason: override, because: 'guard: human-only override' };
  }
  const tool = canonicalToolName(event.toolName);
  const url = event.toolInput['url'];
  if (typeof url === 'string') {
    const target = hostAndPort(url);
    if (target && reachesTheDaemon({ kind: 'network', target: url, program: tool, ...target }, ground)) return daemonNetworkDenial(tool, url);
  }
  const given = FILE_TOOL_PATH_KEYS.map((key) => event.toolInput[key]).filter((value): value is string => typeof value === 'string');
  // Grep without a path searches the session's directory: every file below it.
  if (tool === 'Grep' && given.length === 0 && place) given.push(place.cwd);
  for (const raw of given) {
    // The path as the tool will open it (`./`, `..`, `//`, `~`, relative to the session), and
    // the real path behind any symbolic link on the way (`ln -s ~/.gobby g`, then Read g/token).
    const paths = [raw, place ? resolveAgainst(place.cwd, raw.startsWith('~/') ? `${place.home}${raw.slice(1)}` : raw) : raw];
    const real = place?.realPaths?.get(raw);
    if (real !== undefined) paths.push(real);
    for (const path of paths) {
      const secret = ground.secretFiles.find((file) => mentionsPath(path, file));
      if (secret) return secretDenial(secret);
      // Grep reads every file below its path.
      const inTree = tool === 'Grep' ? ground.secretFiles.find((file) => treeHolds(`${path === '/' ? '' : path}/**`, file)) : undefined;
      if (inTree) return secretInTreeDenial(inTree, path, tool);
      if ((FILE_CHANGING_TOOLS.has(tool) || /^mcp__/.test(tool)) && isProtected(path, ground)) {
        return protectedFileDenial(path, tool);
      }
    }
  }
  return null;
}

/** The host and port of a URL, the port defaulted from its scheme; undefined when it is not a URL. */
function hostAndPort(url: string): { host: string; port: number } | undefined {
  const match = /^([a-z][a-z0-9+.-]*):\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^/:?#]*)(?::(\d+))?/i.exec(url);
  if (!match) return undefined;
  const port = match[3] !== undefined ? Number(match[3]) : ({ http: 80, https: 443, ws: 80, wss: 443 } as Record<string, number>)[match[1]!.toLowerCase()];
  return port === undefined ? undefined : { host: match[2]!, port };
}

function checkShellCommand(command: string, shell: ShellAnalysis, ground: ProtectedGround): GuardDenial | null {
  // The token's path anywhere in the command, quoted text included: reading it is never needed.
  const secret = ground.secretFiles.find((file) => mentionsPath(command, file));
  if (secret) return secretDenial(secret);
  // Code gobby cannot see into (`bash -c "$x"`, `python -c …`, a command over the length cap) is
  // judged by its text as a last resort: it could run an override or change gobby's files however
  // the phase is set.
  if (shell.effects.some((effect) => effect.kind === 'opaque')) {
    // `gobby $(echo workflow) phase …`, `… | xargs gobby`: what it would do is only known at run time.
    if (shell.effects.some((effect) => effect.kind === 'opaque' && effect.program === 'gobby')) return overrideDenial('gobby with arguments built at run time');
    const override = findOverrideCommand(command);
    if (override) return { kind: 'override', reason: override, because: 'guard: human-only override' };
    const named = ground.protectedNames?.find((name) => command.includes(name));
    if (named) return opaqueCodeNamingGround(named);
    if (ground.daemonPort !== undefined && mentionsNumber(command, ground.daemonPort)) {
      return daemonNetworkDenial('code gobby cannot see into', `port ${ground.daemonPort}`);
    }
  }
  // `exec` names the program as an author would allow it (`python3 -m http.server`, `npm run x`): its first word is the invocation's.
  const unknownPrograms = new Set(shell.effects.flatMap((effect) => (effect.kind === 'exec' ? [effect.program.split(' ')[0]!] : [])));
  for (const invocation of shell.invocations) {
    const override = overrideCommandOf(invocation);
    if (override) return overrideDenial(override);
    const linked = linkToGround(invocation, ground);
    if (linked) return linked;
    const swept = sweepsUntrackedGround(invocation, ground);
    if (swept) return swept;
    if (unknownPrograms.has(invocation.program)) {
      const handed = unknownProgramGivenGround(invocation, ground);
      if (handed) return handed;
    }
  }
  for (const effect of shell.effects) {
    const denial = checkShellEffect(effect, ground);
    if (denial) return denial;
  }
  const foundInGround = runTimePathFromGround(shell, ground);
  if (foundInGround) return foundInGround;
  // Pids only known at run time (`pgrep -f gobby | xargs kill`, `kill $(lsof -ti:7377)`) come
  // from another program of the same command: one that names the daemon gives them away.
  const signalsRunTimePids = shell.effects.some((effect) => effect.kind === 'signal' && effect.by === 'pid' && !/^-?\d+$/.test(effect.target));
  if (signalsRunTimePids && shell.invocations.some((invocation) => invocation.args.some((arg) => namesTheDaemon(arg, ground)))) {
    return {
      kind: 'daemon-signal',
      reason: "gobby: this command signals processes it finds at run time by a search that names gobby's daemon; the agent may not stop or restart it. If the daemon misbehaves, tell the user.",
      because: 'guard: signal to the daemon',
    };
  }
  return null;
}

/**
 * A path only known at run time (`cat $(ls -d ~/.gob*)/token`, `find ~/.gobby | xargs cat`,
 * `` cp `find / -name token` /tmp ``) comes from another program of the same command: when that
 * program looks where the token is, the path may well be the token.
 */
function runTimePathFromGround(shell: ShellAnalysis, ground: ProtectedGround): GuardDenial | null {
  // Not a glob (those are placed): a path whose text starts or goes on with what only the run gives.
  const runTime = (path: PathRef) => path.dynamic && (!path.path.startsWith('/') || /[$`]/.test(path.path));
  const readsOne = shell.effects.some((effect) =>
    effect.kind === 'read' || effect.kind === 'write' || effect.kind === 'delete' ? runTime(effect.path) : (effect.kind === 'copy' || effect.kind === 'move') && runTime(effect.from),
  );
  // Changed at run time (`ls .claude/*.json | xargs rm`, `echo .claude/settings.local.json | xargs
  // -I{} cp /dev/null {}`): refused when another program of the command names one of gobby's files.
  const changesOne = shell.effects.some((effect) =>
    effect.kind === 'write' || effect.kind === 'delete' ? runTime(effect.path) : (effect.kind === 'copy' && runTime(effect.to)) || (effect.kind === 'move' && (runTime(effect.from) || runTime(effect.to))),
  );
  if (!readsOne && !changesOne) return null;
  const naming = changesOne ? shell.invocations.find((invocation) => namesProtected(invocation, ground)) : undefined;
  if (naming) {
    return {
      kind: 'protected-file',
      reason:
        `gobby: this command changes paths it finds at run time, and \`${naming.program}\` gives it one of gobby's own files (its state, its workflows, ` +
        'or the Claude Code settings that install its hooks). Name the files to change instead; ask the user if one of gobby\'s needs changing.',
      because: 'guard: protected file',
    };
  }
  for (const secret of readsOne ? ground.secretFiles : []) {
    const invocation = shell.invocations.find((candidate) => looksWhereItIs(candidate, secret));
    if (invocation) {
      return {
        kind: 'secret',
        reason:
          `gobby: this command uses paths it finds at run time with \`${invocation.program}\`, which looks where gobby's control token is (${secret}); ` +
          'the agent may not read the token. Name the files you need instead.',
        because: 'guard: secret file',
      };
    }
  }
  return null;
}

/** Whether an invocation's arguments name one of gobby's files or a folder that holds them, by path or glob. */
function namesProtected(invocation: ShellInvocation, ground: ProtectedGround): boolean {
  return invocation.args.some((arg) => {
    if (arg.startsWith('-') || /[$`]/.test(arg)) return false;
    const path = resolveAgainst(invocation.cwd, arg);
    return isProtected(path, ground) || (ground.protectedFolders ?? []).includes(path) || (isGlob(path) && globReaches(path, ground, false));
  });
}

/** Whether an invocation names `file` or its folder (by path or glob), or is a `find` whose results may include it. */
function looksWhereItIs(invocation: ShellInvocation, file: string): boolean {
  const folder = file.slice(0, file.lastIndexOf('/')) || '/';
  const paths = invocation.args.filter((arg) => !arg.startsWith('-') && !/[$`]/.test(arg)).map((arg) => resolveAgainst(invocation.cwd, arg));
  if (paths.some((path) => path === folder || isBelow(path, folder) || (isGlob(path) && (globMatches(path, folder) || globMatches(path, file))))) return true;
  if (invocation.program.slice(invocation.program.lastIndexOf('/') + 1) !== 'find') return false;
  // find ROOT… [tests]: the token is among the results when a root holds it and every name test admits it.
  const firstTest = invocation.args.findIndex((arg) => arg.startsWith('-') || arg === '(' || arg === '!');
  const roots = (firstTest === -1 ? invocation.args : invocation.args.slice(0, firstTest)).map((root) => resolveAgainst(invocation.cwd, root));
  if (!(roots.length === 0 ? [invocation.cwd] : roots).some((root) => treeHolds(root === '/' ? '/**' : `${root}/**`, file))) return false;
  const name = file.slice(file.lastIndexOf('/') + 1);
  for (let i = 0; i < invocation.args.length - 1; i++) {
    const test = invocation.args[i]!;
    const pattern = invocation.args[i + 1]!;
    if ((test === '-name' || test === '-iname') && !segmentMatches(test === '-iname' ? pattern.toLowerCase() : pattern, name)) return false;
    if ((test === '-path' || test === '-wholename' || test === '-ipath') && !wholePathMatches(pattern, file)) return false;
  }
  return true;
}

/** find's -path test: a glob over the whole path, where `*` also matches `/`. */
function wholePathMatches(pattern: string, path: string): boolean {
  if (pattern.length > 4 * NAME_MAX || /[[\\]/.test(pattern)) return true; // too odd to judge: assume it may match
  const regex = new RegExp(`^${pattern.replace(/[.+^${}()|]/g, '\\$&').replaceAll('*', '.*').replaceAll('?', '.')}$`, 's');
  return regex.test(path);
}

/** An argument that picks out the daemon's process: its name, its state file, its port, or `node` (which it runs as). */
function namesTheDaemon(arg: string, ground: ProtectedGround): boolean {
  // A search pattern written so it does not find itself (`grep '[g]obby'`) still names it.
  const plain = arg.replace(/[[\]\\]/g, '');
  return /gobby|daemon\.json|daemon\/main/.test(plain) || plain === 'node' || (ground.daemonPort !== undefined && mentionsNumber(plain, ground.daemonPort));
}

function checkShellEffect(effect: ShellEffect, ground: ProtectedGround): GuardDenial | null {
  switch (effect.kind) {
    case 'read': {
      const secret = ground.secretFiles.find((file) => effect.path.path === file || mentionsPath(effect.path.path, file) || namesByGlob(effect.path.path, file));
      if (secret) return secretDenial(secret);
      const inTree = ground.secretFiles.find((file) => treeHolds(effect.path.path, file));
      return inTree ? secretInTreeDenial(inTree, effect.path.path.slice(0, -3) || '/', effect.program) : null;
    }
    case 'write':
      return changes(effect.path, ground, effect.program);
    case 'delete':
      return removes(effect.path, ground, effect.program);
    case 'move':
      return removes(effect.from, ground, effect.program) ?? lands(effect.to, effect.from, ground, effect.program);
    case 'copy': {
      // Copying a folder that holds the token copies the token (`cp -r ~/.gobby /tmp/x`, `rsync -a`).
      const secret = ground.secretFiles.find((file) => effect.from.path === file || namesByGlob(effect.from.path, file) || isBelow(file, effect.from.path));
      return secret ? secretDenial(secret) : lands(effect.to, effect.from, ground, effect.program);
    }
    case 'signal':
      return signalsTheDaemon(effect.target, effect.by, ground)
        ? {
            kind: 'daemon-signal',
            reason: `gobby: \`${effect.program}\` would signal gobby's daemon (${effect.by} ${effect.target}); the agent may not stop or restart it. If the daemon misbehaves, tell the user.`,
            because: 'guard: signal to the daemon',
          }
        : null;
    case 'network':
      return reachesTheDaemon(effect, ground) ? daemonNetworkDenial(`\`${effect.program}\``, effect.target) : null;
    case 'nested_claude': {
      const dropping = effect.flags.filter((flag) => HOOK_DROPPING_FLAGS.has(flag.split('=')[0]!));
      const variables = effect.flags.filter((flag) => HOOKLESS_CLAUDE_VARIABLES.has(flag));
      const how = variables.length > 0 ? `setting ${variables.join(', ')}` : `\`claude ${dropping.join(' ')}\``;
      return dropping.length > 0 || variables.length > 0
        ? {
            kind: 'nested-claude',
            reason: `gobby: ${how} starts Claude Code without the hooks or settings that hold this session to its workflow; the agent may not run it.`,
            because: 'guard: nested claude without hooks',
          }
        : null;
    }
    default:
      return null;
  }
}

/** Flags that start a Claude Code whose hooks or settings are not the ones gobby installed. */
const HOOK_DROPPING_FLAGS = new Set(['--bare', '--safe-mode', '--settings', '--setting-sources', '--restricted']);

/** `orAbove`: a glob that names a folder above a protected file counts too (a delete or a move away). */
function changes(path: PathRef, ground: ProtectedGround, program: string, orAbove = false): GuardDenial | null {
  const secret = ground.secretFiles.find((file) => path.path === file || namesByGlob(path.path, file));
  if (secret) return secretDenial(secret);
  if (isGlob(path.path)) return globReaches(path.path, ground, orAbove) ? protectedFileDenial(path.path, program) : null;
  if (path.path.endsWith('/**')) return treeReaches(path.path, ground) ? protectedFileDenial(path.path, program) : null;
  // A dynamic path is checked as rendered too: `${F:-.claude/settings.json}` most likely is that
  // file, and one behind a `cd` that may not have run most likely is where the cd was going.
  return isProtected(path.path, ground) ? protectedFileDenial(path.path, program) : null;
}

/**
 * Everything below a folder (`<folder>/**`: `tar -x`, `git checkout old -- .claude`, `rsync
 * --delete`) reaches gobby's ground when the folder is protected or is one of the folders that
 * hold protected files (`.claude/`, not `.claude/commands/`). A whole project or home is not:
 * that is ordinary work, and ConfigChange catches what it does to the hook settings.
 */
function treeReaches(tree: string, ground: ProtectedGround): boolean {
  const folder = tree.slice(0, -'/**'.length) || '/';
  return isProtected(folder, ground) || (ground.protectedFolders ?? []).includes(folder);
}

/** A path the shell expands (`.claude/settings*.json`, `.gob*`, `.c?aude`): `**` is the classifier's "everything in". */
function isGlob(path: string): boolean {
  return /[*?[]/.test(path) && !path.endsWith('/**');
}

/**
 * Whether a glob can name a protected path (or, when `orAbove`, a folder above one) as bash
 * expands it: `*`, `?` and `[…]` within one segment, and a leading dot matched only by a dot,
 * so `rm -rf *` does not reach `.claude/` and `rm -rf .c*` does.
 */
function globReaches(glob: string, ground: ProtectedGround, orAbove: boolean): boolean {
  // Inside a protected folder, anything the glob names is protected.
  if (isProtected(literalFolderOf(glob), ground)) return true;
  return (ground.protectedPaths ?? []).some((root) => (orAbove ? ancestorsAndSelf(root) : [root]).some((path) => globMatches(glob, path)));
}

/** A read of everything below a folder (`grep -r x ~`, `tar -c ~/.gobby`: `<folder>/**`) that holds `file`. */
function treeHolds(path: string, file: string): boolean {
  if (!path.endsWith('/**')) return false;
  const folder = path.slice(0, -3);
  return folder === '' || file === folder || isBelow(file, folder);
}

/** Whether the path a command names is a glob that bash would expand to `file` (`~/.gobb?/tok[e]n`). */
function namesByGlob(path: string, file: string): boolean {
  return isGlob(path) && globMatches(path, file);
}

/**
 * Segment by segment; a `**` segment (the classifier's "any depth below": `find . -name x -delete`
 * deletes `<root>`, `**`, `x`) matches any number of segments, dot folders included, as find walks them.
 */
function globMatches(glob: string, path: string): boolean {
  const patterns = glob.split('/');
  const names = path.split('/');
  if (!patterns.includes('**')) return names.length === patterns.length && names.every((name, i) => segmentMatches(patterns[i]!, name));
  return segmentsMatch(patterns, 0, names, 0);
}

function segmentsMatch(patterns: readonly string[], p: number, names: readonly string[], n: number): boolean {
  if (p === patterns.length) return n === names.length;
  if (patterns[p] === '**') {
    // Consecutive `**` are one; then try every depth (paths have few segments).
    if (patterns[p + 1] === '**') return segmentsMatch(patterns, p + 1, names, n);
    for (let skip = n; skip <= names.length; skip++) if (segmentsMatch(patterns, p + 1, names, skip)) return true;
    return false;
  }
  return n < names.length && segmentMatches(patterns[p]!, names[n]!) && segmentsMatch(patterns, p + 1, names, n + 1);
}

/** No file name is longer (Linux NAME_MAX): a longer pattern segment names nothing. */
const NAME_MAX = 255;

/**
 * One path segment against one glob segment, without a regular expression (a pattern of many
 * `*` would make one backtrack for ever): the classic scan that returns to the last `*`, so the
 * work is at most the two lengths multiplied, and the pattern is at most NAME_MAX long.
 */
function segmentMatches(pattern: string, name: string): boolean {
  if (pattern.length > NAME_MAX) return false;
  if (name.startsWith('.') && !pattern.startsWith('.')) return false;
  let p = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    if (pattern[p] === '*') {
      star = p++;
      resume = n;
      continue;
    }
    const next = p < pattern.length ? matchOneCharacter(pattern, p, name[n]!) : -1;
    if (next !== -1) {
      p = next;
      n++;
    } else if (star !== -1) {
      p = star + 1;
      n = ++resume;
    } else return false;
  }
  while (pattern[p] === '*') p++;
  return p === pattern.length;
}

/** Where the pattern goes on when `char` matches its element at `p` (`?`, `[a-z]`, `[!x]`, a literal), or -1. */
function matchOneCharacter(pattern: string, p: number, char: string): number {
  const element = pattern[p]!;
  if (element === '?') return p + 1;
  if (element === '[') {
    const close = pattern.indexOf(']', p + 2);
    if (close !== -1) {
      let members = pattern.slice(p + 1, close);
      const negated = members[0] === '!' || members[0] === '^';
      if (negated) members = members.slice(1);
      let hit = false;
      for (let i = 0; i < members.length; i++) {
        if (members[i + 1] === '-' && i + 2 < members.length) {
          hit ||= char >= members[i]! && char <= members[i + 2]!;
          i += 2;
        } else hit ||= members[i] === char;
      }
      return hit !== negated ? close + 1 : -1;
    }
  }
  return element === char ? p + 1 : -1;
}

/** The part of a glob before its first wildcard segment: the folder it expands in. */
function literalFolderOf(glob: string): string {
  const segments = glob.split('/');
  const first = segments.findIndex((segment) => /[*?[]/.test(segment));
  return segments.slice(0, first).join('/') || '/';
}

function ancestorsAndSelf(path: string): string[] {
  const out = [path];
  for (let at = path.lastIndexOf('/'); at > 0; at = path.lastIndexOf('/', at - 1)) out.push(path.slice(0, at));
  return out;
}

/**
 * Deleting or moving away `path` takes a protected file with it when it is that file, below it,
 * or a folder above it (`rm -rf .claude`, `mv project elsewhere`). "Everything in a folder"
 * (`dir/**`: `rsync --delete`, `find -delete`, `git clean`) counts only in gobby's own folders
 * and the ones that hold its files (`.claude/`): in the project or the home as a whole, most of
 * what such a command reaches is the user's, and refusing it would block ordinary work.
 */
function removes(path: PathRef, ground: ProtectedGround, program: string): GuardDenial | null {
  const direct = changes(path, ground, program, true);
  if (direct || isGlob(path.path) || path.path.endsWith('/**')) return direct;
  return !path.dynamic && holdsProtected(path.path, ground) ? protectedFileDenial(path.path, program) : null;
}

/**
 * A copy or move into a folder above a protected file lands there under the source's own name
 * (`cp -r /tmp/x/.claude .` replaces the project's `.claude`); into any other path, it is that path.
 */
function lands(to: PathRef, from: PathRef, ground: ProtectedGround, program: string): GuardDenial | null {
  const direct = changes(to, ground, program);
  if (direct || to.dynamic || from.dynamic || !holdsProtected(to.path, ground)) return direct;
  const name = from.path.slice(from.path.lastIndexOf('/') + 1);
  const landed = to.path === '/' ? `/${name}` : `${to.path}/${name}`;
  return isProtected(landed, ground) || holdsProtected(landed, ground) ? protectedFileDenial(landed, program) : null;
}

function isProtected(path: string, ground: ProtectedGround): boolean {
  return (ground.protectedPaths ?? []).some((root) => path === root || isBelow(path, root));
}

/** Whether a protected path lies inside the folder `path` (its parent, the project, the home, `/`). */
function holdsProtected(path: string, ground: ProtectedGround): boolean {
  return (ground.protectedPaths ?? []).some((root) => isBelow(root, path));
}

function isBelow(path: string, folder: string): boolean {
  return folder === '/' ? path !== '/' : path.startsWith(folder.endsWith('/') ? folder : `${folder}/`);
}

function signalsTheDaemon(target: string, by: string, ground: ProtectedGround): boolean {
  if (by === 'port') return ground.daemonPort !== undefined && Number.parseInt(target, 10) === ground.daemonPort;
  // -1 is every process the user may signal; -PID the process group the daemon leads.
  if (by === 'pid') {
    if (!/^-?\d+$/.test(target)) return namesTheDaemon(target, ground); // `$(cat ~/.gobby/daemon.json …)`
    return target === '-1' || (ground.daemonPid !== undefined && target.replace(/^-/, '') === String(ground.daemonPid));
  }
  // `pkill node` or `killall node` would take the daemon down with everything else.
  return by === 'name' && namesTheDaemon(target, ground);
}

function reachesTheDaemon(effect: Extract<ShellEffect, { kind: 'network' }>, ground: ProtectedGround): boolean {
  if (ground.daemonPort === undefined || effect.port !== ground.daemonPort) return false;
  return effect.host === undefined || !isPublicName(effect.host);
}

/**
 * Only a dotted DNS name under a real top-level domain (`example.com`) is surely another
 * machine. Loopback has too many spellings to list (`127.1`, `0x7f000001`, `2130706433`,
 * `[::ffff:127.0.0.1]`, `localhost.`, `anything.localhost`, a one-word host name), so on the
 * daemon's port everything else counts as the daemon.
 */
function isPublicName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  const labels = name.split('.');
  const top = labels[labels.length - 1]!;
  return labels.length >= 2 && /^[a-z][a-z0-9-]*[a-z0-9]$/.test(top) && top !== 'localhost' && labels.every((label) => /^[a-z0-9-]+$/.test(label));
}

/** The human-only gobby command an invocation runs, spelled as argv, or null. */
function overrideCommandOf(invocation: ShellInvocation): string | null {
  const program = invocation.program.split('/').pop() ?? '';
  let argv: readonly string[] | undefined;
  if (program === 'gobby') argv = invocation.args;
  else {
    const script = invocation.args.findIndex((arg) => /(^|\/)daemon\/cli\/(?:main|program)\.[jt]s$/.test(arg));
    if (script >= 0) argv = invocation.args.slice(script + 1);
  }
  if (!argv) return null;
  const words = argv.filter((arg) => !arg.startsWith('-'));
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const next = words[i + 1];
    if (word === 'install' || word === 'uninstall' || word === 'setup') return `gobby ${word}`;
    if (word === 'workflow' && next && ['phase', 'reset', 'disable', 'enable', 'clear', 'set'].includes(next)) return `gobby workflow ${next}`;
    if (word === 'daemon' && (next === 'stop' || next === 'start')) return `gobby daemon ${next}`;
  }
  return null;
}

/**
 * A program gobby does not know (`sponge`, `7z`, an editor, `python3 -m http.server --directory`)
 * given one of gobby's files, or a folder that holds them (`.claude/`, `~/.gobby`), as an
 * argument: what it does with it cannot be told, and writing it is as likely as reading it. The
 * project or the home as a whole does not count (`cloc .`, `code .`): that is ordinary work.
 */
function unknownProgramGivenGround(invocation: ShellInvocation, ground: ProtectedGround): GuardDenial | null {
  for (const arg of invocation.args) {
    // `--file=.claude/settings.json` names the file too.
    const value = arg.startsWith('-') && arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : arg;
    if (value === '' || value.startsWith('-')) continue;
    const path = resolveAgainst(invocation.cwd, value);
    if (ground.secretFiles.includes(path)) return secretDenial(path);
    if (isProtected(path, ground) || (ground.protectedFolders ?? []).includes(path) || (isGlob(path) && globReaches(path, ground, true))) {
      return {
        kind: 'protected-file',
        reason:
          `gobby: \`${invocation.program}\` is a program gobby does not know, and it is given ${path}, one of gobby's own files (its state, ` +
          'its workflows, or the Claude Code settings that install its hooks), which it could change. `cat` and the Read tool read them; ask the user if one needs changing.',
        because: 'guard: protected file given to an unknown program',
      };
    }
  }
  return null;
}

/** git's options before the subcommand that take a value as the next word. */
const GIT_GLOBAL_VALUE_OPTIONS = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--super-prefix']);

/**
 * `git clean` and `git stash -u`/`-a` delete the untracked files of what they sweep, and gobby's
 * hooks are in one: `.claude/settings.local.json` is untracked in most projects (as may be a
 * new `.gobby/workflows/` file). Refused when the sweep reaches one of gobby's files, unless the
 * command leaves it out (`git clean -fdx -e .claude`, `git stash -u -- ':!.claude'`).
 */
function sweepsUntrackedGround(invocation: ShellInvocation, ground: ProtectedGround): GuardDenial | null {
  if (invocation.program.slice(invocation.program.lastIndexOf('/') + 1) !== 'git') return null;
  const args = invocation.args;
  let cwd = invocation.cwd;
  let i = 0;
  for (; i < args.length && args[i]!.startsWith('-'); i++) {
    if (args[i] === '-C' && args[i + 1] !== undefined) cwd = resolveAgainst(cwd, args[i + 1]!);
    if (GIT_GLOBAL_VALUE_OPTIONS.has(args[i]!)) i++;
  }
  const sub = args[i];
  let rest = args.slice(i + 1);
  if (sub === 'stash' && (rest[0] === 'push' || rest[0] === 'save')) rest = rest.slice(1);
  const dashDash = rest.indexOf('--');
  const options = dashDash === -1 ? rest : rest.slice(0, dashDash);
  const has = (short: string, ...long: string[]) => options.some((arg) => long.includes(arg) || (/^-[^-]/.test(arg) && arg.slice(1).includes(short)));
  if (sub === 'clean' ? has('n', '--dry-run') : sub !== 'stash' || (!has('u', '--include-untracked') && !has('a', '--all'))) return null;
  // Operands: pathspecs (`:!x` leaves x out) and, for clean, -e patterns that leave paths out.
  const pathspecs: string[] = [];
  const excluded: string[] = [];
  for (let j = 0; j < rest.length; j++) {
    const arg = rest[j]!;
    const afterDashDash = dashDash !== -1 && j > dashDash;
    if (!afterDashDash && (arg === '-e' || arg === '--exclude') && sub === 'clean') excluded.push(rest[++j] ?? '');
    else if (!afterDashDash && sub === 'clean' && /^(?:-e|--exclude=)./.test(arg)) excluded.push(arg.replace(/^(?:-e|--exclude=)/, ''));
    else if (!afterDashDash && (arg === '-m' || arg === '--message') && sub === 'stash') j++;
    else if (arg === '--' || (!afterDashDash && arg.startsWith('-'))) continue;
    else if (/^:(?:!|\^|\(exclude\))/.test(arg)) excluded.push(arg.replace(/^:(?:!|\^|\(exclude\))/, ''));
    else pathspecs.push(resolveAgainst(cwd, arg));
  }
  // Without a pathspec clean sweeps the directory it runs in, and stash the whole repository: taken
  // to be the project that holds the nearest of the folders with gobby's files.
  const repository = (ground.protectedFolders ?? []).map((folder) => folder.slice(0, folder.lastIndexOf('/')) || '/').filter((root) => cwd === root || isBelow(cwd, root)).sort((a, b) => b.length - a.length)[0];
  const trees = pathspecs.length > 0 ? pathspecs : sub === 'clean' ? [cwd] : repository ? [repository] : [];
  const leftOut = (path: string, tree: string) => {
    const top = path.slice(tree === '/' ? 1 : tree.length + 1).split('/')[0]!;
    return excluded.some((pattern) => {
      const first = pattern.replace(/^\/+/, '').split('/')[0]!;
      return first !== '' && segmentMatches(first, top);
    });
  };
  for (const tree of trees) {
    const reached = (ground.protectedPaths ?? []).find((path) => (path === tree || isBelow(path, tree)) && !leftOut(path, tree));
    if (reached) {
      return {
        kind: 'protected-file',
        reason:
          `gobby: \`git ${sub}\` would delete the untracked files in ${tree}, and ${reached} is one of gobby's own files (its state, its workflows, ` +
          `or the Claude Code settings that install its hooks). Leave it out (${sub === 'clean' ? '`git clean … -e .claude -e .gobby`' : "`git stash -u -- ':!.claude' ':!.gobby'`"}) or name the paths to sweep.`,
        because: 'guard: untracked sweep of a protected file',
      };
    }
  }
  return null;
}

/**
 * `ln [-s] FILE… [LINK]`: a second name for one of gobby's files (or a folder holding them)
 * lets a later write change it under a name gobby does not protect (`ln -s .claude/settings.json x
 * && echo {} > x`), so making one is refused like the write.
 */
function linkToGround(invocation: ShellInvocation, ground: ProtectedGround): GuardDenial | null {
  const program = invocation.program.slice(invocation.program.lastIndexOf('/') + 1);
  if (program !== 'ln' && program !== 'link') return null;
  const operands: string[] = [];
  let intoFolder = false;
  for (let i = 0; i < invocation.args.length; i++) {
    const arg = invocation.args[i]!;
    if (arg === '-t' || arg === '--target-directory') {
      intoFolder = true;
      i++;
    } else if (arg.startsWith('--target-directory=') || /^-[^-]*t/.test(arg)) intoFolder = true;
    else if (arg === '--') {
      operands.push(...invocation.args.slice(i + 1));
      break;
    } else if (!arg.startsWith('-')) operands.push(arg);
  }
  // The last operand names the link, unless there is one operand or a -t folder.
  const files = intoFolder || operands.length === 1 ? operands : operands.slice(0, -1);
  for (const file of files) {
    const path = resolveAgainst(invocation.cwd, file);
    if (isProtected(path, ground) || holdsProtected(path, ground) || (isGlob(path) && globReaches(path, ground, true))) {
      return {
        kind: 'protected-file',
        reason:
          `gobby: \`${program}\` would give ${path}, one of gobby's own files (its state, its workflows, or the Claude Code settings ` +
          'that install its hooks), a second name through which it could be changed. Ask the user if it needs changing.',
        because: 'guard: link to a protected file',
      };
    }
  }
  return null;
}

function overrideDenial(command: string): GuardDenial {
  return {
    kind: 'override',
    reason:
      `gobby: \`${command}\` changes gobby's own enforcement and only the user may run it. ` +
      'If you believe the workflow is in the wrong phase, say so and ask the user to run the command.',
    because: 'guard: human-only override',
  };
}

function daemonNetworkDenial(what: string, target: string): GuardDenial {
  return {
    kind: 'daemon-network',
    reason: `gobby: ${what} would talk to gobby's daemon (${target}); its hooks and control API are for Claude Code and the user only.`,
    because: 'guard: network access to the daemon',
  };
}

function opaqueCodeNamingGround(name: string): GuardDenial {
  return {
    kind: 'protected-file',
    reason:
      `gobby: this command runs code gobby cannot see into, and it names \`${name}\`, one of gobby's own files (its workflows, ` +
      "its state or Claude Code's hook settings). Code that could change them is refused in every phase. If the workflow or its hooks are wrong, tell the user.",
    because: 'guard: protected file named by opaque code',
  };
}

function secretDenial(secret: string): GuardDenial {
  return {
    kind: 'secret',
    reason: `gobby: ${secret} holds gobby's control token; the agent may not read or change it.`,
    because: 'guard: control token',
  };
}

function secretInTreeDenial(secret: string, folder: string, program: string): GuardDenial {
  return {
    kind: 'secret',
    reason:
      `gobby: \`${program}\` would read every file below ${folder}, gobby's control token (${secret}) among them; the agent may not read it. ` +
      'Read a folder that does not hold it.',
    because: 'guard: control token',
  };
}

function protectedFileDenial(path: string, program: string): GuardDenial {
  return {
    kind: 'protected-file',
    reason:
      `gobby: ${path} belongs to gobby's own ground (its state, its workflows, or the Claude Code settings that install its hooks), ` +
      `so \`${program}\` may not change it. Ask the user if it needs changing.`,
    because: 'guard: protected file',
  };
}

/**
 * A deny reason when the text of a shell command would run a human-only gobby command. Kept
 * for callers without a parsed command; the guard itself judges the parsed invocations.
 * Linear in the command's length: each segment is searched once for the program and once,
 * after it, for the override's words.
 */
export function findOverrideCommand(command: string): string | null {
  for (const segment of command.split(SHELL_SEGMENT_SEPARATOR)) {
    const program = GOBBY_PROGRAM.exec(segment);
    if (!program) continue;
    const rest = segment.slice(program.index + program[0].length);
    const words = OVERRIDE_WORDS.exec(rest);
    if (!words) continue;
    const matched = segment.slice(program.index, program.index + program[0].length + words.index + words[0].length).trim();
    return overrideDenial(matched.length > QUOTED_COMMAND_LIMIT ? `…${matched.slice(-QUOTED_COMMAND_LIMIT)}` : matched).reason;
  }
  return null;
}

const GOBBY_PROGRAM = /\bgobby\b|\bcli\/(?:main|program)\.js\b/;
const OVERRIDE_WORDS = /\b(?:workflow\s+(?:phase|reset|disable|enable|clear|set)|uninstall|install|setup|daemon\s+(?:stop|start))\b/;
const SHELL_SEGMENT_SEPARATOR = /[\n;|&]/;
const QUOTED_COMMAND_LIMIT = 200;

/**
 * `number` as a word of its own in `text` (`host:7377` in a URL, `(host, 7377)`, `connect(7377, …)`),
 * not inside a longer number, a name or a decimal. A scan, not a regular expression built per call.
 */
function mentionsNumber(text: string, number: number): boolean {
  const digits = String(number);
  const partOfWord = (char: string | undefined): boolean => char !== undefined && /[\w.]/.test(char);
  for (let at = text.indexOf(digits); at !== -1; at = text.indexOf(digits, at + 1)) {
    if (!partOfWord(text[at - 1]) && !partOfWord(text[at + digits.length])) return true;
  }
  return false;
}

/** The full path, or its last two segments (`~/.gobby/token`, `$GOBBY_HOME/../.gobby/token`). */
function mentionsPath(text: string, path: string): boolean {
  const tail = path.split(/[\\/]/).slice(-2).join('/');
  return text.includes(path) || text.includes(tail);
}
