// gobby's own ground: checks that hold in every phase of every workflow, and for sessions
// that run no workflow at all. They are the first thing evaluateEvent asks, so their
// denies are counted and audited like any other block, and each is also a tamper attempt
// the user is told about. What they protect (the token, gobby's folders, the settings files
// that install its hooks, the daemon's port and pid) comes in through the engine context;
// this module never looks at the machine itself. A Bash command is judged by what it does
// (workflows/shell/), never by its text: `grep -rn "gobby workflow phase" .` only reads.
// Path and glob matching is in ground-paths.ts, the checks that read argv in
// ground-invocations.ts, and the wording of each refusal in ground-denials.ts.
import type { EngineEvent } from './events.js';
import { accessTakenDenial, becomesFolderDenial, daemonNetworkDenial, daemonProcessDenial, filesNamedByDataDenial, opaqueCodeNamingGround, overrideDenial, overrideLaterDenial, protectedFileDenial, secretDenial, secretInTreeDenial } from './ground-denials.js';
import { fileHoldingPid, linkToGround, signalsPidFoundAtRunTime, overrideCommandOf, runTimePathFromGround, sweepsUntrackedGround, unknownProgramGivenGround } from './ground-invocations.js';
import { grepKeepsOut, type GroundTexts } from './ground-listers.js';
import { lsofListsTheDaemon } from './lsof-selection.js';
import { addressOfTheDaemon, exportedAddressOfTheDaemon } from './daemon-address.js';
import { daemonRows, patternMatchesLines, SEARCHERS, searchPatterns, type PatternDialect } from './process-search.js';
import { groundInUnknownOption } from './ground-option-values.js';
import { runsLater } from './runs-later.js';
import { globMatches, globReaches, holdsProtected, isBelow, isGlob, isProtected, knownEnd, knownEndNames, namesByGlob, runTimePartsAsGlobs, treeHolds, treeReaches, withRunTimePartsEmpty } from './ground-paths.js';
import { DIRECTORY_BUILTINS, type PathRef, type ShellAnalysis, type ShellEffect, type ShellInvocation } from './shell/index.js';
import { changesWhatCommandsDo, SCRIPT_DEPTH, scriptAsQuoted, scriptRunBy, type ProjectScript } from './shell-policy.js';
import { normalizeAbsolute, resolveAgainst } from './shell/paths.js';
import { patchedPaths } from './patch-paths.js';
import { ASKS_FOR_DOT_NAMES, starForGlobStar } from './shell/glob-text.js';
import { throughLinks } from './shell-through-links.js';
import { FIND_PROGRAMS, findMaySelect, findParts } from './find-selection.js';
import { selectedBelow } from './shell/find-expression.js';
import { literalArg } from './shell/words.js';
import { HOOKLESS_CLAUDE_VARIABLES } from './shell/programs-code.js';
import { GREP_OPTIONS } from './shell/programs-files.js';
import type { OptionSpec } from './shell/argv.js';
import { OWN_PIDS } from './shell/programs-net.js';
import { isPublicName } from './shell/hosts.js';
import { shellCommandOf } from './tool-commands.js';
import { canonicalToolName, mcpToolWords } from './tool-names.js';
import { toolInputPaths } from './tool-paths.js';

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
   * Those of the protected folders the daemon found on disk when the command came. A copy, move or
   * symbolic link made onto one that does not exist becomes it; unknown counts as not existing.
   */
  readonly existingFolders?: readonly string[];
  /**
   * The paths named in the headers of the files a command that applies a patch reads (`git apply
   * p.diff`, `patch -p1 < p.diff`), as the daemon read them: a patch changes what it names.
   */
  readonly patchedPaths?: readonly string[];
  /**
   * Files known to be in the protected folders: gobby's database, logs and token, the workflow
   * definitions the daemon has read. A pattern that reaches into every folder (`find . -name
   * '*.yaml' -delete`, a glob with `**`) is judged against these, as it would find them.
   */
  readonly filesInside?: readonly string[];
  /**
   * The text of gobby's files, read by the daemon for a command that searches by content and
   * changes what it finds (`grep -rl x . | xargs sed -i …`): such a search prints only the files
   * whose text matches (null: too large or unreadable to judge).
   */
  readonly groundTexts?: GroundTexts;
  /**
   * The text of the files a command that uses paths only known at run time reads (`xargs rm <
   * /tmp/list`, `rm $(cat /tmp/list)`), as the daemon read them: those paths may be their words.
   */
  readonly readTexts?: Readonly<Record<string, string>>;
  /**
   * How code would name those paths (`.claude/settings.local.json`, `.gobby`, `GOBBY_HOME`):
   * code gobby cannot see into whose text names one is refused, as a last resort.
   */
  readonly protectedNames?: readonly string[];
  /** The user's home, for `~/…` in code gobby cannot see into. */
  readonly home?: string | undefined;
  /** The daemon's port: no network access to it from the agent's tools, no signal by it. */
  readonly daemonPort?: number | undefined;
  /** The daemon's pid: no signal to it. */
  readonly daemonPid?: number | undefined;
  /** What a process search sees of the daemon: a pattern that matches it signals it (`pkill -f 'daemon/mai'`). */
  readonly daemonProcess?: { readonly names: readonly string[]; readonly commandLine: string } | undefined;
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
const FILE_CHANGING_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

/** Where a tool call's paths are: the session's directory and home, and what the daemon found their real paths to be. */
export interface ToolPlace {
  readonly cwd: string;
  readonly home: string;
  /** A path as the tool was given it → the real path behind its symbolic links (read by the daemon). */
  readonly realPaths?: ReadonlyMap<string, string> | undefined;
  /** The package.json scripts a Bash command runs, as the daemon read them (by `projectScriptKey`). */
  readonly projectScripts?: ReadonlyMap<string, ProjectScript> | undefined;
}

/**
 * The first of gobby's own rules that the tool call breaks, or null. Only tool calls about to
 * run are checked. `shell` is the analysis of a Bash command, made once by the caller; `place`
 * says where a file tool's relative paths start.
 */
export function checkProtectedGround(event: EngineEvent, ground: ProtectedGround, shell?: ShellAnalysis, place?: ToolPlace): GuardDenial | null {
  if (event.name !== 'PreToolUse') return null;
  // Bash's command, or an MCP tool's that runs one; any other tool's `command` text is matched below.
  const runs = shellCommandOf(event.toolName, event.toolInput);
  if (shell && runs !== undefined) return checkShellCommandAndScripts(runs, shell, ground, place);
  const command = runs ?? (typeof event.toolInput.command === 'string' ? event.toolInput.command : undefined);
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
  const given = toolInputPaths(event.toolName, event.toolInput);
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
      if (readsTheDaemonProcess(path, ground)) return daemonProcessDenial(path);
      // Grep reads every file below its path.
      const inTree = tool === 'Grep' ? ground.secretFiles.find((file) => treeHolds(`${path === '/' ? '' : path}/**`, file)) : undefined;
      if (inTree) return secretInTreeDenial(inTree, path, tool);
      if ((FILE_CHANGING_TOOLS.has(tool) || /^mcp__/.test(tool)) && isProtected(path, ground)) {
        return protectedFileDenial(path, tool);
      }
      if (FILE_CHANGING_TOOLS.has(tool) && ground.home !== undefined && (runsLater(path, ground.home) || changesWhatCommandsDo(path, ground.home))) {
        const texts = writtenTexts(event.toolInput);
        const override = overrideInTextRunLater(texts);
        if (override) return overrideLaterDenial(override, path);
        const named = runsLater(path, ground.home) ? codeTextNamingGround(texts, ground, `code written to ${path}, which runs later outside the session,`, 'anywhere') : null;
        if (named) return named;
      }
      // An MCP tool that moves or deletes a folder above gobby's files takes them with it (`move_file {source: '.claude'}`).
      if (mcpToolWords(tool)?.some((word) => MCP_REMOVING_WORDS.has(word)) && holdsProtected(path, ground)) return protectedFileDenial(path, tool);
    }
  }
  return null;
}

/**
 * `echo 'gobby workflow reset …' >> ~/.bashrc`, a git hook, a user service: an override written
 * where it runs later, outside the session, where the daemon cannot tell it from the user's own;
 * and so anything naming gobby's ground (`echo 'cat ~/.gobby/token > /tmp/t' >> ~/.bashrc`).
 * The command's text holds what it writes (echo, printf, a here-document, `sed -i 'a …'`).
 */
function overrideWrittenToRunLater(command: string, shell: ShellAnalysis, ground: ProtectedGround): GuardDenial | null {
  if (ground.home === undefined) return null;
  const home = ground.home;
  let file: string | undefined;
  let configuration: string | undefined;
  for (const effect of shell.effects) {
    const written = effect.kind === 'write' ? effect.path : effect.kind === 'copy' || effect.kind === 'move' ? effect.to : undefined;
    if (written === undefined) continue;
    if (runsLater(written.path, home)) file = written.path;
    // Any other configuration in the home or the system may hold a command some tool runs (an alias, a hook, a pager): no override is written there either.
    else if (changesWhatCommandsDo(written.path, home) && !isProtected(written.path, ground)) configuration = written.path;
  }
  if (file === undefined && configuration === undefined) return null;
  const texts = [command, ...shell.invocations.map((invocation) => invocation.args.join(' '))];
  const override = overrideInTextRunLater(texts);
  if (override) return overrideLaterDenial(override, (file ?? configuration)!);
  if (file === undefined) return null;
  // What runs there later runs outside the session too: text that names gobby's files, its port or its pid.
  return codeTextNamingGround(texts, ground, `code written to ${file}, which runs later outside the session,`, 'anywhere');
}

