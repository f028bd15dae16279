// The walker: visits the parse tree in execution order, tracks the working directory through
// lists, branches and subshells, turns redirections into reads and writes, classifies every
// substitution's commands, and hands each command to its entry in the knowledge tables.
// Anything it does not recognise is reported, never skipped: an unknown node kind or a parse
// error is opaque, an unknown program is `exec`.
import type { AndOr, Assignment, CommandNode, CompoundList, ParsedScript, PipelineNode, Redirect, Redirection, Statement, Word } from 'unbash';
import { sliceArg } from './argv.js';
import { cachedAnalysis } from './analysis-cache.js';
import { constantArithmetic } from './arithmetic.js';
import { parseShell, firstParseError, MAX_COMMAND_LENGTH, overTheCap } from './parse.js';
import { climbingPath, isUrl, isWithin, localFileOfUrl, normalizeAbsolute, physicalPath, resolveAgainst } from './paths.js';
import { guardedProgramOf, onlyAsksHelp, programFoundByName, scriptFileCall, type CommandSite, type ProgramEntry, type ShellEffects } from './program-kit.js';
import { checkAssignment } from './programs-code.js';
import { filteredText, literalInput, printedText, printfOutput, printsText, substitutionOutput } from './printed.js';
import { setsTmpdirElsewhere } from './mktemp.js';
import { programForPath } from './program-paths.js';
import { PROGRAMS } from './programs.js';
import { Scope, type FunctionBody, type VariableValue } from './scope.js';
import { projectScriptKey, type PathRef, type ProjectScriptCall, type ShellAnalysis, type ShellContext, type ShellEffect, type ShellEffectKind, type ShellInvocation, type SignalTarget } from './types.js';
import { ARRAY_ALL_ELEMENTS, ARRAY_ANY_ELEMENT, codeInValues, collectNestedScripts, onlyRunTimeNumbers, subscriptCode, literalArg, renderWord, renderWordFields, type Arg, type GlobOptions, type NestedScript, type WordEnv } from './words.js';

/** Deeper than this (compound commands, substitutions and re-parsed code together) is opaque. */
const MAX_NESTING = 64;
/** `bash -c "bash -c '…'"` levels re-parsed before the rest counts as opaque. */
const MAX_REPARSE = 8;
/** Linux PATH_MAX: a `cd` to a longer path fails, so the tracked directory never grows past it. */
const MAX_PATH = 4096;
/**
 * Characters of effects one command may record. A 64 KB command of `cd a; ls a; …` would otherwise
 * build megabytes of paths; past the budget the rest of the command is opaque.
 */
const EFFECT_BUDGET = 256 * 1024;
/**
 * Characters of loop bodies one command may visit more than once (each word of `for f in a b c`,
 * iterations after a body changed what is known). Loops nested in loops would otherwise multiply
 * the work: this keeps it linear in the command's length, whatever it is.
 */
const REVISIT_BUDGET = 32 * 1024;
/** Rounds of visits a loop gets for what its iterations know to settle; then nothing is assumed known. */
const MAX_LOOP_ROUNDS = 3;