/** An override in text a shell will run later: as written, and with quotes and backslashes taken out as that shell will (`gob''by`, `gobby work\flow`). */
function overrideInTextRunLater(texts: readonly string[]): string | null {
  for (const text of texts) {
    const found = overrideWords(text) ?? overrideWords(text.replace(/['"\\]/g, ''));
    if (found !== null) return found;
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

/**
 * The command, then each project script it runs (`npm run x` whose script writes
 * `.claude/settings.json`, `bash scripts/x.sh`), as the daemon read them: a script is the command's own code.
 */
function checkShellCommandAndScripts(command: string, shell: ShellAnalysis, ground: ProtectedGround, place: ToolPlace | undefined, depth = 0): GuardDenial | null {
  const denial = checkShellCommand(command, shell, ground, place?.realPaths);
  if (denial || place?.projectScripts === undefined || depth >= SCRIPT_DEPTH) return denial;
  for (const effect of shell.effects) {
    const script = scriptRunBy(effect, place.projectScripts);
    if (script === undefined || (effect.kind !== 'exec' && effect.kind !== 'opaque')) continue;
    for (const step of script.steps) {
      const inner = checkShellCommandAndScripts(step.text, step.analysis, ground, place, depth + 1);
      const runs = effect.kind === 'exec' ? `\`${effect.program}\` runs the script \`${scriptAsQuoted(step.text)}\` of ${script.file}` : `the command runs ${script.file}`;
      if (inner) return { ...inner, reason: `gobby: ${runs}. ${inner.reason.replace(/^gobby: /, '')}` };
    }
  }
  return null;
}

function checkShellCommand(command: string, shell: ShellAnalysis, ground: ProtectedGround, realPaths?: ReadonlyMap<string, string>): GuardDenial | null {
  // The token's path anywhere in the command, quoted text included: reading it is never needed.
  // Only text that no program can read it through goes by (a search pattern, a message; see
  // onlyMentionedAsText).
  const secret = ground.secretFiles.find((file) => mentionsPath(command, file) && !onlyMentionedAsText(command, shell, file));
  if (secret) return secretDenial(secret);
  // Code gobby cannot see into (`bash -c "$x"`, `python -c …`, a command over the length cap) is
  // judged by its text as a last resort: it could run an override or change gobby's files however
  // the phase is set.
  // A program gobby does not know may run what it is given as code (`sg root -c 'gobby daemon stop'`,
  // `ssh-agent sh -c '…'`): its own arguments get the same last-resort reading as code gobby cannot
  // see into gets for the whole command.
  const opaque = shell.effects.some((effect) => effect.kind === 'opaque');
  const unknown = opaque ? [] : unknownInvocations(shell);
  // A glob in that text that reaches gobby's files: refused after what the invocations say more precisely (an override).
  let globbed: string | undefined;
  if (opaque || unknown.length > 0) {
    // `gobby $(echo workflow) phase …`, `… | xargs gobby`: what it would do is only known at run time.
    if (shell.effects.some((effect) => effect.kind === 'opaque' && effect.program === 'gobby')) return overrideDenial('gobby with arguments built at run time');
    // As written and as the programs receive it, quotes removed and `$'…'` decoded: `'settings.js'on''`
    // and `$'settings.js\x6fn'` reach the program as `settings.json`.
    const texts = opaque ? [command, ...shell.invocations.map((invocation) => invocation.args.join(' '))] : unknown.map((invocation) => invocation.args.join(' '));
    // In inline code the pid is the pid wherever it stands (`process._debugProcess(4711)`, `getattr(os, "ki"+"ll")(4711, 9)`);
    // among the words given to a program or a script file, only where processes are signalled or it is given as one (`next dev -p 4711`, `manage.py runserver 4711` are ports).
    const inlineCode = shell.effects.some((effect) => effect.kind === 'opaque' && !RUNS_A_FILE.test(effect.why));
    const denial = inlineCode ? codeTextNamingGround(texts, ground, undefined, 'anywhere') : (codeTextNamingGround(texts, ground, undefined, 'signalled') ?? givenTheDaemonPid(unknown, ground));
    if (denial) return denial;
    // A glob a program or code is given, it most likely expands as glob libraries and shells do,
    // without dot names (starForGlobStar), unless the command asks for them.
    globbed = wordInTextReachingGround(texts, shell.invocations[0]?.cwd, ground, !ASKS_FOR_DOT_NAMES.test(command));
  }
  // `exec` names the program as an author would allow it (`python3 -m http.server`, `npm run x`): its first word is the invocation's.
  const unknownPrograms = new Set(shell.effects.flatMap((effect) => (effect.kind === 'exec' ? [effect.program.split(' ')[0]!] : [])));
  // Whether a word naming the token is only text: asked only when one does (rare), not on every command.
  let whole: boolean | undefined;
  const onlyText = (invocation: ShellInvocation, index: number): boolean => (whole ??= seenWhole(command, shell)) && textWordIndexes(invocation).includes(index);
  for (const invocation of shell.invocations) {
    // The token named as an argument, however the program reads it (`column -t token` after `cd
    // ~/.gobby`, `jq --rawfile t token`, `wc --files0-from=token`, `strings @token`): never needed.
    const named = secretNamedBy(invocation, ground, onlyText);
    if (named) return secretDenial(named);
    const override = overrideCommandOf(invocation);
    if (override) return overrideDenial(override);
    const linked = linkToGround(invocation, ground);
    if (linked) return linked;
    const swept = sweepsUntrackedGround(invocation, ground);
    if (swept) return swept;
    // Any client's option or setting that points it at the daemon's port (`kubectl --server …:7377`, `DOCKER_HOST=…`).
    const address = ground.daemonPort === undefined ? undefined : addressOfTheDaemon(invocation, ground.daemonPort);
    if (address !== undefined) return daemonNetworkDenial(`\`${invocation.program}\``, address);
    // A program named at run time (`$X -rf .claude`) is as unknown as one gobby has no entry for.
    if (unknownPrograms.has(invocation.program) || invocation.nameAtRunTime) {
      const handed = unknownProgramGivenGround(invocation, ground);
      if (handed) return handed;
    }
  }
  if (globbed) return opaqueCodeNamingGround(globbed);
  const exported = ground.daemonPort === undefined ? undefined : exportedAddressOfTheDaemon(command, ground.daemonPort);
  if (exported !== undefined) return daemonNetworkDenial('an exported variable', exported);
  const optionValue = groundInUnknownOption(shell, ground, unknownPrograms);
  if (optionValue) return optionValue;
  const patched = patchReachingGround(command, shell, ground);
  if (patched) return patched;
  const later = overrideWrittenToRunLater(command, shell, ground);
  if (later) return later;
  // A file written and the project's own code run in one command: what it wrote may be that code
  // (`echo 'x: ; rm -rf .claude' > Makefile && make x`, a git hook then `git commit`). It is read
  // as code gobby cannot see into, from what the command writes with.
  const written = runsWhatItMayHaveWritten(shell) ? writtenText(command, shell) : [];
  if (written.length > 0) {
    const code = "code it may have just written (it writes a file and runs the project's own tools)";
    // What a command writes and then tests is mostly configuration and fixtures (`port: 4711`): the pid counts where processes are signalled.
    const denial = codeTextNamingGround(written, ground, code, 'signalled');
    if (denial) return denial;
    const reached = wordInTextReachingGround(written, shell.invocations[0]?.cwd, ground);
    if (reached) return opaqueCodeNamingGround(reached, code);
  }
  for (const effect of shell.effects) {
    // The path as written, then the real path behind a symbolic link on the way (read by the daemon).
    const real = realPaths && realPaths.size > 0 ? throughLinks(effect, realPaths) : effect;
    // find's expression may keep its action off gobby's files as written; through a link, find's start is elsewhere.
    const asWritten = checkShellEffect(effect, ground, command, shell.invocations);
    if (asWritten && !findKeepsOut(effect, shell.invocations, ground)) return asWritten;
    const denial = (real !== effect ? checkShellEffect(real, ground, command, shell.invocations) : null) ?? (asWritten === null ? asItMayBeAtRunTime(effect, ground, command) : null);
    if (denial) return denial;
  }
  const foundInGround = runTimePathFromGround(shell, ground);
  if (foundInGround) return foundInGround;
  const portFromGround = daemonPortFoundAtRunTime(command, shell, ground);
  if (portFromGround) return portFromGround;
  // A Claude Code started with its user settings somewhere else loads none of the hooks a
  // `gobby install --user` put in ~/.claude (`CLAUDE_CONFIG_DIR=/tmp/c claude -p …`, `HOME=/tmp claude`).
  // Without HOME (`env -i claude`, `env -u HOME claude`, `unset HOME`) it has no user settings either.
  const relocated = shell.effects.some((effect) => effect.kind === 'nested_claude') ? (RELOCATES_CLAUDE_SETTINGS.exec(command) ?? CLEARS_HOME.exec(command)) : null;
  if (relocated) {
    const variable = relocated.slice(1).find((group) => group !== undefined);
    const how = variable !== undefined ? `setting ${variable}` : 'clearing HOME';
    return {
      kind: 'nested-claude',
      reason: `gobby: ${how} for a nested Claude Code starts it without the user settings that may hold gobby's hooks; the agent may not run it.`,
      because: 'guard: nested claude without hooks',
    };
  }
  // `/proc/$(pgrep -f gobby)/mem`: a process found at run time by a search that names the daemon.
  const readsRunTimeProcess = shell.effects.some((effect) => effect.kind === 'read' && /^\/proc\/[^/]*[$`]/.test(effect.path.path));
  if (readsRunTimeProcess && searchesForTheDaemon(shell, ground, command)) {
    return daemonProcessDenial('/proc/<a pid found at run time>');
  }
  // Pids only known at run time (`pgrep -f gobby | xargs kill`, `kill $(lsof -ti:7377)`) come
  // from another program of the same command: one that names the daemon gives them away.
  // The shell's own pid (`$$`, `$BASHPID`) and its last background job (`$!`) are never the daemon's.
  const signalsRunTimePids = shell.effects.some((effect) => effect.kind === 'signal' && effect.by === 'pid' && !/^-?\d+$/.test(effect.target) && !OWN_PIDS.has(effect.target));
  // Or hands them to code gobby cannot see into, which may signal or attach to them
  // (`python3 -c '…os.kill(int(sys.argv[1]), 9)' $(pgrep -f gobby)`, `node inspect -p $(pgrep -f gobby)`, awk's `system()`).
  const handsToCode = shell.effects.some((effect) => effect.kind === 'opaque' || effect.kind === 'exec');
  // Or a value the shell makes of the daemon's pid as the command writes it (`printf -v p %d 4242; kill $p`, `kill $(bc <<< 4241+1)`, a `for ((…))` loop).
  const pidInText = signalsRunTimePids && ground.daemonPid !== undefined && (mentionsPid(command, ground.daemonPid) || computesNumber(command, ground.daemonPid));
  if ((signalsRunTimePids && (pidInText || searchesForTheDaemon(shell, ground, command))) || (handsToCode && aSearchNamesTheDaemon(shell, ground, true))) {
    return {
      kind: 'daemon-signal',
      reason: `gobby: this command ${signalsRunTimePids ? 'signals processes' : 'hands to code gobby cannot see into the processes'} it finds at run time by a search that names gobby's daemon; the agent may not stop or restart it. If the daemon misbehaves, tell the user.`,
      because: 'guard: signal to the daemon',
    };
  }
  return null;
}

/**
 * Whether a write or delete is find's action on what it finds (`find . -maxdepth 1 -name '*.json'
 * -exec sed -i … {} +`, `-delete`), and the rest of find's expression keeps it off every one of
 * gobby's files and folders below its start path: the classifier's glob holds only the name tests,
 * not the depth limits, the negated paths or `-prune` (workflows/find-selection.ts).
 */
function findKeepsOut(effect: ShellEffect, invocations: readonly ShellInvocation[], ground: ProtectedGround): boolean {
  if ((effect.kind !== 'write' && effect.kind !== 'delete') || !effect.path.dynamic || effect.path.unplaced === true) return false;
  const find = invocations.find((invocation) => FIND_PROGRAMS.has(invocation.program) && handsOn(invocation, effect.program, effect.path.path));
  if (find === undefined) return false;
  // Everything inside a protected folder is protected (`.gobby/`), so a file it does not know there counts; a folder that holds some (`.claude/`) counts itself.
  const folders = new Set((ground.protectedPaths ?? []).filter((path) => !/[^/]\.\w+$/.test(path)));
  const targets = [...(ground.protectedPaths ?? []), ...(ground.protectedFolders ?? []), ...(ground.filesInside ?? []), ...ground.secretFiles];
  return targets.every((target) => !findMaySelect(find.args, find.cwd, target, 'act', folders.has(target)));
}

/** Whether `path`, written or deleted by `program`, is what `find` hands its action: `-delete`'s, or `-exec PROGRAM … {}`'s, at a glob the classifier made for one of its start paths. */
function handsOn(find: ShellInvocation, program: string, path: string): boolean {
  const args = find.args;
  const acts = program === 'find' ? args.includes('-delete') : args.some((arg, i) => /^-(?:exec|execdir|ok|okdir)$/.test(arg) && args[i + 1] === program);
  if (!acts) return false;
  const parts = findParts(args);
  const expression = parts.expression.map(literalArg);
  return parts.roots.some((root) => {
    const at = resolveAgainst(find.cwd, root);
    const base = at === '/' ? '' : at;
    return (selectedBelow(root, expression) ?? ['**']).some((glob) => path === `${base}/${glob}`);
  });
}

/**
 * A write through the daemon's `/proc/<pid>/` entries: its open files (`truncate -s0
 * /proc/<pid>/fd/3` empties gobby.db), its working directory (gobby's installed code), its memory.
 */
function throughTheDaemonProcess(path: PathRef, ground: ProtectedGround): GuardDenial | null {
  return readsTheDaemonProcess(path.path, ground) ? daemonProcessDenial(path.path) : null;
}

/** Whether `test` holds for a folder above `file` (its parent up to the first level below `/`). */
function folderAbove(file: string, test: (folder: string) => boolean): boolean {
  for (let folder = file.slice(0, file.lastIndexOf('/')); folder.length > 1; folder = folder.slice(0, folder.lastIndexOf('/'))) if (test(folder)) return true;
  return false;
}

/**
 * `/proc/<daemon pid>/…`: its memory (`mem`), where the token is held, its open files (`fd/`,
 * `map_files/`), its environment. A pid only known at run time is judged by checkShellCommand.
 */
function readsTheDaemonProcess(path: string, ground: ProtectedGround): boolean {
  if (ground.daemonPid === undefined) return false;
  const folder = `/proc/${ground.daemonPid}`;
  return path === folder || (path.startsWith(`${folder}/`) && !PROCESS_FACTS.has(path.slice(folder.length + 1)));
}

/**
 * Whether every run of `program` in the command is a recursive grep whose own options keep it from `file`
 * (`grep -r --exclude-dir=.gobby x ~`, `grep -r port ~/.gobby --include='*.json'`), so that its read of
 * the tree above never opens it. Its text is not asked: whether a pattern matches the token would tell it.
 */
function walksPast(invocations: readonly ShellInvocation[], program: string, root: string, file: string): boolean {
  const runs = invocations.filter((invocation) => invocation.program === program);
  return runs.length > 0 && runs.every((invocation) => grepKeepsOut(invocation, root, file));
}

/**
 * What `/proc/PID/` tells of a process without any of its memory, files or environment: its state,
 * counters and limits (`cat /proc/4242/status` while looking at the daemon's memory use).
 */
const PROCESS_FACTS = new Set(['status', 'stat', 'statm', 'comm', 'cmdline', 'limits', 'io', 'oom_score', 'cgroup', 'sched', 'schedstat', 'wchan']);

/**
 * Programs that read only what a file's entry says (its name, size, mode, times, the target of a
 * link), never what the file holds: pointed at the token, they cannot tell it.
 */
const METADATA_READERS = new Set(['ls', 'dir', 'vdir', 'stat', 'du', 'test', '[', 'lsattr', 'getfacl', 'namei', 'realpath', 'readlink']);

/**
 * A word in the text of code gobby cannot see into that would name one of gobby's files or a
 * folder above them where the code runs: a glob (`concurrently 'rm -rf ~/.gob*'`, `nodemon --exec
 * 'rm .cla?de/settings*'`), or a folder that holds protected files among the user's, named as a
 * whole (`shutil.rmtree('.claude')`, `os.rename('/tmp/x', '.claude')`; `.claude/commands/x.md`
 * names only what is the user's). The text, split at the shell's and most languages' separators,
 * is read as paths from the command's folder (`~/` from the home).
 */
function wordInTextReachingGround(texts: readonly string[], cwd: string | undefined, ground: ProtectedGround, asLibrariesGlob = false): string | undefined {
  if (cwd === undefined) return undefined;
  const folders = ground.protectedFolders ?? [];
  // The texts are the command and each program's words: most tokens come twice or more, and each is judged once.
  const seen = new Set<string>();
  for (const text of texts) {
    for (const token of text.split(/[\s'"`;|&()<>=,{}]+/)) {
      if (!/[./]/.test(token) || token.length > MAX_GLOB_TOKEN || seen.has(token)) continue;
      seen.add(token);
      const glob = /[*?[]/.test(token);
      if (!glob && !folders.some((folder) => endsWithName(token.replace(/\/+$/, ''), folder.slice(folder.lastIndexOf('/') + 1)))) continue;
      const home = /^(?:~|\$HOME|\$\{HOME\})\//.exec(token);
      if (home && ground.home === undefined) continue;
      const path = home ? `${ground.home}/${token.slice(home[0].length)}` : resolveAgainst(cwd, token);
      // A glob that names a file outright (`'**/settings.json'`) is read as reaching dot folders: a library may be set to.
      const asLibrary = asLibrariesGlob && /[*?[]/.test(path.slice(path.lastIndexOf('/') + 1));
      if (glob ? globReaches(asLibrary ? starForGlobStar(path) : path, ground, true) : folders.includes(path)) return token;
    }
  }
  return undefined;
}

/**
 * A patch that changes one of gobby's files, applied by `patch`, `git apply` or `git am`: written
 * in the command (a here-doc) or in a file the command reads (ProtectedGround.patchedPaths). A
 * header's path (`b/.claude/settings.local.json`) names gobby's file when any ending of it does:
 * `-p` may strip any number of leading folders.
 */
function patchReachingGround(command: string, shell: ShellAnalysis, ground: ProtectedGround): GuardDenial | null {
  const git = shell.effects.find((effect): effect is Extract<ShellEffect, { kind: 'git' }> => effect.kind === 'git' && (effect.subcommand === 'apply' || effect.subcommand === 'am'));
  const program = git !== undefined ? `git ${git.subcommand}` : shell.invocations.some((invocation) => invocation.program === 'patch') ? 'patch' : undefined;
  if (program === undefined) return null;
  // Relative header paths are read as endings, as a path only known at run time is (`b/.gobby/…`, `.claude/settings.json`).
  const reaches = (path: string): boolean => (path.startsWith('/') ? isProtected(normalizeAbsolute(path), ground) : endsInGroundName(`/${path}`, ground, false));
  // The command's text, each word as a program receives it (`printf '%s\n' '+++ b/x' … | patch`), and the files it reads.
  const written = [command, ...shell.invocations.flatMap((invocation) => invocation.args)].flatMap(patchedPaths);
  // `git apply --directory=.claude`: every path is put below that folder, after -p took its leading folders off.
  const directories = shell.invocations.filter((invocation) => invocation.program === 'git').flatMap((invocation) => invocation.args.flatMap((arg, i) => (arg.startsWith('--directory=') ? [arg.slice('--directory='.length)] : arg === '--directory' && invocation.args[i + 1] !== undefined ? [invocation.args[i + 1]!] : [])));
  const below = (path: string): boolean => directories.some((directory) => path.split('/').some((_, i, segments) => reaches(`${directory.replace(/\/+$/, '')}/${segments.slice(i).join('/')}`)));
  const hit = [...written, ...(ground.patchedPaths ?? [])].find((path) => reaches(path) || below(path));
  return hit === undefined ? null : protectedFileDenial(hit, program);
}

/** Whether `path` ends in `name`, a name or a few (`.claude`, `x/.claude`, `x/.claude/settings.json`; not `my.claude`). */
function endsWithName(path: string, name: string): boolean {
  return path === name || path.endsWith(`/${name}`);
}

/** Longer words are not paths anyone writes; they are not tried as globs. */
const MAX_GLOB_TOKEN = 256;

/** `<glob>/**` (`rg x ~/.gob*`): everything below the folders the glob names, the file's among them. */
function globTreeHolds(path: string, file: string): boolean {
  if (!path.endsWith('/**')) return false;
  // `<glob>/**/**`: a tree read below each folder a walk found (`find ~/.g* -exec tar cf t.tar {} +`).
  let root = path;
  while (root.endsWith('/**')) root = root.slice(0, -3);
  if (!isGlob(root)) return false;
  for (let folder = file; folder.length > 1; folder = folder.slice(0, folder.lastIndexOf('/')) || '/') if (globMatches(root, folder)) return true;
  return false;
}

/** Whether `file` is below `folder` through a name that starts with a dot (`~/.gobby/token` below `~`). */
function dotNameBelow(folder: string, file: string): boolean {
  return file.slice(folder.length + 1).split('/').some((name) => name.startsWith('.'));
}

/**
 * Whether `text` holds `name` as a whole name or path, not inside a longer one: `.gobby/x` and
 * `env.GOBBY_HOME` do, `src/my.gobby.ts`, `src/managed-settings.json.ts` and `GOBBY_HOME_X` do not.
 */
function namesWhole(text: string, name: string): boolean {
  for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + 1)) {
    const before = text[at - 1];
    const after = text.slice(at + name.length, at + name.length + 2);
    // After an escape (`'x\n.gobby/…'`) a name starts a new line.
    if (before !== undefined && /\w/.test(before) && !(text[at - 2] === '\\' && /[ntr]/.test(before))) continue;
    // A name that goes on (`GOBBY_HOMES`, `.gobby-x`) or takes an extension (`.gobby.ts`) is another one.
    if (/^[\w-]|^\.\w/.test(after)) continue;
    return true;
  }
  return false;
}

/**
 * Text of code gobby cannot see into that names its ground: an override, one of gobby's file
 * names, the daemon's port, or its pid as a number of its own (`python3 -c 'os.kill(4711, 9)'`):
 * `anywhere` in code, or, in text that is mostly words and settings (an unknown program's
 * arguments, what a command writes before it runs the tests), only where the text signals or
 * attaches to a process: the pid is whatever number the system gave (`next dev -p 4711`, `port: 4711`).
 */
function codeTextNamingGround(texts: readonly string[], ground: ProtectedGround, code = 'code gobby cannot see into', pid: 'anywhere' | 'signalled' = 'anywhere'): GuardDenial | null {
  const override = texts.map(findOverrideCommand).find((found) => found !== null);
  if (override) return { kind: 'override', reason: override, because: 'guard: human-only override' };
  const named = ground.protectedNames?.find((name) => texts.some((text) => namesWhole(text, name)));
  if (named) return opaqueCodeNamingGround(named, code);
  if (ground.daemonPort !== undefined && texts.some((text) => mentionsNumber(text, ground.daemonPort!))) {
    return daemonNetworkDenial(code, `port ${ground.daemonPort}`);
  }
  // Beside a `:` the number is most likely a port (`-p 4711:5432`, `localhost:4711`), unless the code signals (`d={1:4711}; os.kill(d[1], 9)`).
  const namesPid = (text: string): boolean => ground.daemonPid !== undefined && ((pid === 'anywhere' && (mentionsPid(text, ground.daemonPid) || computesNumber(text, ground.daemonPid))) || (mentionsNumber(text, ground.daemonPid) && SIGNALS_A_PROCESS.test(text)));
  // Or the daemon by name, where the text signals (`os.system("pkill -f gobby")`, mlr's `system("killall node")`).
  // A search a killer in the text makes is tried on the daemon too (`os.system("pkill -f semi-space")`).
  // So is a string of the code that is part of the daemon's command line or its name (`b"main.js" in open(f"/proc/{d}/cmdline")`, `p.name()=="node"`).
  const namesDaemon = (text: string): boolean =>
    SIGNALS_A_PROCESS.test(text) && (NAMES_THE_DAEMON_PROCESS.test(text) || [...text.matchAll(KILLER_PATTERN)].some((match) => patternFindsTheDaemon(match[1]!, ground)) || quotesTheDaemon(text, ground));
  if (texts.some((text) => namesPid(text) || namesDaemon(text))) {
    return {
      kind: 'daemon-signal',
      reason: `gobby: this runs ${code} that names gobby's daemon (its pid, or its name where it signals processes); the agent may not stop or restart it. If the daemon misbehaves, tell the user.`,
      because: 'guard: signal to the daemon',
    };
  }
  return null;
}

/**
 * A program gobby does not know given the daemon's pid as a word of its own (`gcore 4711`,
 * `reptyr 4711`): most such programs attach to, dump or signal the process. Not as the value of a
 * port option, where the same number is a port (`next dev -p 4711`, `--port=4711`).
 */
function givenTheDaemonPid(invocations: readonly ShellInvocation[], ground: ProtectedGround): GuardDenial | null {
  const pid = ground.daemonPid;
  if (pid === undefined) return null;
  const given = invocations.find((invocation) =>
    ATTACHES_TO_PROCESSES.has(invocation.program)
      ? invocation.args.some((arg) => mentionsNumber(arg, pid))
      : invocation.args.some((arg, i) => (arg === String(pid) && !PORT_OPTION.test(invocation.args[i - 1] ?? '')) || PID_OPTION.exec(arg)?.[1] === String(pid)),
  );
  return given !== undefined
    ? { kind: 'daemon-signal', reason: `gobby: \`${given.program}\` is a program gobby does not know, and it is given the pid of gobby's daemon; the agent may not stop, attach to or restart it. If the daemon misbehaves, tell the user.`, because: 'guard: signal to the daemon' }
    : null;
}

/** Profilers, debuggers and tracers gobby has no entry for, whose `-p` is a pid: any number of the daemon's there is its pid (`py-spy dump -p 4711`). */
const ATTACHES_TO_PROCESSES = new Set(['perf', 'py-spy', 'frida', 'eu-stack', 'pstack', 'jstack', 'jcmd', 'jmap', 'jhsdb', 'rbspy', 'bpftrace', 'dtrace', 'async-profiler', 'asprof', 'memray', 'austin', 'pyrasite', 'gcore', 'reptyr', 'nsenter', 'pmap', 'criu']);

/** A pid option with its value attached: `--pid=4711`, `--pid 4711` is a word of its own. */
const PID_OPTION = /^--(?:pid|target-pid|attach)=(\d+)$/;

/** Options whose value is a port: `-p 3000`, `--port 3000`, `-l 3000` (serve), `-P`. */
const PORT_OPTION = /^(?:-[pPl]|--(?:port|listen|http-port|server-port))$/;

/**
 * What a command may have written, as text: the words of every program but those that run the
 * project's code (a commit message is not code) and those that never put their words into what
 * they write (LEAVES_ITS_WORDS_OUT), and with a here-document the whole command (its body).
 */
function writtenText(command: string, shell: ShellAnalysis): string[] {
  const runners = new Set(shell.effects.flatMap((effect) => (effect.kind === 'exec' || effect.kind === 'test_run' || effect.kind === 'package_install' || effect.kind === 'git' ? [effect.program.split(' ')[0]!] : [])));
  const others = shell.invocations.filter((invocation) => !runners.has(invocation.program));
  // Names mkdir makes are text once another program prints them (`mkdir 'x: ; …' && ls > Makefile`).
  const namesStayNames = !others.some((invocation) => PRINTS_NAMES.has(invocation.program));
  const texts = others.filter((invocation) => !leavesItsWordsOut(invocation) && !(namesStayNames && invocation.program === 'mkdir')).map((invocation) => invocation.args.join(' '));
  if (command.includes('<<')) texts.push(command);
  return texts;
}

/**
 * Programs whose words never become the text they print or write: paths they read, a pattern that
 * selects lines (`cat .claude/settings.json`, `grep -rn GOBBY_HOME src`). What they print is a
 * file's text, or the names of files that exist (`ls`), which the command does not choose by
 * writing it; a grep given `--label` and an `ls` given `--time-style` print those words, and
 * programs that print their words or formats (`stat -c`, `basename`, `echo`) are not here.
 */
const LEAVES_ITS_WORDS_OUT = new Set(['cat', 'ls', 'grep', 'egrep', 'fgrep', 'rg', 'head', 'tail', 'wc', 'chmod', 'cd', 'pwd', 'test', '[', 'which', 'sleep', 'true', 'false']);

/** Programs that print the names of files, which the command may have made. */
const PRINTS_NAMES = new Set(['ls', 'find', 'du', 'tree', 'stat', 'file', 'fd', 'fdfind', 'echo', 'printf']);

function leavesItsWordsOut(invocation: ShellInvocation): boolean {
  return LEAVES_ITS_WORDS_OUT.has(invocation.program) && !invocation.args.some((arg) => arg.startsWith('--label') || arg.startsWith('--time-style'));
}

/** Files no task runner runs: notes and logs (`echo '…' >> NOTES.md && npm test` names what it likes). */
const PROSE_FILE = /\.(?:md|markdown|txt|rst|adoc|log|csv)$/i;
/** Where git finds the hooks it runs when it commits, merges or checks out, and the config that names them (`core.hooksPath`, `core.fsmonitor`, aliases). */
const GIT_HOOKS = /\/\.git\/(?:.*\/)?(?:hooks\/|config(?:\.worktree)?$|commondir$|gitdir$)|\/\.husky\//;

/**
 * Whether the command writes a file and also runs code the project defines, which may be what it
 * wrote: a task or script (`make x`, `npm run build`), a test run, or a package install (its
 * lifecycle scripts) after any write but to prose; a git command that changes the repository
 * after a write into `.git/` or `.husky/` (its hooks). A commit message is not code.
 */
function runsWhatItMayHaveWritten(shell: ShellAnalysis): boolean {
  let code = false;
  let hooks = false;
  let runs = false;
  let commits = false;
  for (const effect of shell.effects) {
    if (effect.kind === 'write' || effect.kind === 'copy' || effect.kind === 'move') {
      const written = effect.kind === 'write' ? effect.path : effect.to;
      // A scratch file (`/tmp/fixture.json`, `mkdir -p /tmp/home/.gobby`) is none of the project's
      // tools' code, unless the command hands it to a program itself (`bash /tmp/x.sh`, `--require /tmp/x.js`).
      code ||= !PROSE_FILE.test(written.path) && (!SCRATCH_FOLDER.test(written.path) || handedOn(written.path, effect.program, shell));
      hooks ||= GIT_HOOKS.test(written.path);
    } else if (effect.kind === 'exec' || effect.kind === 'test_run' || effect.kind === 'package_install') runs = true;
    else if (effect.kind === 'git' && effect.changesFiles) commits = true;
  }
  return (code && runs) || (hooks && commits);
}

/** The system's scratch folders, which no project's tools load code from by themselves. */
const SCRATCH_FOLDER = /^\/(?:tmp|var\/tmp|dev\/shm)\//;

/** Whether a path the command writes is also read, or named to another program than its writer, in it. */
function handedOn(path: string, writer: string, shell: ShellAnalysis): boolean {
  const folder = path.replace(/\/\*\*$/, '');
  const below = (other: string): boolean => other === folder || other.startsWith(`${folder}/`) || folder.startsWith(`${other}/`);
  return shell.effects.some((effect) => effect.kind === 'read' && below(effect.path.path)) || shell.invocations.some((invocation) => invocation.program !== writer && invocation.args.some((arg) => arg.includes(folder)));
}

/** The runs of programs gobby does not know, or named at run time. */
function unknownInvocations(shell: ShellAnalysis): ShellInvocation[] {
  const unknown = new Set(shell.effects.flatMap((effect) => (effect.kind === 'exec' ? [effect.program.split(' ')[0]!] : [])));
  return unknown.size === 0 ? [] : shell.invocations.filter((invocation) => unknown.has(invocation.program) || invocation.nameAtRunTime === true);
}

/**
 * A secret file an argument names, as a path from the invocation's folder, after an option's `=`
 * or a response file's `@`, unless the word is only text the program prints or searches for.
 */
function secretNamedBy(invocation: ShellInvocation, ground: ProtectedGround, onlyText: (invocation: ShellInvocation, index: number) => boolean): string | undefined {
  for (const [index, arg] of invocation.args.entries()) {
    const value = arg.startsWith('-') && arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : arg.startsWith('@') ? arg.slice(1) : arg;
    if (value === '' || value.startsWith('-') || value.includes(' ')) continue;
    const path = resolveAgainst(invocation.cwd, value);
    const secret = ground.secretFiles.find((file) => path === file || namesByGlob(path, file));
    if (secret && !onlyText(invocation, index)) return secret;
  }
  return undefined;
}

/** How the classifier says code is a file's (`node runs the file \`x.js\``), not written in the command. */
const RUNS_A_FILE = /runs the file `/;

/** Programs whose operands are patterns matched against processes or their listing (`pgrep -f 'daemon/mai' | xargs kill`, `ps aux | grep …`). */
const SEARCHES_BY_PATTERN = new Set(['pgrep', 'pidof', 'grep', 'egrep', 'rg']);

/**
 * Whether a program of the command whose output a later part of it may read names the daemon,
 * or searches with a pattern that finds it. A search whose output only goes to the terminal
 * picks nothing for the command (`ps aux | grep node; kill $(lsof -ti:3000)`), and neither does a
 * `cd` (`cd ~/src/gobby && lsof -ti:3000 | xargs kill`) or a look-up of a program by its name
 * (`which node`, `command -v node`).
 */
function searchesForTheDaemon(shell: ShellAnalysis, ground: ProtectedGround, command: string): boolean {
  // `kill $(jq .pid ~/.go?by/d*.json)`: pids read from gobby's own files are the daemon's.
  return aSearchNamesTheDaemon(shell, ground) || readsGobbysFiles(shell, ground) || listsEveryProcess(shell, command);
}

/**
 * Whether a program of the command whose output a later part of it reads names the daemon or
 * searches with a pattern that finds it. A pattern that matches the daemon's command line where
 * another `node` process's would not picks it (`grep 'x\|main.js'`, `grep -- --expose-gc`); one
 * that matches any node process, or only the columns every row of a listing has (`grep node`,
 * `ss -ltnp | grep LISTEN | grep -o 'pid=[0-9]*'`), picks it unless another search or selection
 * of the command leaves it out (`ps aux | grep node | grep vite`, `ss -ltnp 'sport = :3000' | grep -o 'pid=[0-9]*'`).
 */
function aSearchNamesTheDaemon(shell: ShellAnalysis, ground: ProtectedGround, processSearchesOnly = false): boolean {
  const feeding = feedingInvocations(shell);
  const daemon = ground.daemonProcess;
  const own = daemon === undefined ? [] : [daemon.commandLine, ...daemon.names];
  // The daemon's rows in the listings the command makes, made once and only when a pattern is tried.
  let rows: readonly string[] | undefined;
  let rowsMatched = false;
  let leftOut = false;
  // A search keeps the daemon's row (`picks`), or all of it a generic pattern would keep, or leaves it out.
  const finds = (patterns: readonly (string | undefined)[], dialect: PatternDialect, inverted = false, filtersItsInput = true): boolean => {
    if (patterns.length === 0) return false;
    const matches = (lines: readonly string[]): boolean => patterns.some((pattern) => pattern === undefined || patternMatchesLines(pattern, dialect, lines));
    const matchesOwn = matches(own);
    if (inverted) {
      if (matchesOwn && filtersItsInput) leftOut = true;
      return false;
    }
    if (matchesOwn && !matches(ANY_NODE_PROCESS)) return true;
    if (matchesOwn || matches((rows ??= daemonRows(feeding, ground)))) rowsMatched = true;
    else if (filtersItsInput) leftOut = true;
    return false;
  };
  const named = feeding.some((invocation) => {
    const { program, args } = invocation;
    if (DIRECTORY_BUILTINS.has(program) || LOCATES_PROGRAMS.has(program)) return false;
    if (processSearchesOnly && !(FINDS_PROCESSES.has(program) || SEARCHES_BY_PATTERN.has(program) || FILTERS_BY_PROGRAM.has(program) || args.some((arg) => arg.includes('daemon.json')))) return false;
    if (args.some((arg) => namesTheDaemon(arg, ground, false))) return true;
    // `ps -C node`, `pidof node`: every node process, the daemon's among them.
    if (args.some((arg) => namesNode(arg))) rowsMatched = true;
    // grep's and rg's patterns in their dialect; pgrep's option values (`-P $$`, `-u dev`) are no patterns.
    const search = searchPatterns(invocation);
    if (search !== undefined && finds(search.patterns, search.dialect, search.inverted, search.filtersItsInput)) return true;
    if (program === 'pgrep' && finds(readPgrep(args).patterns, 'extended')) return true;
    if (FILTERS_BY_PROGRAM.has(program)) {
      const literals = filterLiterals(args);
      // A filter that may drop what it matches (`$2 != "bash"`, `/x/d`, `unless`) leaves nothing out gobby can tell.
      const excludes = args.some((arg) => EXCLUDES_WHAT_IT_MATCHES.test(arg));
      if (literals.some((literal) => namesTheDaemon(literal, ground, false))) return true;
      if (!excludes && finds(literals, filterDialect(invocation))) return true;
    }
    // A listing narrowed to other processes (`ss -ltnp 'sport = :3000'`, `ps -C vite`, `lsof -ti :3000`).
    if ((program === 'ss' && ssFilterLeavesOut(args, ground.daemonPort)) || (program === 'ps' && psSelectsFew(args) && !args.some(namesNode))) leftOut = true;
    if (program === 'lsof') {
      if (lsofListsTheDaemon(args, { port: ground.daemonPort, names: ground.daemonProcess?.names ?? ['node'] })) return true;
      leftOut = true;
    }
    return LISTS_BY_FILE.has(program) && args.some((arg) => !/^[-+]/.test(arg) && mayBeHeldByTheDaemon(resolveAgainst(invocation.cwd, arg), invocation.cwd, ground));
  });
  return named || (rowsMatched && !leftOut);
}

/**
 * Whether ss's filter keeps only sockets on ports other than the daemon's: each port it names by
 * equality, in decimal (`sport = :3000`, `dport eq :5432`), with no comparison, negation or `or`
 * that could take in others (`sport > :7000`, `sport != :22`).
 */
function ssFilterLeavesOut(args: readonly string[], daemonPort: number | undefined): boolean {
  const filter = args.filter((arg) => !arg.startsWith('-')).join(' ');
  if (filter === '' || /[<>!]|\b(?:gt|lt|ge|le|ne|or|not)\b/i.test(filter)) return false;
  const ports = [...filter.matchAll(/\b[sd]port\s*(?:==?|eq)\s*:?(\S+)/gi)].map((match) => match[1]!);
  return ports.length > 0 && ports.every((port) => /^\d+$/.test(port) && Number(port) !== daemonPort);
}

/** Listers that show every process unless a search narrows them (`top -b -n1 | awk …`, `pstree -p`). */
const LIST_EVERY_PROCESS = new Set(['pstree', 'top', 'htop', 'procs']);

/** Another node process's command line and name: a pattern that matches these too does not pick the daemon out. */
const ANY_NODE_PROCESS = ['/usr/bin/node /home/user/project/server.js', 'node'];

/** awk's, sed's and perl's ways of dropping what a pattern matches. */
const EXCLUDES_WHAT_IT_MATCHES = /!=|!~|!\s*\/|\/\s*d\b|\bunless\b|\bnext\b|!\s*\(/;

/** `node` as a whole word, also attached to an option or in a list (`ps -Cnode`, `-C node,bash`); not `node server.js`. */
function namesNode(arg: string): boolean {
  return arg.replace(/[[\]\\]/g, '').toLowerCase().replace(/^-[a-z]/, '').split(/[,=]/).includes('node');
}

/**
 * Whether the daemon may hold `path` open, so that `lsof -t PATH` or `fuser PATH` lists it:
 * gobby's files (`lsof -t ~/.gobby/gobby.db`), a folder above them (`lsof -t +D ~`), and whatever
 * lies outside the folder the command runs in and the scratch folders, where its executable, its
 * libraries and devices are (`lsof -t /usr/bin/node`, `lsof -t /dev/null`). A file of the project
 * is the project's (`lsof -t ./app.db | xargs kill`).
 */
function mayBeHeldByTheDaemon(path: string, cwd: string, ground: ProtectedGround): boolean {
  if (namesGround(path, ground) || holdsProtected(path, ground)) return true;
  return !(path === cwd || isBelow(path, cwd) || SCRATCH_FOLDERS.some((folder) => isBelow(path, folder)));
}

const SCRATCH_FOLDERS = ['/tmp', '/var/tmp', '/dev/shm'];

/** sed reads basic regular expressions unless told otherwise; awk and perl read extended ones. */
function filterDialect(invocation: ShellInvocation): PatternDialect {
  return invocation.program === 'sed' && !invocation.args.some((arg) => /^-[a-zA-Z]*[Er]|^--regexp-extended$/.test(arg)) ? 'basic' : 'extended';
}

/** Programs that list processes or who holds a file or port, whose output is pids (what `echo gobby | pbcopy` is not). */
const FINDS_PROCESSES = new Set(['ps', 'pgrep', 'pidof', 'lsof', 'fuser', 'ss', 'netstat', 'pstree', 'top', 'htop', 'procs']);

/** Programs whose words name programs to find on PATH or select, never processes. */
const LOCATES_PROGRAMS = new Set(['which', 'type', 'whereis', 'hash', 'nvm']);

/**
 * The invocations whose output a later part of the command may read: in a substitution, before a
 * pipe, redirected, under `nohup` (ShellInvocation.outputShown says which do not).
 */
function feedingInvocations(shell: ShellAnalysis): readonly ShellInvocation[] {
  return shell.invocations.filter((invocation) => invocation.outputShown !== true);
}

/**
 * Programs that pick lines by a program of their own (`ps -eo pid,comm | awk '$2=="node"{print
 * $1}'`): their strings and regular expressions are tried as patterns against the daemon. One
 * with none picks nothing out (`awk '{print $2}'`): what it prints is what it was given.
 */
const FILTERS_BY_PROGRAM = new Set(['awk', 'gawk', 'mawk', 'nawk', 'sed', 'perl']);

function filterLiterals(args: readonly string[]): string[] {
  // The program is the first operand (`awk '{print $2}' /tmp/p`: the file after it is no pattern), or the values of `-e`.
  const code = [args.find((arg) => !arg.startsWith('-')) ?? '', ...args.flatMap((arg, i) => (arg === '-e' || arg === '--expression' ? [args[i + 1] ?? ''] : []))].join('\n');
  return [...code.matchAll(/"((?:[^"\\]|\\.)*)"|\/((?:[^/\\\n]|\\.)+)\//g)].map((match) => match[1] ?? match[2] ?? '').filter((literal) => literal !== '');
}

/** Programs that list the processes holding the files they are given. */
const LISTS_BY_FILE = new Set(['lsof', 'fuser']);

function readsGobbysFiles(shell: ShellAnalysis, ground: ProtectedGround): boolean {
  return shell.effects.some((effect) => effect.kind === 'read' && namesGround(effect.path.path, ground));
}

/** One of gobby's files or folders, or a glob that reaches one. */
function namesGround(path: string, ground: ProtectedGround): boolean {
  return isProtected(path, ground) || (isGlob(path) && globReaches(path, ground, false));
}

/**
 * `ps -eo pid | tail -n +2 | xargs kill`: a listing of every process, with no search of the
 * command to narrow it, reaches the daemon (`ps -C vite`, `ps -p 42` and a grep narrow it).
 */
function listsEveryProcess(shell: ShellAnalysis, command: string): boolean {
  const feeding = feedingInvocations(shell);
  // `ls /proc | grep -E '^[0-9]+$'`: the pids of every process, and a pattern that keeps them all.
  if (feeding.some((invocation) => (invocation.program === 'ls' || invocation.program === 'find') && invocation.args.some((arg) => resolveAgainst(invocation.cwd, arg) === '/proc'))) return true;
  // `for p in /proc/[0-9]*; do kill ${p#/proc/}; done`: a glob over every process's folder.
  if (PROC_GLOB.test(command)) return true;
  // An inverted search keeps what it does not match (`grep -v grep`): it narrows nothing; nor does a search of files
  // (`V=$(grep -c vite package.json)`), or a filter that may drop what it matches (`awk '$2 != "bash"'`).
  const narrows = (invocation: ShellInvocation): boolean => {
    const search = searchPatterns(invocation);
    if (search !== undefined) return !search.inverted && search.filtersItsInput;
    if (SEARCHES_BY_PATTERN.has(invocation.program)) return !invocation.args.some((arg) => /^-[a-zA-Z]*v|^--invert/.test(arg));
    return FILTERS_BY_PROGRAM.has(invocation.program) && filterLiterals(invocation.args).length > 0 && !invocation.args.some((arg) => EXCLUDES_WHAT_IT_MATCHES.test(arg));
  };
  const narrowed = feeding.some(narrows);
  if (feeding.some((invocation) => invocation.program === 'pgrep' && pgrepSelectsWidely(invocation.args))) return true;
  // `netstat -tlnp | awk 'NR>2{print $7}' | cut -d/ -f1 | xargs kill`: every listener's pid, the daemon's among them; ss's filter words narrow it (`ss -ltnp 'sport = :3000'`).
  const listsListeners = (invocation: ShellInvocation): boolean => invocation.program === 'netstat' || (invocation.program === 'ss' && invocation.args.every((arg) => arg.startsWith('-')));
  return !narrowed && feeding.some((invocation) => (invocation.program === 'ps' && !psSelectsFew(invocation.args)) || listsListeners(invocation) || LIST_EVERY_PROCESS.has(invocation.program));
}

/** pgrep's options that take a value (procps-ng), short and long. */
const PGREP_VALUE_SHORT = 'dgGPsStuUFOr';
const PGREP_VALUE_LONG = new Set(['--delimiter', '--pgroup', '--group', '--parent', '--session', '--terminal', '--euid', '--uid', '--pidfile', '--older', '--ns', '--nslist', '--runstates', '--cgroup', '--signal', '--env']);

/**
 * `pgrep -u dev`, `pgrep -G staff`, `pgrep -P 1`, `pgrep -v bash`: a search with no pattern picks
 * every process its options select (every process of the user, the daemon's among them), and an
 * inverted one every process it does not match. A pattern (`pgrep -u dev vitest`), or the children
 * of a process other than init (`pgrep -P $$`), narrows it; a pattern naming the daemon is judged
 * by searchesForTheDaemon.
 */
function pgrepSelectsWidely(args: readonly string[]): boolean {
  const search = readPgrep(args);
  return search.inverted || (search.wide && search.patterns.length === 0);
}

/** pgrep's patterns (its operands, not its options' values), and whether its options select widely or invert the match. */
function readPgrep(args: readonly string[]): { readonly patterns: readonly string[]; readonly wide: boolean; readonly inverted: boolean } {
  const patterns: string[] = [];
  let wide = false;
  let inverted = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      patterns.push(...args.slice(i + 1));
      break;
    }
    let name: string | undefined;
    let value: string | undefined;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      name = eq === -1 ? arg : arg.slice(0, eq);
      if (name === '--inverse') inverted = true;
      if (!PGREP_VALUE_LONG.has(name)) continue;
      value = eq === -1 ? args[++i] : arg.slice(eq + 1);
    } else if (arg.startsWith('-') && arg.length > 1) {
      // A cluster of flags ends at the first letter that takes a value (`-lu dev`, `-udev`).
      const letters = arg.slice(1);
      const at = [...letters].findIndex((letter) => PGREP_VALUE_SHORT.includes(letter));
      if (letters.slice(0, at === -1 ? undefined : at).includes('v')) inverted = true;
      if (at === -1) continue;
      name = `-${letters[at]}`;
      value = letters.length > at + 1 ? letters.slice(at + 1) : args[++i];
    } else {
      patterns.push(arg);
      continue;
    }
    // `--env NAME=VALUE` narrows only by what the daemon's environment may hold as well (`--env HOME=/home/dev`): wide.
    if (name === '-d' || name === '--delimiter' || name === '--signal') continue;
    if ((name === '-P' || name === '--parent') && value !== undefined && value.split(',').every((parent) => parent !== '1' && parent !== '0')) continue;
    wide = true;
  }
  return { patterns, wide, inverted };
}

/** `ps -C vite`, `ps -p 42`, `ps --ppid 4100`: a selection by name or pid. Orphans (`--ppid 1`), which a detached daemon is, are not few. */
function psSelectsFew(args: readonly string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (/^-[a-zA-Z]*[Cpq]|^--(?:pid|quick-pid)/.test(arg)) return true;
    const parent = arg === '--ppid' ? args[i + 1] : arg.startsWith('--ppid=') ? arg.slice('--ppid='.length) : undefined;
    if (parent !== undefined && parent !== '1') return true;
  }
  return false;
}

/** A glob over `/proc`'s process folders (`/proc/[0-9]*`, `/proc/*`). */
const PROC_GLOB = /\/proc\/(?:\*|\[[^\]/]*\]|\?)/;

/**
 * Whether a process-search pattern (an extended regular expression, as `pkill`, `pgrep -f` and
 * `killall -r` take) matches the daemon's name or command line. Case is ignored (`-i` is one
 * letter away). A pattern JavaScript cannot read is taken to match (gobby cannot tell), and so is
 * one that could take exponential or high-polynomial time to try (process-search.ts): the
 * agent's pattern must not be able to stall the daemon.
 */
function patternFindsTheDaemon(pattern: string, ground: ProtectedGround): boolean {
  const daemon = ground.daemonProcess;
  return daemon !== undefined && patternMatchesLines(pattern, 'extended', [daemon.commandLine, ...daemon.names]);
}

/** An argument that picks out the daemon's process: its name, its state file, its port, or `node` (which it runs as). */
function namesTheDaemon(arg: string, ground: ProtectedGround, nodeCounts = true): boolean {
  // A search pattern written so it does not find itself (`grep '[g]obby'`, `[[=g=]]obby`) still names it, in any case (`killall -I NODE`).
  const plain = arg.replace(/\[[=.]|[=.]\]/g, '').replace(/[[\]\\]/g, '').toLowerCase();
  return (
    /gobby|daemon\.json|daemon\/main/.test(plain) ||
    (nodeCounts && namesNode(arg)) ||
    (ground.daemonPort !== undefined && mentionsNumber(plain, ground.daemonPort)) ||
    (ground.daemonPid !== undefined && mentionsPid(plain, ground.daemonPid))
  );
}