/** A name the command assigns anywhere (HOME=…, export HOME, read HOME, for HOME in): `~` and $HOME then are not the user's home. */
const ASSIGNS_HOME = /(?:^|[^$\w{])HOME\b/;
const ASSIGNS_GOBBY_HOME = /(?:^|[^$\w{])GOBBY_HOME\b/;
/** PWD assigned (`PWD=/x`, `read PWD`): `$PWD` and `~+` then hold that, not the folder gobby follows. */
const ASSIGNS_PWD = /(?:^|[^$\w{])PWD\b/;
/** A redirection of the standard error anywhere but the terminal or nowhere (`2>/tmp/p`, `2>>log`, `&>f`, `{ … } 2>f`); `2>&1` and `2>/dev/null` are not. */
const STDERR_TO_A_FILE = /(?<![\d&>])2>>?[ \t]*(?![&\s]|\/dev\/null\b)|&>/;
/**
 * Ways a command can set a variable that the scope does not follow (`read`, `declare -n`,
 * `printf -v`, `${x:=…}`, arithmetic, a sourced file, IFS): in a command that has any of them, an
 * earlier assignment gives a variable only its likeliest value (WordEnv.variablesUncertain).
 * Functions are not among them: a body is followed where it is called. Nor is `eval`: its fixed
 * code is read in the same scope, and code built at run time forgets every variable. Nor is `set`
 * with options only (`set -euo pipefail`, `set +x`); `set -- a b` and `set a b` set `$1`….
 */
const SETS_VARIABLES_UNSEEN =
  /\(\(|\$\{[^}]*=|\bIFS\b|printf\s+-v|export\s+-|(?:^|[\s;&|(`])(?:let|declare|typeset|local|readonly|read|mapfile|readarray|getopts|source|\.|unset|set(?![ \t]+(?:[-+][a-zA-Z]*o[ \t]+[a-z]+|[-+][a-zA-Z]+)(?:[ \t]+(?:[-+][a-zA-Z]*o[ \t]+[a-z]+|[-+][a-zA-Z]+))*[ \t]*(?:[;&|)\n]|$))|shopt|coproc|select|alias)(?=[\s;&|)]|$)/;
/** Variables gobby resolves itself, or that change how other words are read. */
const UNTRACKED_VARIABLES = new Set(['HOME', 'PWD', 'OLDPWD', 'GOBBY_HOME', 'IFS', 'PATH', 'CDPATH']);

/** Writes here change no file; reads here read no file. */
const DEVICE = /^\/dev\/(?:null|stdout|stderr|stdin|tty|zero|full|random|urandom|fd\/[0-2]|pts\/\d+)$|^\/proc\/self\/fd\/[0-2]$/;
const DEVICE_SOCKET = /^\/dev\/(?:tcp|udp)\/([^/]+)\/([^/]+)$/;
/** Descriptors other than stdout and stderr, which may stand for a file the command opened to read. */
const WRITES_THROUGH_DESCRIPTOR = /^\/dev\/stdin$|^\/dev\/fd\/(?![12]$)\d+$|^\/proc\/(?:self|thread-self|\$\$|\$BASHPID)\/fd\/(?![12]$)\d+$/;
/** The process's own view of its working directory and root. */
const PROC_SELF_LINK = /^\/proc\/([^/]+)\/(cwd|root)(?=\/|$)/;
/** A path through an open file descriptor: `/dev/fd/3`, `/proc/self/fd/3`. */
const STANDARD_STREAMS = ['stdin', 'stdout', 'stderr'];
/** `/dev/stdin/…`: the standard stream's descriptor as a folder. */
const STANDARD_STREAM_FOLDER = /^\/dev\/(stdin|stdout|stderr)(?=\/)/;
const DESCRIPTOR_PATH = /^\/(?:dev\/fd|proc\/(?:self|thread-self|\$\$)\/fd)\/(\d+)(?=\/|$)/;
/** The processes whose working directory is the command's own: the command itself. */
const OWN_PROCESS = new Set(['self', 'thread-self']);
const DEFAULT_PORTS: Readonly<Record<string, number>> = { http: 80, https: 443, ws: 80, wss: 443, ftp: 21, ssh: 22 };

interface Run {
  readonly ctx: ShellContext;
  /** The user's home, or null once the command assigns HOME. */
  home: string | null;
  /** `$PWD` and `~+` are the working directory gobby follows: the command does not assign PWD. */
  pwdFollowed: boolean;
  /** gobby's home for `$GOBBY_HOME`; null when not known or when the command assigns it. */
  gobbyHome: string | null;
  /** The whole command, read once to decide whether earlier assignments may be followed. */
  readonly command: string;
  /** Whether variables set to fixed text are expanded later on; decided at the first such assignment. */
  tracksVariables: boolean | undefined;
  /** What is left of EFFECT_BUDGET; below zero the command is opaque and nothing more is recorded. */
  budget: number;
  /** Characters of loop and function bodies that may still be visited again (see visitLoop, callFunction). */
  revisits: number;
  /** Functions whose body is being visited: a call to one of them is recursion. */
  readonly calling: Set<string>;
  /** Names that may run another program from here on, or `all` (ShellEffects.redefineProgramName). */
  redefinedNames: Set<string> | 'all' | undefined;
  /** How the command has set bash's globbing so far (`shopt -s dotglob`, `GLOBIGNORE=…`): later words follow it. */
  readonly globOptions: GlobOptions;
  /** IFS's characters beyond the blanks, once the command sets IFS to fixed text (WordEnv.extraSeparators). */
  extraSeparators: string | undefined;
  readonly effects: ShellEffect[];
  /** The effects recorded so far other than reads, writes and deletes, by kind: a few of each, most repeated. */
  readonly byKind: Map<ShellEffectKind, ShellEffect[]>;
  /** Identities of those effects, for the kinds that have more than SCAN_LIMIT of them. */
  readonly keys: Map<ShellEffectKind, Set<string>>;
  /** Reads, writes and deletes recorded so far, by path: most effects are these, and most repeat. */
  readonly pathEffects: Map<string, PathEffect[]>;
  readonly programs: string[];
  /** The same names, for a membership test that does not scan the list (recordProgram runs for every command). */
  readonly programSet: Set<string>;
  readonly invocations: ShellInvocation[];
  /** While a prefix that switches users runs its command (`sudo`, `su -c`): its name (ShellEffects.otherUser). */
  otherUser: string | undefined;
  /**
   * Above zero while visiting code whose exit status is not the command's: a pipeline's earlier
   * stages, a statement followed by another, the left of `||`, a condition, a loop, a background job.
   */
  statusMasked: number;
  /**
   * Above zero while visiting code whose standard output does not reach the terminal: a
   * substitution, a pipeline's earlier stages, a redirected command, a prefix that captures it
   * (ShellInvocation.outputShown).
   */
  outputTaken: number;
  /** The command sends the standard error to a file somewhere (`2>/tmp/p`, `exec 2>f`): then `>&2` takes the output too. Read from the text when first asked (stderrTaken). */
  stderrToAFile: boolean | undefined;
  /** `NAME=value` of the assignments in the environment of what runs now (`DOCKER_HOST=… docker ps`, `env X=… cmd`): recorded with each invocation. */
  environment: readonly string[] | undefined;
  /** A test run was met while statusMasked was above zero (ShellAnalysis.testStatusHidden). */
  testStatusHidden: boolean;
  /** The command starts with `set -e` or `set -o pipefail` (and never turns them off): a failure is not masked there. */
  errexit: boolean;
  pipefail: boolean;
  /**
   * Variables declared with a case (`declare -l x`, `-u`): what is assigned to them later is
   * converted; and namerefs (`declare -n r=x`), which expand to their target's value. Made on first use.
   */
  attributes?: Map<string, { readonly lowercase?: true; readonly uppercase?: true; readonly refersTo?: string }>;
}

/** What a Bash command does, as effects. Recent answers are remembered (see analysis-cache.ts). */
export function analyzeShellCommand(command: string, ctx: ShellContext): ShellAnalysis {
  return cachedAnalysis(command, ctx, classifyShellCommand);
}

function classifyShellCommand(command: string, ctx: ShellContext): ShellAnalysis {
  // Above the cap nothing else looks at the command, not even a regex.
  if (command.length > MAX_COMMAND_LENGTH) return { effects: [{ kind: 'opaque', why: overTheCap(command) }], programs: [], invocations: [] };
  const run: Run = {
    ctx,
    home: ASSIGNS_HOME.test(command) ? null : ctx.home,
    pwdFollowed: !command.includes('PWD') || !ASSIGNS_PWD.test(command),
    gobbyHome: ctx.gobbyHome === undefined || ASSIGNS_GOBBY_HOME.test(command) ? null : ctx.gobbyHome,
    command,
    // A script file's parameters are variables from the start (ShellContext.scriptParameters).
    tracksVariables: ctx.scriptParameters === undefined ? undefined : !SETS_VARIABLES_UNSEEN.test(command),
    budget: EFFECT_BUDGET,
    revisits: REVISIT_BUDGET,
    calling: new Set(),
    redefinedNames: undefined,
    globOptions: { dotGlob: false, noCase: false, globStar: false },
    extraSeparators: undefined,
    effects: [],
    byKind: new Map(),
    keys: new Map(),
    pathEffects: new Map(),
    programs: [],
    programSet: new Set(),
    invocations: [],
    otherUser: undefined,
    statusMasked: 0,
    outputTaken: 0,
    environment: undefined,
    stderrToAFile: undefined,
    testStatusHidden: false,
    errexit: false,
    pipefail: false,
  };
  const scope = new Scope(normalizeAbsolute(ctx.cwd), true, null, [], new Map(), ctx.scriptParameters === undefined ? undefined : scriptVariables(ctx.scriptParameters));
  const parsed = parseShell(command);
  if (!parsed.ok) emit(run, { kind: 'opaque', why: parsed.why });
  else {
    Object.assign(run, leadingShellOptions(parsed.script, command));
    visitScript(run, parsed.script, scope, 0, 0);
  }
  return run.testStatusHidden ? { effects: run.effects, programs: run.programs, invocations: run.invocations, testStatusHidden: true } : { effects: run.effects, programs: run.programs, invocations: run.invocations };
}

/**
 * `set -e` and `set -o pipefail` (`set -euo pipefail`) as the command's first words, alone or
 * before `&&`: from then on a failure is not masked by the statement after it or the pipe's last
 * stage. Only there, and only when the command never turns them off again (`set +e`), so a
 * subshell or a branch that sets them cannot make the rest look unmasked.
 */
function leadingShellOptions(script: ParsedScript, command: string): { errexit: boolean; pipefail: boolean } {
  let errexit = false;
  let pipefail = false;
  if (/\bset\b[^\n;&|]*\+[a-zA-Z]*[eo]/.test(command)) return { errexit, pipefail };
  for (const statement of script.commands) {
    if (statement.type !== 'Statement' || statement.background) break;
    const first = statement.command.type === 'AndOr' ? statement.command.commands[0] : statement.command;
    if (first?.type !== 'Command' || first.name?.text !== 'set' || first.prefix.length > 0) break;
    const words = first.suffix.map((word) => (word.type === 'Word' ? word.text : ''));
    for (let i = 0; i < words.length; i++) {
      const word = words[i]!;
      if (!/^-[a-zA-Z]+$/.test(word)) continue;
      if (word.includes('e')) errexit = true;
      if (word.endsWith('o')) {
        if (words[i + 1] === 'pipefail') pipefail = true;
        if (words[i + 1] === 'errexit') errexit = true;
      }
    }
    if (statement.command.type === 'AndOr') break;
  }
  return { errexit, pipefail };
}

/** A script file's `$0`, `$BASH_SOURCE` (`${BASH_SOURCE[0]}`) and `$1`…`$9`, where known. */
function scriptVariables(parameters: readonly (string | null)[]): Map<string, VariableValue> {
  const variables = new Map<string, VariableValue>();
  parameters.slice(0, 10).forEach((value, i) => {
    if (value !== null) variables.set(String(i), value);
  });
  const file = parameters[0];
  if (file !== undefined && file !== null) variables.set('BASH_SOURCE', file).set('BASH_SOURCE[0]', file);
  return variables;
}

type PathEffect = Extract<ShellEffect, { kind: 'read' | 'write' | 'delete' }>;

function emit(run: Run, effect: ShellEffect): void {
  if (effect.kind === 'test_run' && run.statusMasked > 0) run.testStatusHidden = true;
  if (run.budget < 0) return;
  let same = run.byKind.get(effect.kind);
  if (same === undefined) run.byKind.set(effect.kind, (same = []));
  // Compared field by field while a kind has few effects (a string key per effect was most of
  // emit's cost); above SCAN_LIMIT by key, so a script of thousands stays linear.
  if (same.length < SCAN_LIMIT) {
    for (const seen of same) if (sameEffect(seen, effect)) return;
  } else {
    let keys = run.keys.get(effect.kind);
    if (keys === undefined) run.keys.set(effect.kind, (keys = new Set(same.map(effectKey))));
    const key = effectKey(effect);
    if (keys.has(key)) return;
    keys.add(key);
  }
  if (!spend(run, effectLength(effect))) return;
  same.push(effect);
  run.effects.push(effect);
}

/** Effects of one kind compared field by field before their identities are hashed. */
const SCAN_LIMIT = 16;

/** Whether two effects have the same fields with the same values (what `effectKey` would make equal). */
function sameEffect(a: ShellEffect, b: ShellEffect): boolean {
  for (const name in a) {
    const x = (a as unknown as Record<string, unknown>)[name];
    const y = (b as unknown as Record<string, unknown>)[name];
    if (x === y) continue;
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
    } else if (typeof x === 'object' && x !== null && typeof y === 'object' && y !== null) {
      // A project script call is no path: `cd a && ./x.sh; cd ../b && ./x.sh` runs two files.
      if (name === 'script' ? projectScriptKey(x as ProjectScriptCall) !== projectScriptKey(y as ProjectScriptCall) : !samePath(x as PathRef, y as PathRef)) return false;
    } else return false;
  }
  for (const name in b) if (!(name in a)) return false;
  return true;
}

/** The same place, reached the same way (what `pathKey` would make equal). */
function samePath(a: PathRef, b: PathRef): boolean {
  return a.path === b.path && a.dynamic === b.dynamic && a.unplaced === b.unplaced && a.skipsDotNames === b.skipsDotNames && a.namedByData === b.namedByData && a.takesAccess === b.takesAccess && sameList(a.except, b.except) && sameList(a.elsewhere, b.elsewhere);
}

function sameList(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a.length === b.length && a.every((item, i) => item === b[i]));
}

/**
 * A read, write or delete, de-duplicated by path without building a string key: these are most of
 * the effects of a long script, and building and hashing a key for each was the largest cost of
 * classifying one. It spends the budget that `effectKey` would have (kind, path, dynamic, program).
 */
function emitPathEffect(run: Run, kind: PathEffect['kind'], path: PathRef, program: string): void {
  if (run.budget < 0) return;
  let seen = run.pathEffects.get(path.path);
  if (seen === undefined) {
    seen = [];
    run.pathEffects.set(path.path, seen);
  } else {
    // Every field of the path counts: `rg x ~; rg -uu x ~` reads dot names the first does not.
    // (`except` by identity: two finds' lists are told apart at worst by recording both.)
    for (const effect of seen) {
      const known = effect.path;
      if (effect.kind === kind && effect.program === program && known.dynamic === path.dynamic && known.unplaced === path.unplaced && known.skipsDotNames === path.skipsDotNames && known.namedByData === path.namedByData && known.takesAccess === path.takesAccess && known.except === path.except && known.climbs === path.climbs) return;
    }
  }
  if (!spend(run, kind.length + path.path.length + (path.dynamic ? 4 : 5) + program.length + 4)) return;
  const effect: PathEffect = { kind, path, program };
  seen.push(effect);
  run.effects.push(effect);
}

/** Charges an effect's characters to the budget; false (and one opaque effect) once it runs out. */
function spend(run: Run, characters: number): boolean {
  run.budget -= characters;
  if (run.budget >= 0) return true;
  run.effects.push({ kind: 'opaque', why: `the command has more effects than gobby lists (${EFFECT_BUDGET} characters of paths and targets)` });
  return false;
}

/** A cheap identity for de-duplication (JSON.stringify dominated the profile of long commands). */
function effectKey(effect: ShellEffect): string {
  let key = '';
  // for…in, not Object.values: no array per effect. Effects are plain objects, so the order is the same.
  for (const name in effect) {
    const value = (effect as unknown as Record<string, unknown>)[name];
    if (Array.isArray(value)) key += value.join('\u0001');
    else if (typeof value === 'object' && value !== null) key += name === 'script' ? projectScriptKey(value as ProjectScriptCall) : pathKey(value as PathRef);
    else key += String(value);
    key += '\u0000';
  }
  return key;
}

function pathKey(path: PathRef): string {
  let key = `${path.path}\u0001${path.dynamic}`;
  if (path.unplaced === true) key += '\u0001?';
  if (path.skipsDotNames === true) key += '\u0001.';
  if (path.namedByData === true) key += '\u0001*';
  if (path.takesAccess === true) key += '\u0001-';
  if (path.except !== undefined) key += `\u0001!${path.except.join('\u0001')}`;
  if (path.elsewhere !== undefined) key += `\u0001@${path.elsewhere.join('\u0001')}`;
  return key;
}

/** `effectKey(effect).length` without building the key: what an effect spends of the budget. */
function effectLength(effect: ShellEffect): number {
  let length = 0;
  for (const name in effect) {
    const value = (effect as unknown as Record<string, unknown>)[name];
    if (Array.isArray(value)) length += value.reduce((sum: number, item: unknown) => sum + String(item).length, Math.max(value.length - 1, 0));
    else if (typeof value === 'object' && value !== null) length += name === 'script' ? projectScriptKey(value as ProjectScriptCall).length : (value as PathRef).path.length + 1 + ((value as PathRef).dynamic ? 4 : 5);
    else length += typeof value === 'string' ? value.length : String(value).length;
    length += 1;
  }
  return length;
}

function visitScript(run: Run, script: ParsedScript, scope: Scope, depth: number, reparses: number): void {
  const problem = firstParseError(script);
  if (problem !== undefined) {
    emit(run, { kind: 'opaque', why: problem });
    return;
  }
  visitStatements(run, script.commands, scope, depth, reparses);
}

function visitStatements(run: Run, statements: readonly Statement[], scope: Scope, depth: number, reparses: number): void {
  for (let index = 0; index < statements.length; index++) {
    const statement = statements[index]!;
    if (run.budget < 0) return;
    if (statement.type !== 'Statement') {
      emit(run, { kind: 'opaque', why: `unsupported shell syntax (${(statement as { type: string }).type})` });
      continue;
    }
    // The list's status is its last statement's (a failure before it counts only under `set -e`); a background job's is not waited for.
    const masks = statement.background || (index < statements.length - 1 && !run.errexit && !exitsWithStatusBefore(statements[index + 1]!));
    if (masks) run.statusMasked++;
    // `cmd &` runs in a subshell: its cd does not move the next command.
    visitNode(run, statement.command, statement.background ? scope.clone() : scope, depth, reparses);
    if (masks) run.statusMasked--;
  }
}

/** `exit $?`, `return "$?"`: the shell ends with the status of the statement before it. */
function exitsWithStatusBefore(statement: Statement): boolean {
  const node = statement.command;
  if (node.type !== 'Command' || (node.name?.text !== 'exit' && node.name?.text !== 'return') || node.suffix.length !== 1) return false;
  const code = node.suffix[0]!;
  return code.type === 'Word' && (code.text === '$?' || code.text === '"$?"');
}

/** `false`, `exit 1`, a bare `exit` or `return` after a failure, `{ echo x; exit 1; }`: it never succeeds, so `a || it` fails whenever a does. */
function neverSucceeds(node: AnyNode): boolean {
  if (node.type === 'Command') {
    const name = node.name?.text;
    if (name === 'false') return true;
    if (name !== 'exit' && name !== 'return') return false;
    const code = node.suffix[0];
    return code === undefined || (code.type === 'Word' && /^\d+$/.test(code.text) && Number(code.text) % 256 !== 0);
  }
  if (node.type !== 'BraceGroup' && node.type !== 'Subshell') return false;
  const last = node.body.commands[node.body.commands.length - 1];
  return last?.type === 'Statement' && neverSucceeds(last.command);
}

type AnyNode = PipelineNode | AndOr | CommandNode | CompoundList;

/** `exit 1`, `return`, or a group that ends with one (`{ echo failed; exit 1; }`): nothing after it in this shell runs. */
function endsTheShell(node: AnyNode): boolean {
  if (node.type === 'Command') return node.name?.text === 'exit' || node.name?.text === 'return';
  if (node.type !== 'BraceGroup') return false;
  const last = node.body.commands[node.body.commands.length - 1];
  return last?.type === 'Statement' && endsTheShell(last.command);
}

/** `piped`: what the command before it in a pipeline prints, when that is fixed text. */
function visitNode(run: Run, node: AnyNode, scope: Scope, depth: number, reparses: number, piped?: Arg): void {
  if (depth > MAX_NESTING) {
    emit(run, { kind: 'opaque', why: `the command nests deeper than ${MAX_NESTING} levels` });
    return;
  }
  const next = depth + 1;
  switch (node.type) {
    case 'Command':
      visitCommand(run, node, scope, next, reparses, piped);
      return;
    case 'Pipeline':
      visitPipeline(run, node, scope, next, reparses);
      return;
    case 'AndOr': {
      // Each command runs after the one before it (assumed to succeed, as a cd usually does);
      // the list may stop after any of them, so afterwards only what all stops agree on is known.
      const commands = node.commands;
      // A failure up to the last `||` may end in the success of the command after it (`npm test || true`), unless that one never succeeds (`|| exit 1`).
      let maskedThrough = -1;
      for (let at = node.operators.length - 1; at >= 0; at--) {
        if (node.operators[at] === '||' && !neverSucceeds(commands[at + 1]!)) {
          maskedThrough = at;
          break;
        }
      }
      const stops: Scope[] = [];
      let before = scope;
      for (let index = 0; index < commands.length; index++) {
        const command = commands[index]!;
        if (index > 0) stops.push(scope.clone());
        const afterFailure = index > 0 && node.operators[index - 1] === '||';
        // A command after `||` that ends the shell (`cd build || exit 1`) leaves the list to the path where the one before succeeded.
        const resume = afterFailure && endsTheShell(command) ? scope.clone() : undefined;
        // After `||` the command before it failed: a cd there may not have moved the shell (`cd /x || echo > a.ts`).
        if (afterFailure && (before.cwd !== scope.cwd || before.cwdKnown !== scope.cwdKnown)) scope.mergeWith(before);
        if (index + 1 < commands.length && node.operators[index] === '||') before = scope.clone();
        const masks = index <= maskedThrough;
        if (masks) run.statusMasked++;
        visitNode(run, command, scope, next, reparses);
        if (masks) run.statusMasked--;
        if (resume !== undefined) scope.assign(resume);
      }
      for (const stop of stops) scope.mergeWith(stop);
      return;
    }
    case 'CompoundList':
      visitStatements(run, node.commands, scope, next, reparses);
      return;
    case 'Subshell':
      visitStatements(run, node.body.commands, scope.clone(), next, reparses);
      return;
    case 'BraceGroup':
      visitStatements(run, node.body.commands, scope, next, reparses);
      return;
    case 'Redirected': {
      visitRedirects(run, node.redirects, scope, next, reparses);
      // `{ rm -rf /dev/fd/5/*; } 5<dir`: what the command opens holds while it runs, then closes.
      const open = scope.descriptors;
      openDescriptors(new CommandEffects(run, scope, next, reparses, undefined), node.redirects, wordEnv(run, scope));
      const taken = node.redirects.some((redirect) => takesOutput(redirect, run));
      if (taken) run.outputTaken++;
      visitNode(run, node.command, scope, next, reparses);
      if (taken) run.outputTaken--;
      scope.descriptors = open;
      return;
    }
    case 'TestCommand':
    case 'ArithmeticCommand':
      visitNestedIn(run, node, scope, next, reparses);
      // `(( x ))`, `[[ x -eq 1 ]]`: the operands are evaluated as arithmetic, x's value included.
      visitCodeInValues(run, run.command.slice(node.pos, node.end), scope, next, reparses);
      return;
    default:
      // A condition's status, a branch or loop that may not run, a function only defined: not the command's.
      run.statusMasked++;
      visitMaskedCompound(run, node, scope, next, reparses);
      run.statusMasked--;
  }
}

/** The compound commands whose exit status is not that of the test runs in them: conditions, branches, loops, definitions. */
function visitMaskedCompound(run: Run, node: AnyNode, scope: Scope, next: number, reparses: number): void {
  switch (node.type) {
    case 'If': {
      visitStatements(run, node.clause.commands, scope, next, reparses);
      const outcomes: Scope[] = [];
      const thenScope = scope.clone();
      visitStatements(run, node.then.commands, thenScope, next, reparses);
      outcomes.push(thenScope);
      let rest = scope;
      for (const elif of node.elif) {
        rest = rest.clone();
        visitStatements(run, elif.clause.commands, rest, next, reparses);
        const branch = rest.clone();
        visitStatements(run, elif.then.commands, branch, next, reparses);
        outcomes.push(branch);
      }
      const otherwise = rest.clone();
      if (node.else) visitStatements(run, node.else.commands, otherwise, next, reparses);
      for (const outcome of outcomes) otherwise.mergeWith(outcome);
      scope.assign(otherwise);
      return;
    }
    case 'For':
    case 'Select': {
      const name = node.name.value;
      const values = node.type === 'For' ? loopValues(run, node, scope, next, reparses) : undefined;
      if (node.type === 'Select') visitWords(run, node.wordlist ?? [], scope, next, reparses);
      visitLoop(run, scope, node, values, (body, value) => {
        setShellVariable(run, body, name, value);
        visitStatements(run, node.body.commands, body, next, reparses);
      });
      return;
    }
    case 'ArithmeticFor':
      visitNestedIn(run, node, scope, next, reparses);
      visitCodeInValues(run, run.command.slice(node.pos, node.end), scope, next, reparses);
      visitLoop(run, scope, node, undefined, (body) => visitStatements(run, node.body.commands, body, next, reparses));
      return;
    case 'While':
      visitLoop(run, scope, node, undefined, (body) => {
        visitStatements(run, node.clause.commands, body, next, reparses);
        visitStatements(run, node.body.commands, body, next, reparses);
      });
      return;
    case 'Case': {
      visitWords(run, [node.word], scope, next, reparses);
      const after = scope.clone();
      for (const item of node.items) {
        visitWords(run, item.pattern, scope, next, reparses);
        const branch = scope.clone();
        visitStatements(run, item.body.commands, branch, next, reparses);
        after.mergeWith(branch);
      }
      scope.assign(after);
      return;
    }
    case 'Function': {
      const name = node.name.value;
      scope.defineFunction(name, node.body);
      // Judged where it is defined, as if called there (a function used by `trap` or `export -f`
      // runs out of sight), and again at every call, where the directory and variables may differ.
      run.calling.add(name);
      visitNode(run, node.body as AnyNode, scope.clone(), next, reparses);
      run.calling.delete(name);
      return;
    }
    case 'Coproc':
      // What a coprocess prints, the shell reads (`read p <&"${COPROC[0]}"`).
      run.outputTaken++;
      visitNode(run, node.body as AnyNode, scope.clone(), next, reparses);
      run.outputTaken--;
      return;
    default:
      emit(run, { kind: 'opaque', why: `unsupported shell syntax (${(node as { type: string }).type})` });
  }
}

/**
 * A loop's body runs zero or more times, each time in the state the one before left. The first
 * visit starts from the state before the loop. Later iterations start from a state that covers
 * every way an earlier one can end (one that `continue`s early ends differently): what an
 * iteration changed (the directory, a variable) is unknown to them, so `x=echo; for …; do $x -rf
 * src; x=rm; done` is judged to run `rm`. They are visited until a round changes nothing more.
 * `values`: the words a `for` loop's variable takes, in order; undefined when the loop repeats an
 * unknown number of times (`while`, `until`, `for ((…))`, a list only known at run time).
 */
function visitLoop(run: Run, scope: Scope, node: { readonly pos: number; readonly end: number }, values: readonly LoopValue[] | undefined, body: (scope: Scope, value: LoopValue) => void): void {
  const entry = scope.clone();
  body(scope, values?.[0]);
  const later = entry.clone();
  let changed = later.mergeWith(scope);
  // A `for` over known words visits each of the others once; any loop again while a round makes more unknown.
  const others = values === undefined ? [undefined] : values.slice(1);
  let mustVisitOthers = values !== undefined && others.length > 0;
  for (let round = 0; mustVisitOthers || changed; round++) {
    if (round === MAX_LOOP_ROUNDS) later.forgetAll();
    const cost = others.length * (node.end - node.pos);
    if (round > MAX_LOOP_ROUNDS || run.revisits < cost) {
      if (round <= MAX_LOOP_ROUNDS) emit(run, { kind: 'opaque', why: 'a loop in the command is too long to follow through every iteration' });
      later.forgetAll();
      break;
    }
    run.revisits -= cost;
    changed = false;
    mustVisitOthers = false;
    const start = later.clone();
    for (const value of others) {
      const iteration = start.clone();
      body(iteration, value);
      if (later.mergeWith(iteration)) changed = true;
    }
  }
  scope.assign(later);
}

/** What a `for` loop's variable holds in one iteration: fixed text, a glob's match, or unknown. */
type LoopValue = VariableValue | undefined;
/** More words than this and the variable is left unknown: each word is one more visit of the body. */
const MAX_LOOP_VALUES = 32;

/**
 * The words `for name in …` gives its variable, when the list is known before the loop runs
 * (`for f in .claude/settings.json`, `for f in src/*.ts`, `for x in a{1,2}`); a word only known
 * at run time makes one unknown value. Undefined (unknown, one visit) when variables are not
 * followed in this command, or when visiting the body once per word would cost too much.
 */
function loopValues(run: Run, node: Extract<CommandNode, { type: 'For' }>, scope: Scope, depth: number, reparses: number): LoopValue[] | undefined {
  if (node.wordlist === undefined) return undefined; // `for x; do` walks "$@"
  const nested: NestedScript[] = [];
  const env = wordEnv(run, scope);
  const fields: Arg[] = [];
  for (const word of node.wordlist) renderWordFields(word, env, nested, fields);
  visitNested(run, nested, scope, depth, reparses);
  if ((run.tracksVariables ??= !SETS_VARIABLES_UNSEEN.test(run.command)) === false) return undefined;
  const values: LoopValue[] = [];
  let unknown = false;
  for (const field of fields) {
    if (field.dynamic && field.unknownAt !== -1) unknown = true;
    else if (!field.dynamic) {
      if (!values.includes(field.value)) values.push(field.value);
    } else if (!values.some((value) => typeof value === 'object' && value.glob === field.value)) values.push({ glob: field.value });
  }
  if (unknown || values.length === 0) values.push(undefined);
  if (values.length > MAX_LOOP_VALUES || (values.length - 1) * (node.body.end - node.body.pos) > run.revisits) return undefined;
  return values;
}

function wordEnv(run: Run, scope: Scope): WordEnv {
  return { home: run.home, pwd: scope.cwdKnown && run.pwdFollowed ? scope.cwd : null, oldpwd: scope.previous, dirStack: scope.dirStack, projectRoot: run.ctx.projectRoot, gobbyHome: run.gobbyHome, variables: scope.variables, variablesUncertain: run.tracksVariables !== true, globOptions: run.globOptions, extraSeparators: run.extraSeparators, outputOf: substitutionOutput, command: run.command, functions: scope.functions, redefined: run.redefinedNames };
}

function visitWords(run: Run, words: readonly Word[], scope: Scope, depth: number, reparses: number): void {
  const nested: NestedScript[] = [];
  for (const word of words) renderWord(word, wordEnv(run, scope), nested);
  visitNested(run, nested, scope, depth, reparses);
}

function visitNestedIn(run: Run, node: Parameters<typeof collectNestedScripts>[0], scope: Scope, depth: number, reparses: number): void {
  const nested: NestedScript[] = [];
  collectNestedScripts(node, nested);
  visitNested(run, nested, scope, depth, reparses);
}

function visitCodeInValues(run: Run, text: string, scope: Scope, depth: number, reparses: number): void {
  const nested: NestedScript[] = [];
  codeInValues(text, wordEnv(run, scope), nested);
  subscriptCode(text, nested);
  visitNested(run, nested, scope, depth, reparses);
}

/** `$( )`, backticks and `<( )` run in subshells before the command that contains them. */
function visitNested(run: Run, nested: readonly NestedScript[], scope: Scope, depth: number, reparses: number): void {
  for (const { script, text } of nested) {
    if (script === undefined) emit(run, { kind: 'opaque', why: `the shell parser could not read the substitution \`${text.slice(0, 80)}\`` });
    else {
      // `$(npm test)`, `<(npm test)`: the command's status is not the substitution's, and its output is taken.
      run.statusMasked++;
      run.outputTaken++;
      visitScript(run, script, scope.clone(), depth + 1, reparses);
      run.outputTaken--;
      run.statusMasked--;
    }
  }
}

function visitRedirects(run: Run, redirects: readonly Redirection[], scope: Scope, depth: number, reparses: number): void {
  const fx = new CommandEffects(run, scope, depth, reparses, undefined);
  const nested: NestedScript[] = [];
  for (const redirect of redirects) applyRedirect(fx, redirect, wordEnv(run, scope), nested);
  visitNested(run, nested, scope, depth, reparses);
}

function openDescriptors(fx: CommandEffects, redirects: readonly Redirection[], env: WordEnv): void {
  for (const redirect of redirects) {
    if (redirect.type !== 'Redirect' || !redirect.target) continue;
    const target = renderWord(redirect.target, env, []);
    const duplicated = redirect.operator === '<&' || redirect.operator === '>&';
    const from = duplicated && /^\d+$/.test(target.value) ? fx.scope.descriptors.get(Number(target.value)) : undefined;
    const path = target.dynamic || (duplicated && from === undefined) ? undefined : (from ?? fx.path(target).path);
    // Without a number, `<` opens the input and `>` the output (`cat /dev/stdin/x <dir`).
    if (redirect.descriptor?.type !== 'FileDescriptorVariable') fx.scope.openDescriptor(numberedDescriptor(redirect), path);
    else {
      // `exec {d}<dir`: bash picks a free descriptor from 10 up and puts its number in d.
      let fd = FIRST_NAMED_DESCRIPTOR;
      while (fx.scope.descriptors.has(fd)) fd++;
      fx.scope.openDescriptor(fd, path);
      fx.scope.setVariable(redirect.descriptor.name, String(fd));
    }
  }
}

/** The first descriptor bash gives `{name}<file`. */
const FIRST_NAMED_DESCRIPTOR = 10;

function applyRedirect(fx: CommandEffects, redirect: Redirection, env: WordEnv, nested: NestedScript[]): void {
  switch (redirect.type) {
    case 'HereDoc':
      // Only a substitution in the body runs something (`$(…)`, `` `…` ``); `$HOME` alone does not, and needs no parts.
      if (!redirect.delimiter?.quoted && /\$\(|`/.test(redirect.body.text)) collectNestedScripts(redirect.body, nested);
      return;
    case 'HereString':
      if (redirect.target) renderWord(redirect.target, env, nested);
      return;
    case 'Redirect': {
      if (!redirect.target) return;
      const target = renderWord(redirect.target, env, nested);
      // `> >(tee log)` writes into a process; only a target that starts like one needs its parts.
      if (/^[<>]\(/.test(redirect.target.text) && redirect.target.parts?.length === 1 && redirect.target.parts[0]!.type === 'ProcessSubstitution') return;
      const operator = redirect.operator;
      if (operator === '>&' || operator === '<&') {
        // n>&m and n>&- duplicate or close descriptors; `>& file` is bash for `&> file`.
        if (/^\d*-?$/.test(target.value) && !target.dynamic) return;
        if (operator === '<&') fx.read('shell', target);
        else fx.write('shell', target);
        return;
      }
      if (operator === '<') fx.read('shell', target);
      else if (operator === '<>') {
        fx.read('shell', target);
        fx.write('shell', target);
      } else fx.write('shell', target);
      return;
    }
    default:
      fx.opaque(`unsupported redirection (${(redirect as { type: string }).type})`);
  }
}

function visitPipeline(run: Run, node: Extract<PipelineNode, { type: 'Pipeline' }>, scope: Scope, depth: number, reparses: number): void {
  const commands = node.commands;
  // `! npm test` succeeds when the tests fail: its status is not theirs.
  const negated = node.prefixes.length > 0 && node.prefixes.some((prefix) => prefix.type === 'Negation');
  if (commands.length === 1) {
    if (negated) run.statusMasked++;
    visitNode(run, commands[0]!, scope, depth, reparses);
    if (negated) run.statusMasked--;
    return;
  }
  // Every part of a pipeline with more than one command runs in its own subshell. Fixed text
  // printed into it (`echo 'rm -rf x' | sh`, `echo cm0g… | base64 -d | sh`) is followed to the
  // command that runs it, when one of the later commands may.
  const feedsCode = commands.some((command, index) => index > 0 && command.type === 'Command' && readsWhatIsPiped(command));
  // What each stage prints, the next one reads; it reaches only the terminal when every later stage just filters text to it (`ps aux | grep node | head`).
  const shownThrough = commands.every((command, index) => index === 0 || filtersToOutput(command, run));
  // The pipeline's status is its last command's (any failing one's under `set -o pipefail`).
  let printed: Arg | undefined;
  for (let index = 0; index < commands.length; index++) {
    const command = commands[index]!;
    const part = scope.clone();
    const masks = negated || (index < commands.length - 1 && !run.pipefail);
    const piped = index < commands.length - 1 && !shownThrough;
    if (masks) run.statusMasked++;
    if (piped) run.outputTaken++;
    visitNode(run, command, part, depth, reparses, printed);
    if (piped) run.outputTaken--;
    if (masks) run.statusMasked--;
    if (!feedsCode || command.type !== 'Command') printed = undefined;
    else printed = printsText(command) ? printedText(command, wordEnv(run, part)) : filteredText(command, printed, wordEnv(run, part));
  }
}

/**
 * Programs that only print a selection or summary of the text they read: in a pipeline, what they
 * read goes no further than what they print. `sort -o FILE` and `uniq IN OUT` write a file instead.
 */
const FILTERS_TEXT = new Set(['grep', 'egrep', 'fgrep', 'rg', 'head', 'tail', 'wc', 'cut', 'tr', 'column', 'cat', 'nl', 'tac', 'rev', 'fold', 'sort', 'uniq']);

/**
 * Whether a pipeline stage is a text filter (FILTERS_TEXT) printing where the pipeline prints: not
 * redirected, given no environment, and none of the options that write a file or run a program
 * (`sort -o`, `--ou=` as GNU takes a long option's start, `--compress-program`, `rg --pre`), nor
 * uniq's output operand (`uniq - /tmp/p`).
 */
function filtersToOutput(node: AnyNode, run: Run): boolean {
  if (node.type !== 'Command' || node.name === undefined || !FILTERS_TEXT.has(node.name.text)) return false;
  const words: string[] = [];
  for (const item of [...node.prefix, ...node.suffix]) {
    if (item.type === 'Word') words.push(item.text);
    else if (item.type === 'Assignment' || takesOutput(item, run)) return false;
  }
  const name = node.name.text;
  if (name === 'sort') return !words.some((word) => /^-[a-zA-Z]*o|^--[oc]/.test(word));
  if (name === 'rg') return !words.some((word) => word.startsWith('--pre'));
  if (name === 'uniq') {
    const end = words.indexOf('--');
    return words.filter((word, i) => (end !== -1 && i > end) || word === '-' || !word.startsWith('-')).length <= 1;
  }
  return true;
}

/** Prefixes that send their command's output to a file, not the terminal (`nohup` to nohup.out, `script` to its typescript). */
const CAPTURES_OUTPUT = new Set(['nohup', 'script']);

/** Programs whose input can be code or commands they run, pass on to one, or make its arguments (xargs): only for these is what is piped in worth reading. */
const RUNS_WHAT_IS_PIPED = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'busybox', 'at', 'batch', 'sudo', 'doas', 'su', 'env', 'nice', 'nohup', 'timeout', 'command', 'exec', 'setsid', 'stdbuf', 'psql', 'mysql', 'mariadb', 'sqlite3', 'sftp', 'ftp', 'lftp', 'xargs']);

function readsWhatIsPiped(node: Extract<CommandNode, { type: 'Command' }>): boolean {
  const name = node.name?.text;
  if (name === undefined) return false;
  const slash = name.lastIndexOf('/');
  return RUNS_WHAT_IS_PIPED.has(slash === -1 ? name : name.slice(slash + 1));
}

/** git's variables that move its work tree and repository, as the options that do the same. */
const GIT_LOCATION_VARIABLES: Readonly<Record<string, string>> = { GIT_WORK_TREE: '--work-tree', GIT_DIR: '--git-dir' };

function visitCommand(run: Run, node: Extract<CommandNode, { type: 'Command' }>, scope: Scope, depth: number, reparses: number, piped?: Arg): void {
  const env = wordEnv(run, scope);
  const nested: NestedScript[] = [];
  // Most commands have neither assignments nor redirections: those lists are made only when needed.
  let prefixAssignments: Assignment[] | undefined;
  let assignments: Assignment[] | undefined;
  let redirects: Redirection[] | undefined;
  // One pass over prefix and suffix (unbash's derived `redirects` getter showed in the profile).
  for (const item of node.prefix) {
    if (item.type === 'Assignment') (prefixAssignments ??= []).push(item);
    else (redirects ??= []).push(item);
  }
  // Brace expansion can turn the name into several words: `{cat,x}` runs `cat x`.
  const args: Arg[] = [];
  if (node.name) renderWordFields(node.name, env, nested, args);
  const name = args.shift();
  for (const item of node.suffix) {
    if (item.type === 'Word') renderWordFields(item, env, nested, args);
    else if (item.type === 'Assignment') {
      (assignments ??= []).push(item);
      const rendered = renderAssignment(item, env, nested);
      // `export x+=v` reaches export as written, `+=` and all.
      args.push(item.append ? { ...rendered, value: `${item.name}+${rendered.value.slice(item.name.length)}`, unknownAt: rendered.unknownAt === -1 ? -1 : rendered.unknownAt + 1 } : rendered);
    } else (redirects ??= []).push(item);
  }
  const fx = new CommandEffects(run, scope, depth, reparses, redirects === undefined ? piped : literalInput(redirects, env, piped));
  // `F=~/.claude/settings.json sh -c 'rm "$F"'`: the command's environment, which code it runs sees (set while it runs).
  let environment: [name: string, value: Arg][] | undefined;
  if (prefixAssignments !== undefined) {
    // Without a command the assignments set shell variables that later words may expand.
    const setsShellVariables = name === undefined && args.length === 0;
    for (const assignment of prefixAssignments) {
      const rendered = renderAssignment(assignment, env, nested);
      checkAssignment(assignment.name, fx, { ...rendered, value: rendered.value.slice(assignment.name.length + 1) }, fixedIndex(assignment, env));
      if (setsShellVariables) rememberVariable(run, scope, assignment, rendered, env);
      else if (assignment.index === undefined && assignment.value.type !== 'ArrayValue') (environment ??= []).push([assignment.name, assignment.append ? UNKNOWN_VALUE : sliceArg(rendered, assignment.name.length + 1)]);
      // `GIT_WORK_TREE=~ git checkout -f` is `git --work-tree=~ checkout -f`.
      const gitOption = GIT_LOCATION_VARIABLES[assignment.name];
      if (gitOption !== undefined && name?.value === 'git') args.unshift({ ...rendered, value: `${gitOption}=${rendered.value.slice(assignment.name.length + 1)}` });
    }
  }
  // `export PAGER=cat`, `declare PYTHONPATH=src`: the value as rendered among the arguments.
  if (assignments !== undefined) for (const assignment of assignments) checkAssignment(assignment.name, fx, assignedValue(assignment, args), fixedIndex(assignment, env));
  // `declare -A m=([k]=v)`, `local a=(x y)`: the elements, as an assignment in the shell keeps them.
  if (assignments !== undefined && name !== undefined && DECLARES.has(name.value)) {
    for (const assignment of assignments) if (assignment.value.type === 'ArrayValue' || assignment.index !== undefined) rememberArray(run, scope, assignment, env);
  }
  if (redirects !== undefined) for (const redirect of redirects) applyRedirect(fx, redirect, env, nested);
  // `exec 3<dir` opens a descriptor for the rest of the shell: `/dev/fd/3/x` is then `dir/x`.
  if (redirects !== undefined && args.length === 0 && name?.value === 'exec') openDescriptors(fx, redirects, env);
  if (nested.length > 0) visitNested(run, nested, scope, depth, reparses);
  // `cat /dev/fd/3/token 3<~/.gobby`: what a command opens for itself holds while it runs. Only
  // looked at when a word goes through a descriptor's path (hot path: `2>&1` on most commands).
  const descriptorsBefore = scope.descriptors;
  if (redirects !== undefined && name !== undefined && name.value !== 'exec' && (RUNS_WHAT_IS_PIPED.has(name.value) ? args.some(mentionsDescriptor) : args.some(throughDescriptor))) openDescriptors(fx, redirects, env);
  // `exec > /tmp/log`: the rest of the shell's output goes there, for as long as gobby follows it.
  const taken = redirects !== undefined && redirects.some((redirect) => takesOutput(redirect, run));
  if (taken && args.length === 0 && name?.value === 'exec') run.outputTaken++;
  const execute = (): void => {
    if (name !== undefined) runCommand(fx, name, args, false, true);
    else if (args.length > 0) runCommand(fx, args[0]!, args.slice(1), false, true);
  };
  if (taken) run.outputTaken++;
  if (environment === undefined) execute();
  else fx.inEnvironment(environment, execute);
  if (taken) run.outputTaken--;
  if (scope.descriptors !== descriptorsBefore) closeOwnDescriptors(scope, redirects!, descriptorsBefore);
}

/** `x+=v` in a command's environment: what x held before is not followed, so the value is unknown. */
const UNKNOWN_VALUE: Arg = { value: '', dynamic: true, unknownAt: 0 };

/** Whether a word is a path that may go through an open descriptor (`/dev/fd/3/x`, `/dev/stdin/x`, `/proc/self/fd/3`). */
function throughDescriptor(arg: Arg): boolean {
  return arg.value.charCodeAt(0) === SLASH && (arg.value.startsWith('/dev/') || arg.value.startsWith('/proc/'));
}

/** The same anywhere in the word, for code a shell or a prefix runs (`bash -c 'cat /dev/fd/3/x' 3<dir`). */
function mentionsDescriptor(arg: Arg): boolean {
  return arg.value.includes('/dev/') || arg.value.includes('/proc/');
}

const SLASH = 47;

/**
 * After a simple command, the numbered descriptors it opened for itself are closed again (as they
 * were before it); one opened as `{name}<file` stays open, as bash leaves it.
 */
function closeOwnDescriptors(scope: Scope, redirects: readonly Redirection[], before: ReadonlyMap<number, string>): void {
  for (const redirect of redirects) {
    if (redirect.type !== 'Redirect' || redirect.descriptor?.type === 'FileDescriptorVariable') continue;
    const fd = numberedDescriptor(redirect);
    if (scope.descriptors.get(fd) !== before.get(fd)) scope.openDescriptor(fd, before.get(fd));
  }
}

/**
 * Whether a redirection sends the standard output somewhere a later command may read it (`> f`,
 * `&> log`, `>&3`); `>&2` (`1<&2`) and `2>&1` leave it on the terminal, unless the command sends
 * the standard error to a file somewhere (`2>/tmp/p >&2`).
 */
function takesOutput(redirect: Redirection, run: Run): boolean {
  if (redirect.type !== 'Redirect') return false;
  if (redirect.operator === '&>' || redirect.operator === '&>>') return true;
  if (redirect.operator === '<' || numberedDescriptor(redirect) !== 1) return false;
  if (redirect.operator !== '>&' && redirect.operator !== '<&') return true;
  if (redirect.target?.text !== '2') return true;
  // Asked only here, where a `>&2` is met: most commands never pay for reading their text.
  run.stderrToAFile ??= STDERR_TO_A_FILE.test(run.command);
  return run.stderrToAFile;
}

/** The descriptor a redirection opens by number: its own, or without one the input for `<`, `<>`, `<&` and the output for the others. */
function numberedDescriptor(redirect: Redirect): number {
  if (redirect.descriptor?.type === 'FileDescriptor') return redirect.descriptor.value;
  return redirect.operator === '<' || redirect.operator === '<>' || redirect.operator === '<&' ? 0 : 1;
}

/** The subscript of `name[index]=…` when it is fixed text; undefined for none or one known only at run time. */
function fixedIndex(assignment: Assignment, env: WordEnv): string | undefined {
  if (assignment.index === undefined) return undefined;
  const index = renderWord(assignment.index, env, []);
  return index.dynamic ? undefined : index.value;
}

/** The value of an assignment given to a builtin (`export X=v`), from its rendered argument; undefined for an array. */
function assignedValue(assignment: Assignment, args: readonly Arg[]): Arg | undefined {
  const prefix = `${assignment.name}${assignment.append ? '+' : ''}=`;
  const rendered = assignment.value.type === 'ArrayValue' ? undefined : args.find((arg) => arg.value.startsWith(prefix));
  return rendered === undefined ? undefined : { ...rendered, value: rendered.value.slice(prefix.length), unknownAt: rendered.unknownAt === -1 ? -1 : Math.max(0, rendered.unknownAt - prefix.length) };
}

/** `name=value` in the current shell. */
function rememberVariable(run: Run, scope: Scope, assignment: Assignment, rendered: Arg, env: WordEnv): void {
  if (assignment.value.type === 'ArrayValue' || assignment.index !== undefined) {
    rememberArray(run, scope, assignment, env);
    return;
  }
  const value = rendered.value.slice(assignment.name.length + 1);
  if (assignment.append) {
    setShellVariable(run, scope, assignment.name, appended(assignment.name, scope.variables.get(assignment.name), sliceArg(rendered, assignment.name.length + 1)));
    return;
  }
  setShellVariable(run, scope, assignment.name, !rendered.dynamic ? value : (madeName(assignment, env) ?? partlyKnown(rendered, assignment.name.length + 1)));
}

/**
 * `x=.cl; x+=aude`: the text added to what x held. When that is not known (`x+=/.gobby` alone),
 * only the end is: it follows a part only known at run time.
 */
function appended(name: string, before: VariableValue | undefined, added: Arg): VariableValue {
  const tail = added.dynamic ? partlyKnown(added, 0) : added.value;
  if (typeof before === 'string' && typeof tail === 'string') return before + tail;
  const head = before === undefined ? { glob: `\${${name}}`, unknownAt: 0 } : typeof before === 'string' ? { glob: before, unknownAt: -1 } : before;
  const tailText = typeof tail === 'string' ? tail : tail.glob;
  const tailUnknown = typeof tail === 'string' ? -1 : (tail.unknownAt ?? -1);
  const unknownAt = head.unknownAt !== undefined && head.unknownAt !== -1 ? head.unknownAt : tailUnknown === -1 ? -1 : head.glob.length + tailUnknown;
  return unknownAt === -1 ? { glob: head.glob + tailText } : { glob: head.glob + tailText, unknownAt };
}

/**
 * A value with a part only known at run time, as rendered (`d=$X/.gobby`: `$X/.gobby`), so a
 * later `$d` carries its written end (`rm -rf $d` is judged as `rm -rf $X/.gobby`).
 */
function partlyKnown(rendered: Arg, nameLength: number): VariableValue {
  const value = rendered.value.slice(nameLength);
  // Rendered in full but not fixed (a pattern removal, `${PWD%/app}`): its likeliest value, standing for what it may match.
  return rendered.unknownAt === -1 ? { glob: value } : { glob: value, unknownAt: Math.max(0, rendered.unknownAt - nameLength) };
}

/**
 * `a=(x y)`, `a+=(z)`, `a[2]=z`, `m=([k]=v)`, `a[1]+=s`: each element the command sets to fixed text
 * is remembered under `a[INDEX]` (and element 0 as `a` itself, which `$a` expands to), and the
 * whole list under `a[@]` while every element is known, for `"${a[@]}"`.
 */
function rememberArray(run: Run, scope: Scope, assignment: Assignment, env: WordEnv): void {
  const name = assignment.name;
  const elements = new Map<string, string | undefined>();
  let complete = true;
  if (assignment.value.type === 'ArrayValue') {
    // `+=` goes on after the last index; `=` starts over, so the elements set before are gone.
    let next = 0;
    if (!assignment.append) {
      for (const key of arrayElements(scope, name)?.keys() ?? []) setShellVariable(run, scope, `${name}[${key}]`, undefined);
      setShellVariable(run, scope, `${name}[${ARRAY_ANY_ELEMENT}]`, undefined);
    }
    if (assignment.append) {
      const kept = arrayElements(scope, name);
      if (kept === undefined) complete = false;
      else {
        for (const [index, value] of kept) {
          elements.set(index, value);
          next = Math.max(next, Number(index) + 1);
        }
      }
    }
    for (const element of assignment.value.elements) {
      const keyed = KEYED_ELEMENT.exec(element.text);
      const index = keyed === null ? String(next) : keyed[1]!;
      const value = keyed === null ? fixedText(element, env) : LITERAL.test(keyed[2]!) ? keyed[2]! : undefined;
      elements.set(index, value);
      if (/^\d+$/.test(index)) next = Number(index) + 1;
    }
  } else {
    const index = fixedIndex(assignment, env);
    const kept = arrayElements(scope, name);
    if (kept === undefined) complete = false;
    else for (const [key, value] of kept) elements.set(key, value);
    const value = fixedText(assignment.value, env);
    if (index === undefined) {
      // `a[$i]=v`: none is known now, and any element may be v, its likeliest value (ARRAY_ANY_ELEMENT).
      for (const key of kept?.keys() ?? []) setShellVariable(run, scope, `${name}[${key}]`, undefined);
      setShellVariable(run, scope, name, undefined);
      setShellVariable(run, scope, `${name}[${ARRAY_ALL_ELEMENTS}]`, undefined);
      setShellVariable(run, scope, `${name}[${ARRAY_ANY_ELEMENT}]`, value);
      return;
    }
    const before = elements.get(index) ?? (kept === undefined ? undefined : '');
    elements.set(index, value === undefined ? undefined : assignment.append ? (before === undefined ? undefined : before + value) : value);
  }
  for (const [index, value] of elements) setShellVariable(run, scope, `${name}[${index}]`, value);
  setShellVariable(run, scope, name, elements.get('0'));
  const ordered = [...elements].sort(([a], [b]) => Number(a) - Number(b));
  setShellVariable(run, scope, `${name}[${ARRAY_ALL_ELEMENTS}]`, complete && ordered.every(([, value]) => value !== undefined) ? ordered.map(([, value]) => value).join('\u0000') : undefined);
}

/** `[k]=v` in an array's list. */
const KEYED_ELEMENT = /^\[([\w.-]+)\]=(.*)$/s;
/** Text that is itself, with nothing to expand or unquote. */
const LITERAL = /^[\w./@%+,:=-]*$/;

/** A word's text when it is fixed; undefined when any of it is only known at run time. */
function fixedText(word: Word, env: WordEnv): string | undefined {
  const rendered = renderWord(word, env, []);
  return rendered.dynamic ? undefined : rendered.value;
}

/** The elements of array `name` the command set, by index; undefined when not every one is known. */
function arrayElements(scope: Scope, name: string): Map<string, string> | undefined {
  const all = scope.variables.get(`${name}[${ARRAY_ALL_ELEMENTS}]`);
  const elements = new Map<string, string>();
  if (all === undefined) {
    // Never set as an array: empty, or a plain variable, which is its element 0.
    const plain = scope.variables.get(name);
    if (plain === undefined) return scope.variables.has(name) ? undefined : elements;
    return typeof plain === 'string' ? elements.set('0', plain) : undefined;
  }
  if (typeof all !== 'string') return undefined;
  const prefix = `${name}[`;
  for (const [key, value] of scope.variables) {
    if (key.startsWith(prefix) && key !== `${name}[${ARRAY_ALL_ELEMENTS}]` && typeof value === 'string') elements.set(key.slice(prefix.length, -1), value);
  }
  return elements;
}

/**
 * `tmp=$(mktemp)`: the variable holds the name mktemp made, and `log=/tmp/build-$$.log` one with
 * digits in it, which a glob stands for (undefined for any other value).
 */
function madeName(assignment: Assignment, env: WordEnv): VariableValue | undefined {
  if (assignment.value.type === 'ArrayValue') return undefined;
  if (onlyRunTimeNumbers(assignment.value, env)) return { glob: renderWord(assignment.value, env, []).value };
  let [part, ...others] = assignment.value.parts ?? [];
  if (part?.type === 'DoubleQuoted' && others.length === 0) [part, ...others] = part.parts;
  // `d=$(mktemp -d)/out`: fixed text after the name is a name below it.
  const suffix = others.every((other) => other.type === 'Literal' || other.type === 'SingleQuoted') ? others.map((other) => (other as { value: string }).value).join('') : undefined;
  if (part?.type !== 'CommandExpansion' || suffix === undefined || /[*?[]/.test(suffix)) return undefined;
  const output = substitutionOutput(part.script, env);
  return output?.dynamic === true && output.unknownAt === -1 ? { glob: output.value + suffix } : undefined;
}

/** Remembered when the value is fixed text (`value` undefined: only known at run time). */
function setShellVariable(run: Run, scope: Scope, name: string, value: VariableValue | undefined): void {
  // A value with spaces is remembered too: it stands for the variable inside double quotes only (words.ts).
  // Remembered even where variables may be set unseen: the words then render it as only the likeliest value (WordEnv.variablesUncertain).
  run.tracksVariables ??= !SETS_VARIABLES_UNSEEN.test(run.command);
  // OLDPWD is where `cd -` goes: `OLDPWD=~/.gobby; cd -`.
  if (name === 'OLDPWD') {
    scope.previous = typeof value === 'string' && value.startsWith('/') ? normalizeAbsolute(value) : null;
    return;
  }
  const attributes = run.attributes?.get(name);
  // `declare -n r=x; r=v` assigns x.
  if (attributes?.refersTo !== undefined) {
    setShellVariable(run, scope, attributes.refersTo, value);
    return;
  }
  const converted = typeof value !== 'string' || attributes === undefined ? value : attributes.lowercase ? value.toLowerCase() : attributes.uppercase ? value.toUpperCase() : value;
  scope.setVariable(name, converted !== undefined && !UNTRACKED_VARIABLES.has(name) ? converted : undefined);
  // A nameref to this variable expands to its new value (`declare -n r=x; x=.claude; $r`).
  if (run.attributes !== undefined) for (const [ref, { refersTo }] of run.attributes) if (refersTo === name) scope.setVariable(ref, converted);
}

function renderAssignment(assignment: Assignment, env: WordEnv, nested: NestedScript[]): Arg {
  // `a[$(rm -rf src)]=1`: the subscript is expanded, so what it substitutes runs.
  if (assignment.index !== undefined) renderWord(assignment.index, env, nested);
  if (assignment.value.type === 'ArrayValue') {
    for (const element of assignment.value.elements) renderWord(element, env, nested);
    return { value: `${assignment.name}=(…)`, dynamic: true, unknownAt: -1 };
  }
  const value = renderWord(assignment.value, env, nested, true);
  const prefix = `${assignment.name}=`;
  return { value: prefix + value.value, dynamic: value.dynamic, unknownAt: value.unknownAt === -1 ? -1 : value.unknownAt + prefix.length };
}

/** A command that sets TMPDIR (`TMPDIR=. mktemp`, `export TMPDIR=…`): where temporary files go is then its value. */
const TMPDIR_SET = /\bTMPDIR=/;

/** TMPDIR as the command set it (see ShellEffects.tmpdir). */
function tmpdirOf(run: Run, scope: Scope): string | undefined {
  const value = scope.variables.get('TMPDIR');
  if (typeof value === 'string' && value.startsWith('/')) return normalizeAbsolute(value);
  if (typeof value === 'string' && value !== '') return resolveAgainst(scope.cwd, value);
  return TMPDIR_SET.test(run.command) && setsTmpdirElsewhere(run.command) ? '$TMPDIR' : undefined;
}

/** Builtins besides the variable-setting ones whose operands may be variable names with subscripts (`test -v`, `printf -v`, `wait -p`). */
const NAMES_VARIABLES = new Set(['test', '[', 'printf', 'wait']);

/** The only arguments with which any program, even one gobby does not know, only says what it is. */
const ASKS_WHAT_IT_IS = new Set(['--version', '-version', '-V', '--help', '-help']);

/** A word that reads as a program's name or path: no expansion, glob or space left in it. */
const PROGRAM_NAME = /^[\w.+-]+$|^\/[\w./+-]+$/;

/** `cd`, `pushd`, `popd`: they move the shell, and their operands are folders, not inputs. */
export const DIRECTORY_BUILTINS: ReadonlySet<string> = new Set(['cd', 'pushd', 'popd']);
/** Builtins that set variables in ways the scope does not follow. */
const SETS_VARIABLES_AS_IT_RUNS = new Set(['read', 'declare', 'typeset', 'local', 'readonly', 'let', 'mapfile', 'readarray', 'getopts', 'source', '.', 'unset', 'set', 'shopt', 'alias']);

/** `set -euo pipefail`, `set +x`, `set -o posix`: options only, no variable; `set -- a b`, `set a`, `set $x` set `$1`…. */
function setsOptionsOnly(args: readonly Arg[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.dynamic || !/^[-+][a-zA-Z]+$/.test(arg.value)) return false;
    // `-o NAME`, also at the end of a cluster (`-euo pipefail`): the next word is the option's name.
    if (arg.value.endsWith('o')) i++;
  }
  return true;
}

/** Prefixes that run their command as another user (root when none is named). */
const SWITCHES_USER = new Set(['sudo', 'doas', 'su', 'runuser']);

/** Names an alias, `hash` or `enable` cannot take over: the shell reads them itself. */
const KEEPS_ITS_MEANING = new Set(['builtin', 'command', 'unalias', 'unset', 'hash', 'alias', 'enable', 'echo', 'printf', 'true', 'false', ':']);

/** What a command's name decides before its arguments are looked at. */
interface NameFacts {
  readonly entry: ProgramEntry | undefined;
  readonly setsVariables: boolean;
  readonly changesDirectory: boolean;
}

/** One lookup for everything a name decides: hashing each program name of a long script several times showed in the profile. */
const NAME_FACTS: ReadonlyMap<string, NameFacts> = new Map(
  [...new Set([...PROGRAMS.keys(), ...DIRECTORY_BUILTINS, ...SETS_VARIABLES_AS_IT_RUNS])].map((known) => [
    known,
    { entry: PROGRAMS.get(known), setsVariables: SETS_VARIABLES_AS_IT_RUNS.has(known), changesDirectory: DIRECTORY_BUILTINS.has(known) },
  ]),
);

/**
 * Resolves the program a command runs and hands it to the tables. `shellLevel`: run by the shell
 * itself, where a function of that name comes first; not through `env`, `xargs`, `command`…
 */
function runCommand(fx: CommandEffects, nameArg: Arg, args: readonly Arg[], stdinArgs: boolean, shellLevel = false): void {
  const state = fx.runState;
  if (fx.depth > MAX_NESTING) {
    fx.opaque(`the command nests deeper than ${MAX_NESTING} levels`);
    return;
  }
  if (nameArg.dynamic) {
    // Recorded, so a guard sees what it is given (`$X -rf .claude`).
    recordProgram(state, nameArg.value, args, fx.cwd, true);
    fx.opaque(`the program to run is built at run time (\`${nameArg.value}\`)`);
    // `$(which rm) -rf src`, `$(which claude) --bare`: found at run time, but by its name. A name
    // rendered as its likeliest value (`x=rm; read y; $x -rf src`) is judged as that program too.
    // `HOME=/tmp ~/.local/bin/claude`: a path only known at run time whose file is named like a program gobby guards.
    const named = programFoundByName(nameArg) ?? (PROGRAM_NAME.test(nameArg.value) ? nameArg.value : guardedProgramOf(nameArg));
    if (named !== undefined) runCommand(fx.child(), literalArg(named), args, stdinArgs);
    return;
  }
  let name = nameArg.value;
  if (name.includes('/')) {
    const file = fx.path(nameArg);
    const known = programForPath(name, !file.dynamic && isWithin(file.path, fx.projectRoot));
    if (known === undefined) {
      recordProgram(state, name, args, fx.cwd);
      fx.read(name, nameArg);
      fx.opaque(`runs the file \`${name}\``, name, scriptFileCall(fx, nameArg, 'executable', args));
      // A file named like a program gobby guards (`~/.claude/local/claude --bare`) is most likely
      // that program, and so is a copy of it the command made: judge it as such too, so the guard sees it.
      const guarded = guardedProgramOf(nameArg) ?? (file.dynamic ? undefined : (guardedProgramOf(literalArg(file.path)) ?? copiedProgram(state, file.path)));
      if (guarded !== undefined) runCommand(fx.child(), literalArg(guarded), args, stdinArgs);
      return;
    }
    name = known;
  }
  const facts = NAME_FACTS.get(name);
  // After `alias ls='rm -rf'` or `hash -p /bin/rm ls`, `ls` may be anything: judged as named, and as a program gobby does not know.
  const redefined = state.redefinedNames;
  if (redefined !== undefined && (redefined === 'all' ? !KEEPS_ITS_MEANING.has(name) : redefined.has(name))) {
    fx.unknown(name);
    // For gobby's ground, as a program named at run time: `alias g=gobby` then `g workflow reset`.
    recordProgram(state, name, args, fx.cwd, true);
  }
  // `declare 'a[$(cmd)]=1'`, `test -v 'a[$(cmd)]'`: a variable name's subscript is expanded by the builtin.
  if (facts?.setsVariables === true || NAMES_VARIABLES.has(name)) {
    const nested: NestedScript[] = [];
    for (const arg of args) subscriptCode(arg.value, nested);
    // `let x`, `declare -i y=x`: the words are arithmetic, which evaluates x's value, substitutions in it included.
    if (name === 'let' || (DECLARES.has(name) && args.some((arg) => INTEGER_ATTRIBUTE.test(arg.value)))) {
      const env = wordEnv(state, fx.scope);
      for (const arg of args) codeInValues(arg.value, env, nested);
    }
    if (nested.length > 0) visitNested(state, nested, fx.scope, fx.depth + 1, fx.reparses);
  }
  // What these builtins most likely set (`read f <<< x`, `printf -v f …`, `declare -n r=x`), kept as the likeliest value.
  if (facts?.setsVariables === true || name === 'printf') likelySetVariables(fx, name, args);
  // The text check (SETS_VARIABLES_UNSEEN) misses these spelled another way (`"read" c`, `\printf -v c`): once one runs, no variable is followed.
  if ((facts?.setsVariables === true && !(name === 'set' && setsOptionsOnly(args))) || (name === 'printf' && args.some((arg) => arg.dynamic || arg.value.startsWith('-v'))) || (name === 'wait' && args.some((arg) => arg.value.startsWith('-p')))) {
    state.tracksVariables = false;
  }
  // A function shadows a builtin or program of its name (`cd(){ :; }; cd /tmp` stays where it was).
  const body = shellLevel && fx.scope.functions.size > 0 ? fx.scope.functions.get(name) : undefined;
  if (body !== undefined) {
    recordProgram(state, name, args, fx.cwd);
    callFunction(fx, name, body, args);
    return;
  }
  if (facts?.changesDirectory === true) {
    recordProgram(state, name, args, fx.cwd);
    changeDirectory(fx, name, args);
    return;
  }
  if (name === 'shift' && shellLevel) shiftPositionalParameters(fx.scope, args[0]);
  const entry = facts?.entry;
  if (!entry) {
    recordProgram(state, name, args, fx.cwd);
    // `terraform --version`, `rustc -V`, `javac -version`, `code --help`: asking any program what it is changes nothing.
    if (!args.every((arg) => !arg.dynamic && ASKS_WHAT_IT_IS.has(arg.value)) || args.length === 0) fx.unknown(name);
    return;
  }
  if (onlyAsksHelp(name, args)) {
    recordProgram(state, name, args, fx.cwd);
    return;
  }
  const site: CommandSite = { program: name, args, stdinArgs };
  const captures = CAPTURES_OUTPUT.has(name);
  if (!entry.prefix) {
    recordProgram(state, name, args, fx.cwd);
    if (captures) state.outputTaken++;
    entry.handle(site, fx);
    if (captures) state.outputTaken--;
    return;
  }
  const child = fx.child();
  const outerUser = state.otherUser;
  if (SWITCHES_USER.has(name)) state.otherUser = name;
  if (captures) state.outputTaken++;
  entry.handle(site, child);
  if (captures) state.outputTaken--;
  state.otherUser = outerUser;
  if (!child.delegated) recordProgram(state, name, args, fx.cwd);
}

/**
 * The value a variable-setting builtin most likely gives: `read a b <<< 'x y'` (its fixed input,
 * split into the names), `printf -v f FORMAT ARGS…` (what printf would print), `declare -n r=x`
 * (a name for x: x's value). Variables stay uncertain after these (tracksVariables is false), so a
 * word renders the value but stays dynamic.
 */
function likelySetVariables(fx: CommandEffects, name: string, args: readonly Arg[]): void {
  const set = (variable: string, value: string): void => {
    if (/^[A-Za-z_]\w*$/.test(variable) && !UNTRACKED_VARIABLES.has(variable)) fx.scope.setVariable(variable, value);
  };
  if (name === 'read') {
    const names = args.filter((arg) => !arg.value.startsWith('-') && !arg.dynamic).map((arg) => arg.value);
    if (fx.stdin === undefined || fx.stdin.dynamic || names.length === 0 || args.some((arg) => /^-[a-zA-Z]*[adnNptu]/.test(arg.value))) return;
    const line = fx.stdin.value.split('\n')[0]!.trim();
    const fields = line.split(/\s+/);
    names.forEach((variable, i) => set(variable, i === names.length - 1 ? fields.slice(i).join(' ') : (fields[i] ?? '')));
  } else if (name === 'printf') {
    const at = args.findIndex((arg) => arg.value === '-v');
    const variable = args[at + 1];
    const printed = at === -1 || variable === undefined ? undefined : printfOutput(args.slice(at + 2));
    if (variable !== undefined && printed !== undefined && !variable.dynamic) set(variable.value, printed);
  } else if (name === 'let' || args.some((arg) => /^-[a-zA-Z]*i/.test(arg.value))) {
    // `declare -i p=4000+242`, `let p=4000+242`: the value is arithmetic, fixed when its terms are.
    for (const arg of args) {
      const eq = arg.value.indexOf('=');
      // `p+=1`, `p==1` and the like are not a plain assignment.
      if (arg.dynamic || eq <= 0 || /[-+*/%&|^<>!=]\s*$/.test(arg.value.slice(0, eq)) || arg.value[eq + 1] === '=') continue;
      const number = constantArithmetic(arg.value.slice(eq + 1), (variable) => {
        const value = fx.scope.variables.get(variable);
        return typeof value === 'string' ? { value, likeliest: true } : undefined;
      });
      if (number !== undefined) set(arg.value.slice(0, eq).trim(), number.value);
    }
  } else if (args.some((arg) => /^-[a-zA-Z]*n/.test(arg.value))) {
    // `declare -n r=x`: r names x, now and after x changes.
    for (const arg of args) {
      const eq = arg.value.indexOf('=');
      if (arg.dynamic || eq <= 0 || !/^[A-Za-z_]\w*$/.test(arg.value.slice(eq + 1))) continue;
      const ref = arg.value.slice(0, eq);
      const target = arg.value.slice(eq + 1);
      (fx.runState.attributes ??= new Map()).set(ref, { refersTo: target });
      const value = fx.scope.variables.get(target);
      if (typeof value === 'string' && /^[A-Za-z_]\w*$/.test(ref)) fx.scope.setVariable(ref, value);
    }
  } else if (DECLARES.has(name)) {
    // `declare -l x=.CLAUDE`, `local -u y`: later values are converted; `declare x=v` is most likely v.
    const flags = args.filter((arg) => /^-[a-zA-Z]+$/.test(arg.value)).map((arg) => arg.value).join('');
    const caseAttribute = flags.includes('l') ? { lowercase: true as const } : flags.includes('u') ? { uppercase: true as const } : undefined;
    for (const arg of args) {
      if (arg.dynamic || arg.value.startsWith('-')) continue;
      const eq = arg.value.indexOf('=');
      const variable = eq === -1 ? arg.value : arg.value.slice(0, eq);
      if (!/^[A-Za-z_]\w*$/.test(variable)) continue;
      if (caseAttribute !== undefined) (fx.runState.attributes ??= new Map()).set(variable, caseAttribute);
      if (eq !== -1 && !arg.value.endsWith('=(…)')) setShellVariable(fx.runState, fx.scope, variable, arg.value.slice(eq + 1));
    }
  }
}

/** Builtins that declare variables, with attributes and values. */
const DECLARES = new Set(['declare', 'typeset', 'local', 'readonly', 'export']);
/** `declare -i`, `local -ri`: the variables set are integers, their values arithmetic. */
const INTEGER_ATTRIBUTE = /^-[a-zA-Z]*i/;

/**
 * A call runs the body in the caller's shell, from the caller's directory and variables, and what
 * the body changes there (`cd`, assignments) stays after it; `$1`…`$9` are the call's arguments
 * for the body only. Each call draws on the revisit budget; a call past it, or one that recurses,
 * is opaque and leaves nothing known.
 */
function callFunction(fx: CommandEffects, name: string, body: FunctionBody, args: readonly Arg[]): void {
  const run = fx.runState;
  const cost = body.end - body.pos;
  if (run.calling.has(name) || run.revisits < cost) {
    fx.opaque(run.calling.has(name) ? `the function \`${name}\` calls itself` : `the command calls its functions more often than gobby follows`);
    fx.scope.forgetAll();
    return;
  }
  run.revisits -= cost;
  run.calling.add(name);
  const scope = fx.scope;
  const outside = POSITIONAL_PARAMETERS.map((parameter) => scope.variables.get(parameter));
  run.tracksVariables ??= !SETS_VARIABLES_UNSEEN.test(run.command);
  POSITIONAL_PARAMETERS.forEach((parameter, i) => scope.setVariable(parameter, args[i] === undefined || args[i]!.dynamic ? undefined : args[i]!.value));
  visitNode(run, body as AnyNode, scope, fx.depth + 1, fx.reparses);
  POSITIONAL_PARAMETERS.forEach((parameter, i) => scope.setVariable(parameter, outside[i]));
  run.calling.delete(name);
}

const POSITIONAL_PARAMETERS = ['1', '2', '3', '4', '5', '6', '7', '8', '9'];

/** `shift [n]`: `$2`… move down to `$1`…; by a count only known at run time, none of them is known. */
function shiftPositionalParameters(scope: Scope, count: Arg | undefined): void {
  const by = count === undefined ? 1 : !count.dynamic && /^\d+$/.test(count.value) ? Number(count.value) : undefined;
  for (let i = 1; i <= POSITIONAL_PARAMETERS.length; i++) scope.setVariable(String(i), by === undefined ? undefined : scope.variables.get(String(i + by)));
}

function recordProgram(run: Run, program: string, args: readonly Arg[], cwd: string, nameAtRunTime = false): void {
  if (!run.programSet.has(program)) {
    run.programSet.add(program);
    run.programs.push(program);
  }
  // A loop into an array of the right size: `args.map` here was the costliest line of a long script.
  const values = new Array<string>(args.length);
  for (let i = 0; i < args.length; i++) values[i] = args[i]!.value;
  const invocation: { program: string; args: string[]; cwd: string; nameAtRunTime?: true; outputShown?: true; environment?: readonly string[] } = { program, args: values, cwd };
  if (nameAtRunTime) invocation.nameAtRunTime = true;
  if (run.environment !== undefined) invocation.environment = run.environment;
  if (run.outputTaken === 0) invocation.outputShown = true;
  run.invocations.push(invocation);
}

function changeDirectory(fx: CommandEffects, name: string, args: readonly Arg[]): void {
  const scope = fx.scope;
  // Options (`-L`, `-P`, pushd's `-n`) end at `--`, which is no folder: `cd -- ~/.gobby`.
  const dashDash = args.findIndex((arg) => arg.value === '--' && !arg.dynamic);
  const operands = dashDash !== -1 ? args.slice(dashDash + 1) : args.filter((arg) => arg.dynamic || arg.value === '-' || !/^-[LPen@]+$/.test(arg.value));
  const target = operands[0];
  const before = scope.cwd;
  if (name === 'popd' || (name === 'pushd' && (!target || STACK_POSITION.test(target.value)))) {
    rotateDirectoryStack(scope, name, target, args.some((arg) => /^-[LP]*n/.test(arg.value)));
    scope.previous = before;
    return;
  }
  // `pushd -n DIR` puts DIR on the stack under the working directory, without going there.
  if (name === 'pushd' && args.some((arg) => /^-[LP]*n/.test(arg.value))) {
    const destination = fx.path(target!);
    scope.dirStack = [...scope.dirStack, destination.dynamic ? UNKNOWN_FOLDER : destination.path];
    return;
  }
  let destination: PathRef;
  const home = fx.runState.home;
  if (!target) destination = home === null ? { path: before, dynamic: true } : { path: home, dynamic: false };
  else if (target.value === '-' && !target.dynamic) destination = scope.previous === null ? { path: before, dynamic: true } : { path: scope.previous, dynamic: false };
  else destination = cdableVariable(fx, target) ?? fx.path(target);
  if (name === 'pushd') scope.pushDirectory(before);
  scope.previous = before;
  // `cd -P l/..` takes `..` from where the link l points, which only the disk knows: later relative paths are placed, not known.
  const physical = destination.climbs !== undefined && args.some((arg) => /^-[LPe@]*P/.test(arg.value));
  if (destination.path.length > MAX_PATH) fx.opaque(`cd to a path longer than ${MAX_PATH} characters`);
  else if (!destination.dynamic && !physical) scope.moveTo(destination.path, scope.cwdKnown);
  else if (destination.unplaced === true && destination.elsewhere !== undefined && !physical) {
    // `cd src` from a folder only known to be one of several: it is now one of theirs `src`.
    scope.moveAmong(destination.path, destination.elsewhere);
  } else {
    scope.cwdKnown = false;
    // `cd .cl*` or `cd src/$x`: later relative paths are placed under the glob or the known part,
    // so `cd .cl* && rm settings.local.json` still names `.cl*/settings.local.json`.
    if (destination.path.startsWith('/')) scope.cwd = destination.path;
    else {
      scope.cwdAnywhere = true;
      // `cd $X/.gobby`, `cd "$(cat f)"`: later relative paths may also be there, as written, so
      // their written end is judged (`cd $X && cat .gobby/token` names `$X/.gobby/token`).
      scope.uncertainAmong([normalizeAbsolute(destination.path)]);
    }
  }
}

/** `+N` or `-N`: a position in pushd's stack. */
const STACK_POSITION = /^[+-]\d+$/;
/** A stack entry gobby cannot name: a folder known only at run time. */
const UNKNOWN_FOLDER = '';

/**
 * `popd`, `popd -n`, `popd +N`/`-N`, `pushd` (swap) and `pushd +N`/`-N` (rotate), on bash's list
 * of folders: the working directory first, then the stack from its newest entry. `-n` changes the
 * list without going anywhere. A position gobby cannot place leaves the shell in any of them.
 */
function rotateDirectoryStack(scope: Scope, name: 'popd' | 'pushd', target: Arg | undefined, stayHere: boolean): void {
  const list = [scope.cwd, ...[...scope.dirStack].reverse()];
  const position = target === undefined ? (name === 'pushd' ? 1 : stayHere ? 1 : 0) : target.dynamic ? undefined : stackIndex(target.value, list.length);
  if (position === undefined || position >= list.length || (name === 'pushd' && list.length < 2)) {
    scope.uncertainAmong(list.filter((folder) => folder !== UNKNOWN_FOLDER));
    return;
  }
  let next: string[];
  if (name === 'popd') next = list.filter((_, index) => index !== position);
  else next = target === undefined ? [list[1]!, list[0]!, ...list.slice(2)] : [...list.slice(position), ...list.slice(0, position)];
  const moves = name === 'pushd' ? !stayHere : position === 0;
  scope.dirStack = next.slice(1).reverse();
  if (!moves) return;
  if (next[0] === undefined || next[0] === UNKNOWN_FOLDER) scope.uncertainAmong(list.filter((folder) => folder !== UNKNOWN_FOLDER));
  else scope.moveTo(next[0], scope.cwdKnown);
}

/** `+N` counts from the working directory, `-N` from the oldest entry. */
function stackIndex(position: string, length: number): number | undefined {
  const n = Number(position.slice(1));
  const index = position[0] === '-' ? length - 1 - n : n;
  return index < 0 ? undefined : index;
}

/**
 * With `shopt -s cdable_vars`, `cd p` goes to the folder held by the variable p when there is no
 * folder p here: gobby cannot tell which, so the variable's folder is where later relative paths
 * are placed, as only one possibility (`p=~/.claude; cd p; echo > settings.json`).
 */
function cdableVariable(fx: CommandEffects, target: Arg): PathRef | undefined {
  if (target.dynamic || target.value.includes('/') || !fx.runState.command.includes('cdable_vars')) return undefined;
  const value = fx.scope.variables.get(target.value);
  if (typeof value !== 'string' || value === '') return undefined;
  return { path: fx.path(literalArg(value)).path, dynamic: true };
}

/**
 * The program gobby guards that a file run by its path is a copy, a link or a moved name of, when
 * the command made it so earlier (`cp $(which claude) /tmp/c && /tmp/c --bare`). Read off the
 * copies already recorded, only when a file is run by its path (rare), not on every copy.
 */
function copiedProgram(run: Run, path: string): string | undefined {
  const made = [...(run.byKind.get('copy') ?? []), ...(run.byKind.get('move') ?? [])].find((effect) => (effect.kind === 'copy' || effect.kind === 'move') && effect.to.path === path);
  if (made === undefined || (made.kind !== 'copy' && made.kind !== 'move')) return undefined;
  return guardedProgramOf({ value: made.from.path, dynamic: made.from.dynamic, unknownAt: made.from.dynamic ? 0 : -1 });
}

/** A path through a symbolic link the command made earlier: the target's path, and the rest below it. */
function throughNewLinks(ref: PathRef, links: ReadonlyMap<string, string>): PathRef {
  for (const [link, target] of links) {
    if (ref.path === link) return { ...ref, path: target };
    if (ref.path.startsWith(`${link}/`)) return { ...ref, path: normalizeAbsolute(target + ref.path.slice(link.length)) };
  }
  return ref;
}

/**
 * A `/proc` path split where it passes through a process's `cwd` or `root` link: `..` before it is
 * taken off as text (`/proc/self/fd/../cwd`), a `..` after it climbs from where the link points
 * (`/proc/self/cwd/../x` is x beside the working directory), so the rest is left as written.
 */
function splitAtProcLink(path: string): { readonly link: string | undefined; readonly rest: string } {
  const segments = path.split('/');
  const out: string[] = [];
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
    if (out.length === 3 && out[0] === 'proc' && (out[2] === 'cwd' || out[2] === 'root')) {
      const rest = segments.slice(i + 1).join('/');
      return { link: `/${out.join('/')}`, rest: rest === '' ? '' : `/${rest}` };
    }
  }
  return { link: undefined, rest: `/${out.join('/')}` };
}

/** Files whose writing kills, stops or moves processes: a cgroup's `cgroup.kill`, `cgroup.freeze`, `cgroup.procs`, `tasks`, and the kernel's SysRq trigger. */
const KILLS_BY_WRITE = /^\/sys\/fs\/cgroup\/(?:.*\/)?(?:cgroup\.(?:kill|freeze|procs|threads)|tasks|freezer\.state)$|^\/proc\/sysrq-trigger$/;

function networkEffect(program: string, target: string): ShellEffect {
  // curl also takes `http:/host` and `http:///host` for `http://host`.
  // The user part ends at `@` and holds no `/?#`: `http://127.0.0.1:7377?@example.com` reaches 127.0.0.1.
  const match = /^(?:([a-z][a-z0-9+.-]*):\/{1,3})?(?:[^@/?#\s]*@)?(\[[^\]]+\]|[^:/?#\s]+)(?::(\d+))?/i.exec(target);
  if (!match) return { kind: 'network', target, program };
  // A port written but not a number is only known at run time (`http://127.1:$P/`): not the scheme's default.
  const written = target[match[0].length] === ':';
  const port = match[3] !== undefined ? Number(match[3]) : match[1] !== undefined && !written ? DEFAULT_PORTS[match[1].toLowerCase()] : undefined;
  // curl's own ranges and lists in the port (`localhost:[7000-8000]`, `:{80,7377}`), too many to list: any port.
  if (port === undefined && written && /^[[{]/.test(target.slice(match[0].length + 1))) return { kind: 'network', target, program, host: match[2]!, anyPort: true };
  return port === undefined ? { kind: 'network', target, program, host: match[2]! } : { kind: 'network', target, program, host: match[2]!, port };
}

/** `<(cmd)` and `>(cmd)` as an operand name a pipe to commands classified on their own, not a file. */
function isPipe(target: Arg | PathRef): boolean {
  return 'value' in target && target.unknownAt === 0 && /^[<>]\(/.test(target.value);
}

/** The ShellEffects a program's handler sees: effects land in the run, paths resolve against the scope. */
class CommandEffects implements ShellEffects {
  delegated = false;

  constructor(
    readonly runState: Run,
    readonly scope: Scope,
    readonly depth: number,
    readonly reparses: number,
    readonly stdin: Arg | undefined,
  ) {}

  get cwd(): string {
    return this.scope.cwd;
  }

  get cwdKnown(): boolean {
    return this.scope.cwdKnown;
  }

  get cwdAnywhere(): boolean {
    return this.scope.cwdAnywhere;
  }

  get home(): string | null {
    return this.runState.home;
  }

  get otherUser(): string | undefined {
    return this.runState.otherUser;
  }

  get projectRoot(): string {
    return this.runState.ctx.projectRoot;
  }

  /** The same command one prefix deeper (`env`, `sudo`…), so runaway prefix chains hit the depth cap. */
  child(): CommandEffects {
    return new CommandEffects(this.runState, this.scope, this.depth + 1, this.reparses, this.stdin);
  }

  path(arg: Arg): PathRef {
    const links = this.scope.links;
    const ref = this.resolve(arg);
    if (links.size === 0) return ref;
    // `ln -s ~/app/src/x /tmp/l; echo > /tmp/l/../a.ts`: the `..` climbs from where the new link points.
    return ref.climbs !== undefined ? { ...ref, path: physicalPath(ref.climbs, links) } : throughNewLinks(ref, links);
  }

  private resolve(arg: Arg): PathRef {
    if (arg.unknownAt === 0) return { path: arg.value, dynamic: true };
    if (arg.value.startsWith('/')) {
      // `/dev/fd` is a link to `/proc/self/fd`, and a descriptor's folder is a link too: what
      // follows them is read before `..` is taken off (`/dev/fd/5/../x`, `/dev/fd/../cwd/x`).
      if (arg.value.startsWith('/dev/fd/') || arg.value.startsWith('/proc/')) return this.throughProc(arg.value, arg.dynamic);
      // `/dev/stdin/x` is `/dev/fd/0/x`: x in the folder the input was opened on.
      const standard = arg.value.startsWith('/dev/std') ? STANDARD_STREAM_FOLDER.exec(arg.value) : null;
      if (standard !== null) return this.throughProc(`/dev/fd/${STANDARD_STREAMS.indexOf(standard[1]!)}${arg.value.slice(standard[0].length)}`, arg.dynamic);
      const path = normalizeAbsolute(arg.value);
      const climbs = arg.value.includes('..') ? climbingPath(arg.value) : undefined;
      return climbs === undefined ? { path, dynamic: arg.dynamic } : { path, dynamic: arg.dynamic, climbs };
    }
    const path = resolveAgainst(this.scope.cwd, arg.value);
    // `../a.ts` is taken from the folder the shell really is in, which a link may have moved (`cd /tmp/l`).
    const climbs = arg.value.includes('..') ? climbingPath(`${this.scope.cwd}/${arg.value}`) : undefined;
    if (!this.scope.cwdKnown) return this.scope.otherCwds.length === 0 ? { path, dynamic: true, unplaced: true } : { path, dynamic: true, unplaced: true, elsewhere: this.scope.otherCwds.map((cwd) => resolveAgainst(cwd, arg.value)) };
    return climbs === undefined ? { path, dynamic: arg.dynamic } : { path, dynamic: arg.dynamic, climbs };
  }

  /**
   * `/proc/self/cwd/x` is `x` in the working directory, `/proc/<any>/root/x` is `/x`; another
   * process's working directory (`/proc/$PPID/cwd`, `/proc/$$/cwd` from a subshell) is only known
   * at run time. `raw` is the path as written, not yet normalized.
   */
  private throughProc(written: string, dynamic: boolean): PathRef {
    const raw = written.replace(/\/{2,}/g, '/');
    // `/dev/fd/3/x` after `exec 3<dir`: x in that folder; a descriptor gobby did not see open may be anything.
    const descriptor = DESCRIPTOR_PATH.exec(raw);
    if (descriptor !== null) {
      const rest = raw.slice(descriptor[0].length);
      const opened = this.scope.descriptors.get(Number(descriptor[1]));
      if (opened !== undefined) return { path: normalizeAbsolute(`${opened}${rest}`), dynamic };
      return rest === '' ? { path: normalizeAbsolute(raw), dynamic } : { path: normalizeAbsolute(raw), dynamic: true, unplaced: true };
    }
    // `/dev/fd/..` is `/proc/self`.
    const { link, rest } = splitAtProcLink(raw.startsWith('/dev/fd/') ? `/proc/self/fd/${raw.slice(8)}` : raw);
    const match = link === undefined ? null : PROC_SELF_LINK.exec(link);
    if (match === null) return { path: normalizeAbsolute(`${link ?? ''}${rest}`), dynamic };
    const own = OWN_PROCESS.has(match[1]!);
    if (match[2] === 'root') return { path: normalizeAbsolute(rest === '' ? '/' : rest), dynamic: dynamic || !own };
    // Another process's folder by its number (the daemon's): kept under its pid, so that gobby's ground can tell.
    if (/^\d+$/.test(match[1]!)) {
      const tail = normalizeAbsolute(rest === '' ? '/' : rest);
      return { path: `${link}${tail === '/' ? '' : tail}`, dynamic: true };
    }
    const inCwd = resolveAgainst(this.scope.cwd, `.${rest}`);
    return this.scope.cwdKnown && own ? { path: inCwd, dynamic } : { path: inCwd, dynamic: true, unplaced: true };
  }

  private ref(target: Arg | PathRef): PathRef {
    return 'path' in target ? target : this.path(target);
  }

  /** A device or a /dev/tcp socket instead of a file: returns true when handled. */
  private special(program: string, ref: PathRef): boolean {
    if (!ref.path.startsWith('/dev/') && !ref.path.startsWith('/proc/')) return false;
    const socket = DEVICE_SOCKET.exec(ref.path);
    if (socket) {
      this.socket(program, socket[1]!, socket[2]!);
      return true;
    }
    return !ref.dynamic && DEVICE.test(ref.path);
  }

  /**
   * bash's `/dev/tcp/HOST/PORT`: a host with colons is an IPv6 address (`::ffff:127.0.0.1`), and
   * the port is read as bash reads a number (` 7377`, `+7377`, `07377`); one only known at run
   * time (`$P`) may be any port.
   */
  private socket(program: string, host: string, port: string): void {
    const shown = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
    const number = /^\s*\+?\d+\s*$/.test(port) ? String(Number(port)) : undefined;
    if (number !== undefined) this.network(program, `${shown}:${number}`);
    else emit(this.runState, { kind: 'network', target: `${shown}:${port}`, program, host: shown, anyPort: true });
  }

  read(program: string, target: Arg | PathRef): void {
    if (isPipe(target)) return;
    // A file operand written as a URL: the many programs that take one (pandoc, xmllint, ffmpeg,
    // ImageMagick) fetch it, and a `file:` URL is the local file it names.
    if ('value' in target && isUrl(target.value)) {
      const file = localFileOfUrl(target.value);
      if (file === undefined) this.network(program, target.value);
      else this.read(program, { ...target, value: file });
      return;
    }
    const path = this.ref(target);
    if (!this.special(program, path)) emitPathEffect(this.runState, 'read', path, program);
  }

  setVariable(name: string, value: Arg, append = false): void {
    setShellVariable(this.runState, this.scope, name, append ? appended(name, this.scope.variables.get(name), value) : value.dynamic ? partlyKnown(value, 0) : value.value);
  }

  forgetVariables(): void {
    this.scope.forgetVariables();
  }

  readTree(program: string, target: Arg | PathRef, options?: { readonly skipsDotNames?: boolean }): void {
    if (isPipe(target)) return;
    const path = this.ref(target);
    if (this.special(program, path)) return;
    const tree = path.path === '/' ? '/**' : `${path.path}/**`;
    // Under a working directory only known at run time, each folder the shell may be in is searched (`if …; then cd ~/.gobby; fi; grep -r x`).
    const elsewhere = path.unplaced === true ? path.elsewhere?.map((folder) => (folder === '/' ? '/**' : `${folder}/**`)) : undefined;
    const ref: PathRef = elsewhere === undefined ? { path: tree, dynamic: true } : { path: tree, dynamic: true, unplaced: true, elsewhere };
    emitPathEffect(this.runState, 'read', options?.skipsDotNames === true ? { ...ref, skipsDotNames: true } : ref, program);
  }

  write(program: string, target: Arg | PathRef): void {
    if (isPipe(target)) return;
    const path = this.ref(target);
    // Opened for writing, `/dev/stdin` or `/dev/fd/3` is the file behind that descriptor (`echo x <README.md >/dev/stdin`).
    if (!path.dynamic && WRITES_THROUGH_DESCRIPTOR.test(path.path)) emitPathEffect(this.runState, 'write', { path: path.path, dynamic: true }, program);
    else if (!this.special(program, path)) emitPathEffect(this.runState, 'write', path, program);
    // The kernel's process controls: a write there kills or stops every process of a cgroup, or of the machine.
    if (path.path.startsWith('/sys/fs/cgroup/') || path.path.startsWith('/proc/sysrq-trigger')) {
      if (KILLS_BY_WRITE.test(path.path)) emit(this.runState, { kind: 'signal', target: `-1 (every process that ${path.path} controls)`, by: 'pid', program });
    }
  }

  remove(program: string, target: Arg | PathRef): void {
    if (isPipe(target)) return;
    const path = this.ref(target);
    if (!this.special(program, path)) emitPathEffect(this.runState, 'delete', path, program);
  }

  move(program: string, from: Arg | PathRef, to: Arg | PathRef): void {
    emit(this.runState, { kind: 'move', from: this.ref(from), to: this.ref(to), program });
  }

  copy(program: string, from: Arg | PathRef, to: Arg | PathRef): void {
    const destination = this.ref(to);
    if (this.special(program, destination)) this.read(program, from);
    else emit(this.runState, { kind: 'copy', from: this.ref(from), to: destination, program });
  }

  network(program: string, target: string): void {
    emit(this.runState, networkEffect(program, target));
  }

  signal(program: string, target: string, by: SignalTarget): void {
    emit(this.runState, { kind: 'signal', target, by, program });
  }

  emit(effect: ShellEffect): void {
    emit(this.runState, effect);
  }

  opaque(why: string, program?: string, script?: ProjectScriptCall): void {
    if (script !== undefined) emit(this.runState, { kind: 'opaque', why, program: program ?? script.name, script });
    else emit(this.runState, program === undefined ? { kind: 'opaque', why } : { kind: 'opaque', why, program });
  }

  unknown(program: string, script?: ProjectScriptCall): void {
    emit(this.runState, script === undefined ? { kind: 'exec', program, known: false } : { kind: 'exec', program, known: false, script });
  }

  knows(program: string): boolean {
    return PROGRAMS.has(program);
  }

  splitsFieldsOn(separators: string): void {
    const extra = separators.replace(/[ \t\n]/g, '');
    if (extra !== '') this.runState.extraSeparators = [...new Set((this.runState.extraSeparators ?? '') + extra)].join('');
  }

  linkMade(link: string, target: string): void {
    this.scope.addLink(link, target);
  }

  tmpdir(): string | undefined {
    return tmpdirOf(this.runState, this.scope);
  }

  bareMentions(name: string): number {
    return this.runState.command.match(new RegExp(`(?<![\\w$]|\\$\\{)${name}(?!\\w)`, 'g'))?.length ?? 0;
  }

  widenGlobs(option: keyof GlobOptions): void {
    this.runState.globOptions[option] = true;
  }

  redefineProgramName(name?: string): void {
    const run = this.runState;
    if (name === undefined) run.redefinedNames = 'all';
    else if (run.redefinedNames === undefined) run.redefinedNames = new Set([name]);
    else if (run.redefinedNames !== 'all') run.redefinedNames.add(name);
  }

  run(args: readonly Arg[], options?: { readonly stdinArgs?: boolean }): void {
    this.delegated = true;
    if (args.length > 0) runCommand(this.child(), args[0]!, args.slice(1), options?.stdinArgs ?? false);
  }

  runShellCode(code: Arg, program: string, sameShell: boolean): void {
    this.delegated = true;
    if (code.dynamic) {
      this.opaque(`${program} runs code built at run time`, program);
      return;
    }
    if (this.reparses >= MAX_REPARSE) {
      this.opaque(`${program} nests shell code deeper than ${MAX_REPARSE} levels`, program);
      return;
    }
    const parsed = parseShell(code.value);
    if (!parsed.ok) {
      this.opaque(`the code ${program} runs: ${parsed.why}`, program);
      return;
    }
    if (ASSIGNS_HOME.test(code.value)) this.runState.home = null;
    if (ASSIGNS_PWD.test(code.value)) this.runState.pwdFollowed = false;
    if (ASSIGNS_GOBBY_HOME.test(code.value)) this.runState.gobbyHome = null;
    if (SETS_VARIABLES_UNSEEN.test(code.value)) this.runState.tracksVariables = false;
    visitScript(this.runState, parsed.script, sameShell ? this.scope : this.scope.clone(), this.depth + 1, this.reparses + 1);
  }

  inEnvironment(variables: readonly (readonly [name: string, value: Arg])[], work: () => void): void {
    const outer = new Map<string, VariableValue | undefined>();
    for (const [name, value] of variables) {
      if (!outer.has(name)) outer.set(name, this.scope.variables.get(name));
      setShellVariable(this.runState, this.scope, name, value.dynamic ? undefined : value.value);
    }
    const run = this.runState;
    const before = run.environment;
    if (variables.length > 0) run.environment = [...(before ?? []), ...variables.map(([name, value]) => `${name}=${value.value}`)];
    work();
    run.environment = before;
    for (const [name, value] of outer) this.scope.setVariable(name, value);
  }

  hidingStatus(work: () => void): void {
    this.runState.statusMasked++;
    work();
    this.runState.statusMasked--;
  }

  at(directory: Arg): ShellEffects {
    const target = this.path(directory);
    const scope = this.scope.clone();
    scope.moveTo(target.path, scope.cwdKnown && !target.dynamic);
    return new CommandEffects(this.runState, scope, this.depth + 1, this.reparses, this.stdin);
  }
}