/** `command`: the whole command, for what a single effect does not say (a config file it points rg at). */
function checkShellEffect(effect: ShellEffect, ground: ProtectedGround, command: string, invocations: readonly ShellInvocation[] = []): GuardDenial | null {
  switch (effect.kind) {
    case 'read': {
      // `ls -l ~/.gobby/*`, `stat ~/.gobby/token`, `test -f …`: a file's name and metadata, not what it holds.
      if (METADATA_READERS.has(effect.program)) return null;
      const secret = ground.secretFiles.find((file) => effect.path.path === file || mentionsPath(effect.path.path, file) || namesByGlob(effect.path.path, file) || endNamesFile(effect.path, file));
      if (secret) return secretDenial(secret);
      if (readsTheDaemonProcess(effect.path.path, ground)) return daemonProcessDenial(effect.path.path);
      // `rg x ~`: rg leaves out dot names, so it never reaches `~/.gobby/token`; `grep -r x ~` does.
      // (A tree under a glob, `rg x ~/.gob*`, or a command that points rg at a config file of its choosing, does not count.)
      const leavesOutDotNames = effect.path.skipsDotNames === true && !isGlob(effect.path.path.slice(0, -3)) && !command.includes('RIPGREP_CONFIG_PATH');
      const inTree = ground.secretFiles.find(
        (file) => ((treeHolds(effect.path.path, file) && !(leavesOutDotNames && dotNameBelow(effect.path.path.slice(0, -3), file))) || globTreeHolds(effect.path.path, file)) && !walksPast(invocations, effect.program, effect.path.path.slice(0, -3) || '/', file),
      );
      return inTree ? secretInTreeDenial(inTree, effect.path.path.slice(0, -3) || '/', effect.program) : null;
    }
    case 'write':
      return throughTheDaemonProcess(effect.path, ground) ?? changes(effect.path, ground, effect.program);
    case 'delete':
      return throughTheDaemonProcess(effect.path, ground) ?? removes(effect.path, ground, effect.program);
    case 'move':
      return throughTheDaemonProcess(effect.from, ground) ?? throughTheDaemonProcess(effect.to, ground) ?? removes(effect.from, ground, effect.program) ?? lands(effect.to, effect.from, ground, effect.program);
    case 'copy': {
      // Copying a folder that holds the token copies the token (`cp -r ~/.gobby /tmp/x`, `rsync -a`), also through a glob (`cp -r ~/.g* /tmp/h`).
      const from = effect.from.path;
      const secret = ground.secretFiles.find(
        (file) => from === file || namesByGlob(from, file) || endNamesFile(effect.from, file) || isBelow(file, from) || (isGlob(from) && folderAbove(file, (folder) => globMatches(from, folder))) || globTreeHolds(from, file) || endNamesFolderOf(effect.from, file),
      );
      return secret ? secretDenial(secret) : (throughTheDaemonProcess(effect.to, ground) ?? lands(effect.to, effect.from, ground, effect.program));
    }
    case 'signal': {
      // A pid only known at run time that a file the command reads holds (`kill $(cat /tmp/p)` after `pgrep -f gobby > /tmp/p`).
      const atRunTime = ground.daemonPid !== undefined && signalsPidFoundAtRunTime(effect);
      const pidFile = atRunTime ? fileHoldingPid(ground, ground.daemonPid!) : undefined;
      // `seq 4000 5000 | xargs kill`: the numbers another program of the command prints.
      const seqRange = atRunTime && invocations.some((invocation) => invocation.program === 'seq' && rangeHolds(`seq ${invocation.args.join(' ')}`, ground.daemonPid!));
      if (!signalsTheDaemon(effect.target, effect.by, ground) && pidFile === undefined && !seqRange) return null;
      return {
        kind: 'daemon-signal',
        reason: `gobby: \`${effect.program}\` would signal gobby's daemon (${effect.by} ${effect.target}${pidFile === undefined ? '' : `, and ${pidFile} holds its pid`}); the agent may not stop or restart it. If the daemon misbehaves, tell the user.`,
        because: 'guard: signal to the daemon',
      };
    }
    case 'network':
      return reachesTheDaemon(effect, ground) ? daemonNetworkDenial(`\`${effect.program}\``, effect.target) : null;
    case 'nested_claude': {
      if (effect.config !== undefined) {
        return {
          kind: 'nested-claude',
          reason: `gobby: \`claude config ${effect.config}\` changes Claude Code's settings, which hold the hooks that keep this session to its workflow; the agent may not change them. Ask the user to.`,
          because: 'guard: claude settings changed',
        };
      }
      if (effect.asUser !== undefined) {
        return {
          kind: 'nested-claude',
          reason: `gobby: a Claude Code run through \`${effect.asUser}\` runs as another user, with that user's settings and without the hooks that may hold this session to its workflow; the agent may not run it.`,
          because: 'guard: nested claude without hooks',
        };
      }
      if (effect.outside !== undefined) {
        return {
          kind: 'nested-claude',
          reason: `gobby: a Claude Code started in ${effect.outside}, not the project's root folder, loads that folder's project settings only (Claude Code does not look in the folders above), without the hooks that may hold this session to its workflow; the agent may not run it there. Start it from the project's root folder.`,
          because: 'guard: nested claude without hooks',
        };
      }
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

/**
 * An effect on a path only known at run time, judged as the shell may make it: each run-time part
 * empty, as an unset variable or `$@` is (`cat ~/.gobby/tok${u}en`, `rm -rf .cl${x}aude`), and for
 * what is read, written or copied, each run-time part as any name (`cat ~/.gobby/$f`, `echo {} >
 * .claude/$f`). A delete or the source of a move is widened so only in one of gobby's folders
 * (`rm .claude/$f`): elsewhere, `rm -rf "build/$d"` of a name found at run time is ordinary work.
 */
function asItMayBeAtRunTime(effect: ShellEffect, ground: ProtectedGround, command: string): GuardDenial | null {
  const renderings = (ref: PathRef, asAnyName: boolean): PathRef[] => {
    // From each other folder the shell may be in: `if …; then cd ~/.gobby; fi; cat token`.
    if (ref.unplaced === true) return ref.elsewhere?.map((path) => fromElsewhere(ref, path)) ?? [];
    if (!ref.dynamic) return [];
    const empty = withRunTimePartsEmpty(ref.path);
    const out: PathRef[] = empty === undefined ? [] : [{ path: normalizeAbsolute(empty), dynamic: true }];
    if (asAnyName) for (const glob of runTimePartsAsGlobs(ref.path)) out.push({ path: glob, dynamic: true });
    return out;
  };
  const first = (effects: readonly ShellEffect[]): GuardDenial | null => {
    for (const each of effects) {
      const denial = checkShellEffect(each, ground, command);
      if (denial) return denial;
    }
    return null;
  };
  switch (effect.kind) {
    case 'read':
    case 'write':
      return first(renderings(effect.path, true).map((path) => ({ ...effect, path })));
    case 'delete':
      // In one of gobby's folders (`rm .claude/$f`, `rm ~/.gobby/$f`) any name may be gobby's file.
      return first(renderings(effect.path, inGroundFolder(effect.path.path, ground)).map((path) => ({ ...effect, path })));
    case 'copy':
    case 'move':
      return first([...renderings(effect.from, effect.kind === 'copy' || inGroundFolder(effect.from.path, ground)).map((from) => ({ ...effect, from })), ...renderings(effect.to, true).map((to) => ({ ...effect, to }))]);
    default:
      return null;
  }
}

/** `ref` as it is from another folder the shell may be in: a folder's tree is placed there; a file may still be elsewhere. */
function fromElsewhere(ref: PathRef, path: string): PathRef {
  const { elsewhere: _others, unplaced: _unplaced, ...rest } = ref;
  return path.endsWith('/**') ? { ...rest, path } : { ...rest, path, unplaced: true };
}

/** Whether the folder a run-time part of `path` sits in is gobby's, or holds gobby's files directly (`.claude/`). */
function inGroundFolder(path: string, ground: ProtectedGround): boolean {
  const at = path.search(/[$`]/);
  if (at <= 0) return false;
  const folder = path.slice(0, path.lastIndexOf('/', at)) || '/';
  return isProtected(folder, ground) || (ground.protectedFolders ?? []).includes(folder);
}

/** Variables that move where Claude Code reads its user settings, or start it without hooks. */
const CLAUDE_SETTINGS_VARIABLE = `(CLAUDE_CONFIG_DIR|HOME|${[...HOOKLESS_CLAUDE_VARIABLES].join('|')})`;
/**
 * A command that sets one of them, anywhere and in any of bash's ways: an assignment (`HOME=…`,
 * `HOME+=…`, `export`/`declare`/`local`), `printf -v`, `read`, `mapfile`, `getopts`, a `for` loop's
 * variable, a nameref (`declare -n h=HOME; h=/tmp`).
 */
const RELOCATES_CLAUDE_SETTINGS = new RegExp(
  [
    `(?:^|[\\s;&|(\`'"])(?:(?:export|declare|typeset|local|readonly)\\s+(?:-\\w+\\s+)*|env\\s+(?:-\\S+\\s+)*)?${CLAUDE_SETTINGS_VARIABLE}\\+?=`,
    `\\bprintf\\s+(?:-\\S+\\s+)*-v\\s*${CLAUDE_SETTINGS_VARIABLE}\\b`,
    `\\b(?:read|mapfile|readarray)\\b[^;&|\\n]*\\s${CLAUDE_SETTINGS_VARIABLE}\\b`,
    `\\bgetopts\\s+\\S+\\s+${CLAUDE_SETTINGS_VARIABLE}\\b`,
    `\\bfor\\s+${CLAUDE_SETTINGS_VARIABLE}\\s+in\\b`,
    `\\b(?:declare|typeset|local)\\s+-\\w*n\\w*\\s+\\w+=${CLAUDE_SETTINGS_VARIABLE}\\b`,
  ].join('|'),
);
/**
 * `env -i` (also `-iv`, `--ignore-env…`), `env -`, `env -u HOME`, `env --unset=HOME`, `exec -c`,
 * `unset HOME`: the environment a nested Claude Code finds its home by, emptied.
 */
const CLEARS_HOME =
  /(?:^|[\s;&|(`])(?:env\s+(?:-[^\s-]*\s+)*(?:-[a-zA-Z]*i[a-zA-Z]*\b|--i[\w-]*|-(?=\s)|-u\s*HOME\b|--u[\w-]*[=\s]HOME\b)|exec\s+(?:-\w+\s+)*-[a-zA-Z]*c|unset\s+(?:-\w+\s+)*(?:\w+\s+)*HOME\b)/;

/** MCP tools whose name says they move, rename or delete what their paths name. */
const MCP_REMOVING_WORDS = new Set(['move', 'rename', 'delete', 'remove', 'rm', 'trash', 'unlink']);


/**
 * Flags that start a Claude Code whose hooks or settings are not the ones gobby installed;
 * `--worktree` starts it in a new git worktree, without the untracked `settings.local.json`
 * where `gobby install` puts the hooks.
 */
const HOOK_DROPPING_FLAGS = new Set(['--bare', '--safe-mode', '--settings', '--setting-sources', '--restricted', '--worktree', '-w']);

/** `orAbove`: a glob that names a folder above a protected file counts too (a delete or a move away). */
function changes(path: PathRef, ground: ProtectedGround, program: string, orAbove = false): GuardDenial | null {
  const secret = ground.secretFiles.find((file) => path.path === file || namesByGlob(path.path, file) || endNamesFile(path, file));
  if (secret) return secretDenial(secret);
  // A folder above gobby's files whose mode or owner changes (`chmod 000 ~`, `chmod -R 644 .`, `chown -R x ~`) takes them along.
  if (path.takesAccess === true) {
    const folder = path.path.endsWith('/**') ? path.path.slice(0, -'/**'.length) || '/' : path.path;
    if (isGlob(folder) ? globReaches(folder, ground, true) : holdsProtected(folder, ground)) return accessTakenDenial(folder, program);
  }
  if (isGlob(path.path)) {
    if (globReaches(path.path, ground, orAbove, path.except)) return protectedFileDenial(path.path, program);
    // After a part only known at run time (`$D/.gob*`, `${PWD%/*}/.gobby`), what is written of its end.
    return path.dynamic && knownEnd(path.path) !== undefined && endsInGroundName(path.path, ground, orAbove) ? protectedFileDenial(path.path, program) : null;
  }
  if (path.path.endsWith('/**')) {
    if (treeReaches(path.path, ground)) return protectedFileDenial(path.path, program);
    // Unpacked or copied in under names the data chooses (`tar -xf x.tar` in the project, `cp -r x/. ~`): gobby's files may be among them.
    const folder = path.path.slice(0, -'/**'.length) || '/';
    return path.namedByData === true && holdsProtected(folder, ground) ? filesNamedByDataDenial(folder, program) : null;
  }
  // A dynamic path is checked as rendered too: `${F:-.claude/settings.json}` most likely is that
  // file, and one behind a `cd` that may not have run most likely is where the cd was going.
  if (isProtected(path.path, ground)) return protectedFileDenial(path.path, program);
  // Only its end is written (`$OLDPWD/.claude`, `$D/.gobby/gobby.db`): gobby's names there are gobby's files.
  return path.dynamic && endsInGroundName(path.path, ground, orAbove) ? protectedFileDenial(path.path, program) : null;
}

/** A path whose start is only known at run time and whose written end names `file` by its folder and name (`cat $D/.gob?y/tok*`). */
function endNamesFile(path: PathRef, file: string): boolean {
  const end = path.dynamic ? knownEnd(path.path) : undefined;
  return end !== undefined && knownEndNames(end, file.split('/').slice(-2).join('/'), false);
}

/** The same for the folder that holds the file (`cp -r $X/.gobby /tmp/t` copies `~/.gobby/token`). */
function endNamesFolderOf(path: PathRef, file: string): boolean {
  const end = path.dynamic ? knownEnd(path.path) : undefined;
  return end !== undefined && knownEndNames(end, file.split('/').slice(-2, -1).join('/'), false);
}

/**
 * Whether a path known only at run time ends in the name of one of gobby's files or folders as it
 * sits in a project or a home (`.claude/settings.json`, `.gobby`, and `.claude` itself when
 * `orAbove`), or goes on below `.gobby`.
 */
function endsInGroundName(path: string, ground: ProtectedGround, orAbove: boolean): boolean {
  // Only what follows the last run-time part is known (`${PWD%/*}/.gobby`: the `*` in it is no glob).
  const end = knownEnd(path);
  const folderNames = orAbove ? (ground.protectedFolders ?? []).map((folder) => folder.slice(folder.lastIndexOf('/') + 1)) : [];
  // A protected name covers everything below it; a folder that only holds protected files (`.claude`) is itself the name.
  if (end === undefined) return groundNames(ground).some((name) => endsWithName(path, name) || path.includes(`/${name}/`)) || folderNames.some((name) => endsWithName(path, name));
  return groundNames(ground).some((name) => knownEndNames(end, name, true)) || folderNames.some((name) => knownEndNames(end, name, false));
}

/** The protected paths' names as they end any project or home: `.claude/settings.json`, `.gobby`. */
function groundNames(ground: ProtectedGround): string[] {
  const names: string[] = [];
  for (const protectedPath of ground.protectedPaths ?? []) {
    const segments = protectedPath.split('/');
    const name = segments[segments.length - 1]!;
    const parent = segments[segments.length - 2] ?? '';
    if (parent.startsWith('.') || parent === 'node_modules') names.push(`${parent}/${name}`);
    else if (name.startsWith('.')) names.push(name);
  }
  return names;
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
 * Onto a folder that holds protected files among files of its own (`.claude`) that does not exist
 * yet, it becomes that folder (ProtectedGround.existingFolders).
 * A name the shell expands (`cp /tmp/*.json .claude/`) lands as every name it may match, and a
 * name only known at run time (`cp "$f" .claude/`) may be any name in a folder of gobby's.
 */
function lands(to: PathRef, from: PathRef, ground: ProtectedGround, program: string): GuardDenial | null {
  const direct = changes(to, ground, program);
  if (direct) return direct;
  // Into a folder the shell expands (`cd .c* && cp /tmp/x/* .`, `cp x ~/.g*`): into each of gobby's
  // folders it may name. A glob names only what exists, so a `.claude` yet to be made is not one.
  if (isGlob(to.path)) {
    const folders = [...(ground.existingFolders ?? []), ...(ground.protectedPaths ?? [])].filter((folder) => globMatches(to.path, folder));
    for (const folder of folders) {
      const denial = lands({ path: folder, dynamic: false }, from, ground, program);
      if (denial) return denial;
    }
    return null;
  }
  if (to.dynamic) return null;
  // Onto a `.claude` that does not exist, a copy, move or symbolic link becomes it, settings and all.
  if ((ground.protectedFolders ?? []).includes(to.path) && !(ground.existingFolders ?? []).includes(to.path)) return becomesFolderDenial(to.path, program);
  if (!holdsProtected(to.path, ground)) return null;
  const name = from.path.slice(from.path.lastIndexOf('/') + 1);
  const landed = to.path === '/' ? `/${name}` : `${to.path}/${name}`;
  if (isGlob(name)) return globReaches(landed, ground, true) ? protectedFileDenial(landed, program) : null;
  if (from.dynamic) return (ground.protectedFolders ?? []).includes(to.path) ? protectedFileDenial(landed, program) : null;
  return isProtected(landed, ground) || holdsProtected(landed, ground) ? protectedFileDenial(landed, program) : null;
}

function signalsTheDaemon(target: string, by: string, ground: ProtectedGround): boolean {
  if (by === 'port') return ground.daemonPort !== undefined && Number.parseInt(target, 10) === ground.daemonPort;
  // -1 is every process the user may signal; -PID the process group the daemon leads.
  if (by === 'pid') {
    if (target.startsWith('-1 (')) return true; // every process of a user, every child, whoever uses a file
    // kill reads `0042`, `+42` and ` 42 ` as 42.
    const number = target.trim().replace(/^\+/, '');
    // `kill {4000..5000}`, `kill $(seq 4000 5000)`: a range of pids that holds the daemon's.
    if (ground.daemonPid !== undefined && rangeHolds(target, ground.daemonPid)) return true;
    if (!/^-?\d+$/.test(number)) return namesTheDaemon(target, ground); // `$(cat ~/.gobby/daemon.json …)`
    const pid = Number(number);
    return pid === -1 || (ground.daemonPid !== undefined && Math.abs(pid) === ground.daemonPid);
  }
  // `pkill node` or `killall node` would take the daemon down with everything else.
  if (by === 'pattern') return namesTheDaemon(target, ground) || patternFindsTheDaemon(target, ground);
  return by === 'name' && namesTheDaemon(target, ground);
}

/**
 * Whether a pid target is a range of numbers that holds `pid`: a brace range bash expands
 * (`{4000..5000}`, `{4000..5000..2}`), or what `seq` prints into it (`$(seq 4000 5000)`).
 */
function rangeHolds(target: string, pid: number): boolean {
  const holds = (first: number, last: number, step = 1): boolean => {
    const [low, high] = first <= last ? [first, last] : [last, first];
    return pid >= low && pid <= high && (Math.abs(step) <= 1 || (pid - first) % step === 0);
  };
  for (const range of target.matchAll(/\{(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?\}/g)) if (holds(Number(range[1]), Number(range[2]), range[3] === undefined ? 1 : Number(range[3]))) return true;
  for (const seq of target.matchAll(/\bseq\s+(?:-[a-z]\s+\S+\s+)*(-?\d+)(?:\s+(-?\d+))?(?:\s+(-?\d+))?/g)) {
    const numbers = [seq[1], seq[2], seq[3]].filter((n): n is string => n !== undefined).map(Number);
    // seq LAST, seq FIRST LAST, seq FIRST STEP LAST.
    if (numbers.length === 1 ? holds(1, numbers[0]!) : numbers.length === 2 ? holds(numbers[0]!, numbers[1]!) : holds(numbers[0]!, numbers[2]!, numbers[1]!)) return true;
  }
  return false;
}

function reachesTheDaemon(effect: Extract<ShellEffect, { kind: 'network' }>, ground: ProtectedGround): boolean {
  if (ground.daemonPort === undefined) return false;
  // On the daemon's own port any host may be this machine: public DNS names resolve to loopback
  // too (`localtest.me`, `lvh.me`, `127.0.0.1.nip.io`), and a Host header sent along passes the
  // daemon's own check. A service of another machine on exactly this port is rare enough to ask for.
  if (effect.port === ground.daemonPort) return true;
  return effect.anyPort === true && (effect.host === undefined || !isPublicName(effect.host));
}

/**
 * A port only known at run time, on a host that may be this machine, in a command that reads
 * gobby's own files (`curl localhost:$(jq .port ~/.gobby/daemon.json)`, `P=$(grep -o … <
 * ~/.gobby/daemon.json); nc 127.1 $P`), whatever the host is called (`lvh.me` is loopback too): the
 * port is most likely the daemon's. Without such a read, `curl localhost:$PORT/health` is a dev server's.
 */
function daemonPortFoundAtRunTime(command: string, shell: ShellAnalysis, ground: ProtectedGround): GuardDenial | null {
  if (ground.daemonPort === undefined) return null;
  // A port, or a whole address, only known at run time (`curl "$(printf 'http://127.0.0.1:%d/' 7377)"`).
  const network = shell.effects.find((effect): effect is Extract<ShellEffect, { kind: 'network' }> => effect.kind === 'network' && effect.port === undefined && (RUN_TIME_PORT.test(effect.target) || /^[$`]|^"[$`]/.test(effect.target)));
  if (network === undefined) return null;
  const readsGround = shell.effects.some((effect) => effect.kind === 'read' && isProtected(effect.path.path, ground));
  // `curl localhost:$GOBBY_PORT/…`: the variable that names the daemon's port; or a value the shell
  // makes of the port as the command writes it (`printf -v P %d 7377; curl localhost:$P`, `$(seq 7377 7377)`).
  const portInText = mentionsNumber(command, ground.daemonPort) || computesNumber(command, ground.daemonPort);
  return readsGround || portInText || NAMES_GOBBY_PORT.test(network.target) ? daemonNetworkDenial(`\`${network.program}\``, network.target) : null;
}

const NAMES_GOBBY_PORT = /\$\{?GOBBY_PORT\b/;

/** A target whose port is only known at run time: `localhost:$P`, `http://127.1:$(…)/x`, `[::1]:\`…\``, or a port given apart (`nc 127.1 $P`). */
const RUN_TIME_PORT = /^(?:[a-z][a-z0-9+.-]*:\/\/)?(?:[^@/\s]*@)?(?:\[[^\]]*\]|[^:/\s]*)(?::|\s+)[^/\s]*[$`]/i;

/** The text a file tool writes: Write's content, Edit's new string, MultiEdit's, a notebook cell's source. */
function writtenTexts(input: Readonly<Record<string, unknown>>): string[] {
  const texts = [input['content'], input['new_string'], input['new_source']].filter((text): text is string => typeof text === 'string');
  const edits = input['edits'];
  if (Array.isArray(edits)) for (const edit of edits) if (typeof (edit as { new_string?: unknown })?.new_string === 'string') texts.push((edit as { new_string: string }).new_string);
  return texts;
}

/**
 * A deny reason when the text of a shell command would run a human-only gobby command. Kept
 * for callers without a parsed command; the guard itself judges the parsed invocations.
 * Linear in the command's length: each segment is searched once for the program and once,
 * after it, for the override's words.
 */
export function findOverrideCommand(command: string): string | null {
  const words = overrideWords(command);
  return words === null ? null : overrideDenial(words).reason;
}

/** The override's words in `text` (`gobby workflow reset`), shortened for a reason; null when it has none. */
function overrideWords(text: string): string | null {
  for (const segment of text.split(SHELL_SEGMENT_SEPARATOR)) {
    const program = GOBBY_PROGRAM.exec(segment);
    if (!program) continue;
    const rest = segment.slice(program.index + program[0].length);
    const words = OVERRIDE_WORDS.exec(rest);
    if (!words) continue;
    const matched = segment.slice(program.index, program.index + program[0].length + words.index + words[0].length).trim();
    return matched.length > QUOTED_COMMAND_LIMIT ? `…${matched.slice(-QUOTED_COMMAND_LIMIT)}` : matched;
  }
  return null;
}

// `gobby` also right after a C-style escape in code (`system("\ngobby …")`), where no word boundary is;
// or gobby's CLI script by its place in the package (`dist/daemon/cli/main.js`), not any project's `cli/main.js`.
const GOBBY_PROGRAM = /(?:\b|(?<=\\[a-z]))gobby\b|\bdaemon\/cli\/(?:main|program)\.[cm]?[jt]s\b/;
// Words apart as argv lists spell them too (`['gobby', 'workflow', 'reset']`).
const OVERRIDE_WORDS = /\b(?:workflow[\s'",]+(?:phase|reset|disable|enable|clear|set)|uninstall|install|setup|daemon[\s'",]+(?:stop|start|restart))\b/;
const SHELL_SEGMENT_SEPARATOR = /[\n;|&]/;
const QUOTED_COMMAND_LIMIT = 200;

/**
 * `number` as a word of its own in `text` (`host:7377` in a URL, `(host, 7377)`, `connect(7377, …)`),
 * not inside a longer number, a name or a decimal. A scan, not a regular expression built per call.
 */
/**
 * Words of code that signal, stop or attach to a process, or open its `/proc` entries, in the
 * languages an agent writes inline (`os.kill`, `process.kill`, `Process.kill`, `syscall.Kill`,
 * `signal.SIGTERM`, `psutil.Process(…).terminate()`, `ProcessHandle.of(…).destroy()`, `gdb -p`).
 */
/** The daemon's process by name in code: gobby's name, its entry point or state file, or `node` (which it runs as) given to a killer. */
const NAMES_THE_DAEMON_PROCESS = /\bgobby\b|daemon\/main|daemon\.json|\b(?:pkill|killall|pgrep|pidof)\b[^\n;|&]*\bnode\b/i;

/** Whether code quotes a piece of the daemon's command line (four characters or more, with a letter) or its name. */
function quotesTheDaemon(text: string, ground: ProtectedGround): boolean {
  const daemon = ground.daemonProcess;
  if (daemon === undefined) return false;
  for (const match of text.matchAll(/"([^"\n]{4,200})"|'([^'\n]{4,200})'/g)) {
    const quoted = match[1] ?? match[2]!;
    if (/[a-z]/i.test(quoted) && (daemon.commandLine.includes(quoted) || daemon.names.includes(quoted))) return true;
  }
  return false;
}

/** A pattern `pkill`, `pgrep` or `killall` is given in code's text, after its options (`pkill -f semi-space`). */
const KILLER_PATTERN = /\b(?:pkill|pgrep|killall)\b(?:\s+-[-\w=]+)*\s+['"\\]*([^'"\s;|&)\\]+)/g;

const SIGNALS_A_PROCESS = /kill|signal|\bSIG[A-Z]|terminate|destroy|suspend|\/proc\b|ptrace|pidfd|attach|inspect|debug|\bgdb\b|strace|gcore|prlimit|renice/i;

/** `mentionsNumber` for a pid: not a port beside a host or another port (`-ti:4711`, `localhost:4711`, `-p 4711:80`). */
function mentionsPid(text: string, pid: number): boolean {
  return mentionsNumber(text, pid, /[\w.:]/);
}

/**
 * Whether code writes `number` another way: in hex, octal or binary (`os.kill(0x1092, 9)`), or as
 * one operation on two literals (`process.kill(4000+242)`, `2121*2`).
 */
function computesNumber(text: string, number: number): boolean {
  if (!/\d\s*[-+*/%^|&<>]|0[xob]/i.test(text)) return false;
  for (const match of text.matchAll(NUMBER_OPERATION)) {
    const left = Number(match[1]);
    // A plain decimal is mentionsNumber's to judge (`-ti:4242` is a port).
    if (match[2] === undefined) {
      if (left === number && !/^\d+$/.test(match[1]!)) return true;
      continue;
    }
    const right = Number(match[3]);
    const value = { '+': left + right, '-': left - right, '*': left * right, '/': left / right, '%': left % right, '^': left ^ right, '|': left | right, '&': left & right, '<<': left << right, '>>': left >> right, '**': left ** right }[match[2]];
    if (value === number) return true;
  }
  return false;
}

/** A number literal (decimal, `0x`, `0o`, `0b`), or two joined by an arithmetic operator. */
const NUMBER_OPERATION = /(?<![\w.])(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|\d+)(?:\s*(\*\*|<<|>>|[-+*/%^|&])\s*(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|\d+))?(?![\w.])/g;

function mentionsNumber(text: string, number: number, joined = /[\w.]/): boolean {
  const digits = String(number);
  const partOfWord = (char: string | undefined): boolean => char !== undefined && joined.test(char);
  for (let at = text.indexOf(digits); at !== -1; at = text.indexOf(digits, at + 1)) {
    if (!partOfWord(text[at - 1]) && !partOfWord(text[at + digits.length])) return true;
  }
  return false;
}

/**
 * Whether gobby sees all a command does, so that text in it is only text: nothing built at run
 * time (`$`, a backtick), no code it cannot see into, no program it does not know, and no path
 * only known at run time that printed text could become.
 */
function seenWhole(command: string, shell: ShellAnalysis): boolean {
  // `git commit -m "$(cat <<'EOF' … EOF)"`, as Claude Code writes a message: a quoted here-document's text is fixed.
  // Inside single quotes `$` is a character (`jq '$p'`, `awk '{print $1}'`); `$'…'` keeps its `$` outside them.
  // (Only where no double quotes could hold a lone `'`: `"don't" $(…) 'x'` is not one quoted stretch.)
  // `$HOME` is the session's home, which gobby knows, unless the command names HOME otherwise (`HOME=/tmp`, `read HOME`).
  let fixed = command.replace(LITERAL_HEREDOC_SUBSTITUTION, '');
  if (fixed.includes('HOME')) {
    const rest = fixed.replace(HOME_REFERENCE, '');
    if (!/(?<!\w)HOME(?!\w)/.test(rest)) fixed = rest;
  }
  if (/[$`]/.test(fixed.includes('"') ? fixed : fixed.replace(/'[^']*'/g, "''"))) return false;
  // A glob or a tree (`docs/**`) is text as written; a path that is not (`xargs cat` fed by a program) is not.
  const atRunTime = (path: PathRef): boolean => path.unplaced === true || !path.path.startsWith('/');
  for (const effect of shell.effects) {
    if (effect.kind === 'opaque' || effect.kind === 'exec') return false;
    if ((effect.kind === 'read' || effect.kind === 'write' || effect.kind === 'delete') && atRunTime(effect.path)) return false;
    if ((effect.kind === 'copy' || effect.kind === 'move') && (atRunTime(effect.from) || atRunTime(effect.to))) return false;
  }
  return true;
}

/**
 * Whether every mention of a file in a command gobby sees whole is text a program only prints or
 * searches for (`grep -rn '.gobby/token' docs`, `echo 'the token is in ~/.gobby/token'`, `git log
 * --grep=.gobby/token`): what the file's programs read is judged by their effects.
 */
function onlyMentionedAsText(command: string, shell: ShellAnalysis, file: string): boolean {
  if (!seenWhole(command, shell)) return false;
  const tail = file.split('/').slice(-2).join('/');
  // The text of a quoted here-document `cat` or `tee` writes to a file or shows (`cat > notes.md <<'EOF'`), piped nowhere.
  let asText = 0;
  for (const match of command.matchAll(TEXT_HEREDOC)) if (!match[2]!.includes('|') && !match[5]!.includes('|')) asText += occurrences(match[6]!, tail);
  for (const invocation of shell.invocations) for (const index of textWordIndexes(invocation)) asText += occurrences(invocation.args[index]!, tail);
  return asText >= occurrences(command, tail);
}

/** `$HOME` and `${HOME}`, but not `$HOMEDIR` nor `${HOME:-…}`. */
const HOME_REFERENCE = /\$(?:HOME(?!\w)|\{HOME\})/g;

/** `$(cat <<'EOF'` … `EOF` `)`: a substitution that prints a quoted here-document's fixed text. */
const LITERAL_HEREDOC_SUBSTITUTION = /\$\(\s*cat\s+<<-?\s*(['"])([A-Za-z_]\w*)\1[ \t]*\n[\s\S]*?\n[ \t]*\2[ \t]*\n\s*\)/g;
/** `cat > f <<'EOF'` … `EOF` at the start of a statement: 1 the program, 2 and 5 the rest of its line, 3 the quote, 4 the delimiter, 6 the text. */
const TEXT_HEREDOC = /(?:^|[;&(]\s*|\n\s*)(cat|tee)\b([^\n;&<]*)<<-?\s*(['"])([A-Za-z_]\w*)\3([^\n]*)\n([\s\S]*?)\n[ \t]*\4[ \t]*(?=\n|$)/g;

/** Which words of an invocation its program only prints or matches against: never a file it opens. */
function textWordIndexes(invocation: ShellInvocation): number[] {
  const { program, args } = invocation;
  const all = args.map((_, index) => index);
  if (program === 'echo' || (program === 'printf' && !args.includes('-v'))) return all;
  // `stat ~/.gobby/token`: the name of a file whose entry, not content, the program reads (but `du --files0-from=F` reads F).
  if (METADATA_READERS.has(program) && !args.some((arg) => arg.includes('files0-from'))) return all;
  const gitGrep = program === 'git' && args[0] === 'grep';
  const searcher = gitGrep ? GREP_OPTIONS : SEARCHERS.get(program);
  if (searcher !== undefined) return patternIndexes(args, gitGrep ? 1 : 0, searcher);
  if (program === 'git' && GIT_MESSAGE_SUBCOMMANDS.has(args[0] ?? '')) {
    return all.flatMap((i) => (/^(?:--grep|--author|--committer|-S|-G|-m|--message)$/.test(args[i]!) ? [i + 1] : /^(?:--(?:grep|author|committer|message)=|-[SGm].)/.test(args[i]!) ? [i] : []));
  }
  // jq's `--arg NAME VALUE`: a string the filter may print; jq opens no file by a value's text.
  if (program === 'jq' || program === 'gojq' || program === 'jaq') return all.filter((i) => i >= 2 && (args[i - 2] === '--arg' || args[i - 2] === '--argjson'));
  const texts = TEXT_OPTIONS.get(program);
  if (texts === undefined) return [];
  return all.flatMap((i) => {
    const arg = args[i]!;
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq !== -1) return texts.has(arg.slice(0, eq)) ? [i] : [];
    // A value that starts with `@` is a file the program reads (`curl -d @body.json`, `gh … -F body=@f`).
    return texts.has(arg) && args[i + 1]?.startsWith('@') === false ? [i + 1] : [];
  });
}

/**
 * Options whose value a program only sends or matches as text: a pull request's or an issue's
 * title and body, a request's data, a test-name filter (`vitest -t '…'`, `pytest -k …`).
 */
const TEXT_OPTIONS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['gh', new Set(['--title', '-t', '--body', '-b', '--notes', '-n', '--subject', '-f', '--raw-field'])],
  // Not `--data-urlencode`, whose `name@file` reads a file.
  ['curl', new Set(['-d', '--data', '--data-raw', '--data-binary', '--data-ascii', '--json'])],
  ...['vitest', 'jest'].map((runner) => [runner, new Set(['-t', '--testNamePattern'])] as const),
  ['pytest', new Set(['-k'])],
  ...['mocha', 'playwright'].map((runner) => [runner, new Set(['-g', '--grep', '--fgrep', '--grep-invert'])] as const),
]);

/** The indexes of a search's patterns: each `-e`/`--regexp` value, or else its first operand. */
function patternIndexes(args: readonly string[], from: number, spec: OptionSpec): number[] {
  const patterns: number[] = [];
  let first: number | undefined;
  for (let i = from; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      first ??= i + 1;
      break;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = arg.slice(2, eq === -1 ? undefined : eq);
      if (name === 'regexp') patterns.push(eq === -1 ? ++i : i);
      else if (eq === -1 && spec.long?.includes(name)) i++;
    } else if (arg.startsWith('-') && arg.length > 1) {
      // A cluster ends at the first letter that takes a value: attached, or the next word.
      for (let c = 1; c < arg.length; c++) {
        if (!spec.short?.includes(arg[c]!)) continue;
        const attached = c + 1 < arg.length;
        if (arg[c] === 'e') patterns.push(attached ? i : i + 1);
        if (!attached) i++;
        break;
      }
    } else first ??= i;
  }
  return patterns.length > 0 ? patterns : first === undefined || first >= args.length ? [] : [first];
}

/** git subcommands whose `--grep`, `-S`, `-G`, `-m` values are search text or a message. */
const GIT_MESSAGE_SUBCOMMANDS = new Set(['log', 'show', 'rev-list', 'shortlog', 'whatchanged', 'commit', 'tag', 'stash', 'merge', 'notes']);

function occurrences(text: string, part: string): number {
  let count = 0;
  for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + part.length)) count++;
  return count;
}

/** The full path, or its last two segments (`~/.gobby/token`, `$GOBBY_HOME/../.gobby/token`). */
function mentionsPath(text: string, path: string): boolean {
  const tail = path.split(/[\\/]/).slice(-2).join('/');
  return text.includes(path) || text.includes(tail);
}
