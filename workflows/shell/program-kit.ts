// What a program's entry in the knowledge tables receives and may do. Handlers are data-like:
// they read the argument vector and report effects; they never see the parse tree.
import { parseArgv, sliceArg, type OptionSpec, type ParsedArgv } from './argv.js';
import { inHomeDotFolder, isSystemPath, isWithin, localFileOfUrl, normalizeAbsolute } from './paths.js';
import type { PathRef, ProjectScriptCall, ShellEffect, SignalTarget } from './types.js';
import { literalArg, type Arg } from './words.js';
import { statusSaysNothingOfTests } from './test-outcome.js';

/** node options whose value is code to load or run; the others tune the runtime. */
const NODE_CODE_OPTION = /^(?:-r|--require|--import|--loader|--experimental-loader|--env-file|--test-reporter)$/;
const NODE_INLINE_OPTION = /^(?:-e|--eval|-p|--print)$/;
/** A module given as its own text or fetched (`data:text/javascript,…`, `https://…`): code of the caller's choosing. */
const MODULE_URL = /^(?:data|https?|blob):/i;

/**
 * Why node options (`NODE_OPTIONS`, `npm test --node-options=…`) would run code from outside the
 * project, or undefined: inline code, or a file to load named by a path outside it. A module by
 * name (`--require ts-node/register`) and a file in the project are the project's own code.
 */
export function nodeOptionsLoadOutside(options: string, fx: ShellEffects): string | undefined {
  const words = options.trim().split(/\s+/);
  for (let i = 0; i < words.length; i++) {
    const eq = words[i]!.indexOf('=');
    const name = eq === -1 ? words[i]! : words[i]!.slice(0, eq);
    if (NODE_INLINE_OPTION.test(name)) return `runs inline code (${name})`;
    if (!NODE_CODE_OPTION.test(name)) continue;
    const target = eq === -1 ? words[++i] : words[i]!.slice(eq + 1);
    if (target === undefined || /[$`]/.test(target)) return `loads code named at run time (${name})`;
    if (MODULE_URL.test(target)) return `loads code given in the option itself (${name}=${target.slice(0, 40)}…)`;
    if (!/^(?:\/|~|\.|file:)/.test(target)) continue;
    const path = fx.path(literalArg(target.replace(/^file:(?:\/\/)?/, '')));
    if (path.dynamic || !isWithin(path.path, fx.projectRoot)) return `loads ${path.path} (${name}), outside the project`;
  }
  return undefined;
}

/** Programs gobby guards, recognised by the name of the file that runs them as well (`~/.local/bin/claude`). */
const IDENTIFIED_BY_NAME: ReadonlySet<string> = new Set(['claude', 'gobby']);
/** A program's file found at run time by its name: `$(which claude)`, `` `command -v gobby` ``, `$(type -P claude)`. */
const LOCATED_BY_NAME = /^(?:\$\(|`)\s*(?:which|command\s+-v|type\s+-[pP])\s+([\w.-]+)\s*(?:\)|`)$/;

/** The program whose file a word finds at run time by its name (`$(which rm)` is rm), or undefined. */
export function programFoundByName(word: Arg): string | undefined {
  return LOCATED_BY_NAME.exec(word.value)?.[1];
}

/**
 * The guarded program a file that is run most likely is, or undefined: a file named like it, the
 * file `which` finds for it, or Claude Code's package entry point (`node $(which claude) --bare`,
 * `node ~/.npm-global/lib/node_modules/@anthropic-ai/claude-code/cli.js`). Judged as that program
 * too, so its guard sees it.
 */
export function guardedProgramOf(file: Arg): string | undefined {
  const name = programFoundByName(file) ?? file.value.slice(file.value.lastIndexOf('/') + 1);
  if (IDENTIFIED_BY_NAME.has(name)) return name;
  // The npm package's files, and the native installer's binaries, named by version (`~/.local/share/claude/versions/2.1.0`).
  return file.value.includes('@anthropic-ai/claude-code/') || /(?:^|\/)claude\/versions\/[^/]+$/.test(file.value) ? 'claude' : undefined;
}

export interface CommandSite {
  /** The program's name as the tables know it (`rm` for `/bin/rm`, `\rm`, `"r""m"`). */
  readonly program: string;
  readonly args: readonly Arg[];
  /** More operands arrive only at run time (`xargs rm`, `find -exec rm {} +`). */
  readonly stdinArgs: boolean;
}

export interface ShellEffects {
  /** Where relative paths start for this command, and whether that is certain. */
  readonly cwd: string;
  readonly cwdKnown: boolean;
  /** The working directory is only known at run time and may be anywhere (`cd $X`), not just one of some known folders. */
  readonly cwdAnywhere: boolean;
  /** The program that runs this command as another user (`sudo`, `su -c`, `runuser`, `doas`), whose home and settings are not the session's. */
  readonly otherUser: string | undefined;
  /** Absolute: the project's root. What is outside it may have been written by the agent in any phase. */
  readonly projectRoot: string;
  /** The user's home; null when the command itself sets HOME. */
  readonly home: string | null;
  /** What a here-doc or here-string feeds the command, when that is fixed text. */
  readonly stdin: Arg | undefined;
  path(arg: Arg): PathRef;
  read(program: string, target: Arg | PathRef): void;
  /**
   * Reads what is in every file below `target` (`grep -r`, `rg`, `tar -c`, `zip -r`, `scp -r`):
   * recorded as a read of `<target>/**`, so a guard sees a protected file inside that tree.
   * `skipsDotNames` when the program leaves out names that start with a dot (`rg`).
   */
  readTree(program: string, target: Arg | PathRef, options?: { readonly skipsDotNames?: boolean }): void;
  /** `export NAME=value`: the variable as later words of the same shell see it. */
  setVariable(name: string, value: Arg, append?: boolean): void;
  /** Code run in this shell that gobby cannot read (`eval "$x"` with x unknown) may have set any variable. */
  forgetVariables(): void;
  write(program: string, target: Arg | PathRef): void;
  remove(program: string, target: Arg | PathRef): void;
  move(program: string, from: Arg | PathRef, to: Arg | PathRef): void;
  copy(program: string, from: Arg | PathRef, to: Arg | PathRef): void;
  network(program: string, target: string): void;
  signal(program: string, target: string, by: SignalTarget): void;
  emit(effect: ShellEffect): void;
  /** `script`: a shell script file of the project it runs, for the daemon to read (scriptFileCall). */
  opaque(why: string, program?: string, script?: ProjectScriptCall): void;
  /**
   * From here on a program's name may run something else (`alias ls='rm -rf'`, `hash -p /bin/rm ls`,
   * `BASH_CMDS[ls]=/bin/rm`, `enable -n`): a later program of that name is also named as one gobby
   * does not know; without a name (one known only at run time), every later program is.
   */
  redefineProgramName(name?: string): void;
  /** TMPDIR as the command set it: its folder, `$TMPDIR` when only known at run time, undefined when left alone (programs then use /tmp). */
  tmpdir(): string | undefined;
  /** How often the command names a variable other than as `$X` or `${X}`: where it may give it a value (`X=…`, `read X`, `for X in`, `declare X`). */
  bareMentions(name: string): number;
  /** `shopt -s dotglob`, `GLOBIGNORE=…`, `shopt -s nocaseglob`: globs match more names from here on. */
  widenGlobs(option: 'dotGlob' | 'noCase' | 'globStar'): void;
  /** `IFS=,`: unquoted expansions split at these characters too from here on (kept for the rest of the command, to be safe). */
  splitsFieldsOn(separators: string): void;
  /** A symbolic link made at `link` (absolute) to `target` (absolute): later paths through it are the target's. */
  linkMade(link: string, target: string): void;
  /** Whether the tables know `program` (`pnpm tsc` runs the project's tsc when package.json has no script of that name). */
  knows(program: string): boolean;
  /** A named program or project task the tables do not know. */
  unknown(program: string, script?: ProjectScriptCall): void;
  /** Classifies the command a prefix runs (`env X=1 rm f` → `rm f`). */
  run(args: readonly Arg[], options?: { readonly stdinArgs?: boolean }): void;
  /** Re-parses literal shell code (`bash -c '…'`, `eval …`); code built at run time is opaque. */
  runShellCode(code: Arg, program: string, sameShell: boolean): void;
  /**
   * Runs `work`, which classifies what this program runs, knowing that the program's exit status
   * will not be that command's (`find -exec CMD \;`, `watch`, `entr`, `at`, `tmux new -d`,
   * `setsid -f`): a test run inside does not show whether the tests passed (test_status_hidden).
   */
  hidingStatus(work: () => void): void;
  /** Runs `work` with these variables in the environment of what it runs (`env F=x sh -c 'rm $F'`), then as they were. */
  inEnvironment(variables: readonly (readonly [name: string, value: Arg])[], work: () => void): void;
  /** The same command context with its working directory moved (`git -C dir`, `make -C dir`). */
  at(directory: Arg): ShellEffects;
}

export type ProgramHandler = (site: CommandSite, fx: ShellEffects) => void;

export interface ProgramEntry {
  readonly handle: ProgramHandler;
  /** Runs another command (env, sudo, xargs…): listed under `programs` only when it runs none. */
  readonly prefix?: boolean;
}

/** A placeholder operand for what only run time supplies (xargs input, find's `{}`). */
const RUN_TIME_OPERAND: Arg = { value: '(operands supplied at run time)', dynamic: true, unknownAt: 0 };

/** Files a program reads by names it takes from a list at run time (`cpio -o`, `tar -T -`, `zip -@`): read, wherever they are. */
export const NAMED_IN_A_LIST: Arg = { value: '(files named in a list read at run time)', dynamic: true, unknownAt: 0 };

/** Operands plus the run-time ones, so `xargs rm` still reports a (dynamic) delete. */
export function operandsOf(parsed: ParsedArgv, site: CommandSite): Arg[] {
  return site.stdinArgs ? [...parsed.operands, RUN_TIME_OPERAND] : [...parsed.operands];
}

export const noEffect: ProgramHandler = () => {};

/** Where a program ends up after changing directory once for each value, each from the one before. */
export function inEachDirectory(fx: ShellEffects, directories: readonly Arg[]): ShellEffects {
  let here = fx;
  for (const directory of directories) here = here.at(directory);
  return here;
}

/** `<folder>/**`: every file below a folder (the working directory when none is given), whatever they are named. */
export function everythingBelow(fx: ShellEffects, folder?: Arg | PathRef): PathRef {
  const ref = folder === undefined ? workingDirectory(fx) : 'path' in folder ? folder : fx.path(folder);
  return inFolder(ref, (path) => (path === '/' ? '/**' : `${path}/**`));
}

/** `<folder>/*`: files straight in one folder (the working directory when none is given) whose names are not known before the command runs. */
export function filesIn(fx: ShellEffects, folder?: PathRef): PathRef {
  return inFolder(folder ?? workingDirectory(fx), (path) => `${path === '/' ? '' : path}/*`);
}

const HERE: Arg = { value: '.', dynamic: false, unknownAt: -1 };

/** The working directory as a path: with the other folders the shell may be in when it is not known. */
export function workingDirectory(fx: ShellEffects): PathRef {
  return fx.cwdKnown ? { path: fx.cwd, dynamic: false } : fx.path(HERE);
}

/** Names under `folder` (and under each folder it may be instead) only known when the command runs. */
function inFolder(folder: PathRef, below: (path: string) => string): PathRef {
  const path = below(folder.path);
  if (folder.unplaced !== true) return { path, dynamic: true };
  return folder.elsewhere === undefined ? { path, dynamic: true, unplaced: true } : { path, dynamic: true, unplaced: true, elsewhere: folder.elsewhere.map(below) };
}

/**
 * `<folder>/**` filled with files whose names come from what the command reads: an archive's
 * members (`tar -x`, `unzip`), a folder's contents copied in (`cp -r x/. dest`). The data decides
 * which names land, so any name below the folder may, gobby's own included.
 */
export function filesNamedByData(fx: ShellEffects, folder?: Arg | PathRef): PathRef {
  return { ...everythingBelow(fx, folder), namedByData: true };
}

/**
 * A read-only program whose operands (after `skip` data operands such as a pattern) are files it
 * reads. `withoutOperands`: what it reads when given none, the working directory (`tree`) or
 * everything below it (`ag`), which a searcher also reads below each operand.
 */
export function readsOperands(spec: OptionSpec = {}, skip = 0, withoutOperands?: 'cwd' | 'tree'): ProgramHandler {
  const options = withReaderOptions(spec);
  return (site, fx) => {
    const parsed = parseArgv(site.args, options);
    readerOptions(site, parsed, fx);
    const files = operandsOf(parsed, site).slice(skip);
    const read = withoutOperands === 'tree' ? fx.readTree : fx.read;
    for (const file of files) if (file.value !== '-') read.call(fx, site.program, file);
    if (files.length === 0 && withoutOperands !== undefined) read.call(fx, site.program, workingDirectory(fx));
  };
}

/**
 * Options with which a program that otherwise only reads runs a command, loads code or writes a
 * file, whatever the program (`ag --pager 'tee x'`, `nm --plugin x.so`, `pandoc --pdf-engine=x`,
 * `javap -J-javaagent:x.jar`, `cloc --ignored=x`, `pandoc --log=x`): a command is judged as the
 * shell code it is, code loaded is opaque, an output is a write.
 */
const READER_OPTION_KINDS: ReadonlyMap<string, 'runs' | 'loads' | 'writes' | 'writes-folder'> = new Map([
  ...['pager', 'pre', 'editor', 'extract-with'].map((name) => [`--${name}`, 'runs'] as const),
  ...['plugin', 'script', 'pdf-engine', 'lua-filter', 'filter', 'defaults'].map((name) => [`--${name}`, 'loads'] as const),
  ...['log', 'log-file', 'logfile', 'output-file', 'outfile', 'out-file', 'ignored', 'counted', 'found', 'categorized', 'report-file', 'sql', 'write-lang-def', 'vim-output', 'emacs-output', 'junit-xml-output', 'json-output', 'sarif-output', 'text-output', 'gitlab-sast-output', 'gitlab-secrets-output'].map((name) => [`--${name}`, 'writes'] as const),
  ...['extract-media'].map((name) => [`--${name}`, 'writes-folder'] as const),
]);
/** Short forms some readers give these (`pandoc -F`, `-L`, `-d`). */
const READER_SHORT_KINDS: Readonly<Record<string, Readonly<Record<string, 'loads'>>>> = { pandoc: { '-F': 'loads', '-L': 'loads', '-d': 'loads' } };

/**
 * The kind of a long option as spelled. A shortening counts for the options that run or load code
 * (`--pag` is `--pager`); not for outputs, where a program's own option is often a prefix of one
 * above (`df --output=source` is not `--output-file`).
 */
function readerOptionKind(spelled: string): 'runs' | 'loads' | 'writes' | 'writes-folder' | undefined {
  const exact = READER_OPTION_KINDS.get(spelled);
  if (exact !== undefined || spelled.length < 5) return exact;
  for (const [name, kind] of READER_OPTION_KINDS) if ((kind === 'runs' || kind === 'loads') && name.startsWith(spelled)) return kind;
  return undefined;
}
const READER_VALUE_OPTIONS = [...READER_OPTION_KINDS.keys()].map((name) => name.slice(2));

/** A reader's option spec with the options above taking their value. */
export function withReaderOptions(spec: OptionSpec = {}): OptionSpec {
  return { ...spec, long: [...(spec.long ?? []), ...READER_VALUE_OPTIONS] };
}

export function readerOptions(site: CommandSite, parsed: ParsedArgv, fx: ShellEffects): void {
  for (const option of parsed.options) {
    const value = option.value;
    // Hot path: most options are short, or flags.
    if (value === undefined) continue;
    const kind = option.name.charCodeAt(1) === 45 ? readerOptionKind(option.name) : READER_SHORT_KINDS[site.program]?.[option.name];
    if (kind === 'runs') fx.runShellCode(value, site.program, false);
    else if (kind === 'loads') fx.opaque(`${site.program} ${option.name} loads code of the caller's choosing (\`${value.value}\`)`, site.program);
    else if (kind === 'writes-folder') fx.write(site.program, everythingBelow(fx, value));
    // `--output=out.json`, and any `--<format>-output=FILE` (`semgrep --vim-output=x`); not `df --output=source,target`.
    else if (kind === 'writes' || (option.name.endsWith('output') && /[./]/.test(value.value))) fx.write(site.program, value);
  }
  // `javap -J-javaagent:/tmp/a.jar`: options handed to the JVM it runs on.
  if (site.program === 'javap' && site.args.some((arg) => /^-J-(?:javaagent|agentpath|agentlib|XX:|Xbootclasspath)/.test(arg.value))) fx.opaque(`${site.program} -J loads code into its JVM`, site.program);
}

export function writesOperands(spec: OptionSpec = {}, skip = 0): ProgramHandler {
  return (site, fx) => {
    for (const file of operandsOf(parseArgv(site.args, spec), site).slice(skip)) fx.write(site.program, file);
  };
}

export function deletesOperands(spec: OptionSpec = {}): ProgramHandler {
  return (site, fx) => {
    for (const file of operandsOf(parseArgv(site.args, spec), site)) {
      fx.remove(site.program, file);
      // `rm -rf link/`: with the slash, a link to a folder is followed and what is in that folder removed.
      if (file.value.length > 1 && file.value.endsWith('/') && !file.dynamic) fx.remove(site.program, everythingBelow(fx, file));
    }
  };
}

/**
 * Flags that make a test run rewrite what the tests expect (snapshot and golden files) instead of
 * checking it: such a run changes project files. `-u` only for the runners where it means that
 * (mocha's `-u` picks an interface), and for `npm test -- -u`, whose runner is not known.
 */
const SHORT_UPDATE_RUNNERS = new Set(['vitest', 'jest', 'playwright', 'npm', 'pnpm', 'yarn', 'bun', 'deno']);
/**
 * Options, as runners and their plugins spell them, that rewrite snapshots, goldens or expected
 * output: `--update`, `--updateSnapshot[=true]`, `-update` and `-args -update-golden` (go),
 * `--update-goldens` (flutter), `--snapshot-update`, `--force-regen`, `--regen-all`,
 * `--regtest-reset`, `--bless` (`cargo test -- --bless`), `--enable-snapshot-record`, and
 * pytest's `--inline-snapshot=…` other than `disable` and `report`.
 */
const REWRITES_EXPECTATIONS = /^--?(?:update|regen|bless|overwrite|record|force-regen|snapshot-update|test-update|enable-snapshot-record|regtest-reset|auto-promote)[\w-]*(?:=(?!false$|0$|no$|none$).*)?$/i;

function rewritesExpectations(value: string, program: string): boolean {
  if (value.charCodeAt(0) !== 45) return false; // not an option (hot path: test paths and names)
  if (value === '-u') return SHORT_UPDATE_RUNNERS.has(program);
  if (value.startsWith('--inline-snapshot=')) return !/^--inline-snapshot=(?:disable|report|short-report)$/.test(value);
  return REWRITES_EXPECTATIONS.test(value);
}

/**
 * Options that name a file or folder a run writes (lower-cased, dashes dropped), by name: reports
 * and logs whose names say nothing of a path (`--junitxml x`, `--html x`, `rspec --out x`,
 * `phpunit --log-junit x`, `--coverage-html dir`, `tsc --generateTrace dir`).
 */
const OUTPUT_OPTION = /^(?:traceeventfilepattern|outputfile(?:\..+)?|outputdir|output|out|junitxml|junit|resultlog|reportlog|html|jsonreportfile|outputdirectory|coveragedirectory|coverage\.reportsdirectory|targetdir|reportdir|reportsdir|log(?:junit|teamcity)|testdox(?:html|text|xml)|coverage(?:html|clover|cobertura|xml|php|text|crap4j)|generatetrace|generatecpuprofile|redirectwarnings|maven\.repo\.local)$/;
/**
 * And by shape: a name that says it places output (a report, a log, a cache, a profile, a dump…)
 * and ends in a path's kind (`--test-reporter-destination`, `--cache-location`, `--cacheDirectory`,
 * `--results-directory`, `--report-dir`, `--cpu-prof-dir`, `--output-log`, `-Dsurefire.reportsDirectory`,
 * pytest's `-o cache_dir=`). Such options always take a value, so `--name value` is read too.
 */
const PLACES_OUTPUT = /(?:output|out|report|result|log|junit|html|lcov|xml|cache|temp|tmp|trace|prof|coverage|export|allure|artifact|snapshot|screenshot|video|dump|diagnostic|buildinfo)[\w.]*(?:dir|directory|destination|location|file|filename|path|folder|log)$/;
/** Names that say the path is read, whatever else they say (`--reporter-config-file`, `--snapshot-root-dir`, `--test-data-path`). */
const NAMES_AN_INPUT = /config|rc(?:file|path)|setup|ignore|env|include|exclude|input|source|root|fixture|template|baseline|schema|project|data/;
/** Of those, the ones that name a folder: everything written in it is the run's (`<dir>/**`). */
const NAMES_A_FOLDER = /(?:dir|directory|folder|repo\.local)$/;
/** `go test`'s own: `-o` is the test binary, the rest are profiles (elsewhere `-o` and `--trace` mean other things). */
/** Linters whose `-o FILE` is their report (`eslint -o report.json`). */
const SHORT_O_WRITES = new Set(['eslint', 'stylelint', 'markdownlint', 'tslint']);
const GO_OUTPUT_OPTION = /^(?:o|coverprofile|cpuprofile|memprofile|blockprofile|mutexprofile|trace|outputdir)$/;
/** node's profilers write into the working directory under names of their own. */
const NODE_PROFILERS = new Set(['--cpu-prof', '--heap-prof', '--prof', '--trace-events-enabled', '--trace-event-categories']);

/** The files node's options in `text` (NODE_OPTIONS) make every node process write: profiles, traces, reports, warnings. */
export function nodeOptionsWrite(fx: ShellEffects, text: string): void {
  const args = text.split(/\s+/).filter((word) => word !== '').map(literalArg);
  if (args.some((arg) => NODE_PROFILERS.has(arg.value.split('=')[0]!))) fx.write('node', everythingBelow(fx));
  writesOutputOptions(fx, 'node', args);
}

/** A word of a script's or task's name that says it runs tests (`test:unit`, `unit-test`, `e2e`, `spec`). */
const TEST_WORD = /^(?:tests?|specs?|e2e|unit|unittests?|testall|integration|itest)$/;
/** A word that says it changes what the tests expect or the code (`test:update`, `test:fix`, `test-u`). */
const CHANGES_WORD = /^(?:update|fix|write|format|fmt|snapshots?|u|gen|generate|regen|record|approve|accept|bless|baseline)$/i;

/**
 * `npm run lint -- --fix` as a call of the project's script `lint` with `--fix` appended, for the
 * daemon to read; undefined when the folder or a word is only known at run time.
 */
export function projectScriptCall(fx: ShellEffects, name: string, after: readonly Arg[]): ProjectScriptCall | undefined {
  if (!fx.cwdKnown) return undefined;
  const words = after[0]?.value === '--' ? after.slice(1) : after;
  if (words.some((word) => word.dynamic)) return undefined;
  return { source: 'package.json', name, folder: fx.cwd, extra: words.map((word) => `'${word.value.replaceAll("'", "'\\''")}'`).join(' ') };
}

/**
 * A shell script file of the project that the command runs (`bash scripts/check.sh`, `./x.sh`),
 * for the daemon to read; undefined when the file or the folder it runs in is only known at run
 * time, or the file is not in the project (one in `/tmp` could change between the read and the run).
 */
export function scriptFileCall(fx: ShellEffects, file: Arg, source: 'shell-file' | 'executable', args: readonly Arg[]): ProjectScriptCall | undefined {
  if (!fx.cwdKnown || file.dynamic) return undefined;
  const path = fx.path(file);
  if (path.dynamic || !isWithin(path.path, fx.projectRoot)) return undefined;
  // Its `$1`…: a word only known at run time stays unknown in the script (null).
  const extra = args.length === 0 ? '' : JSON.stringify(args.map((arg) => (arg.dynamic ? null : arg.value)));
  return { source, name: path.path, folder: fx.cwd, extra };
}

/**
 * Whether a project script or task is, by its name, a test run: its first or last word says tests
 * (`test:unit`, `unit-test`, `ci:test`; not `build-test-fixtures`) and none says it rewrites
 * anything. A test run is trusted with the project's code, as `npm test` is; `test:update-snapshots`
 * is a task gobby does not know.
 */
export function isTestScriptName(name: string): boolean {
  const words = name.split(/[:_.\-/]/);
  return (TEST_WORD.test(words[0]!) || TEST_WORD.test(words[words.length - 1]!)) && !nameSaysItChanges(name);
}

/** A script's or task's name with a word that says it changes files (`test-update`, `check:fix`). */
export function nameSaysItChanges(name: string): boolean {
  return name.split(/[:_.\-/]/).some((word) => CHANGES_WORD.test(word));
}

/**
 * A test run (`runner` as the user would name it), and a write of the project when it rewrites
 * its expectations, or of the paths its output options name (`--outputFile=x`, `--junitxml x`,
 * `go test -o bin`, `--basetemp=dir`, `--cov-report=html:dir`).
 */
export function runsTests(fx: ShellEffects, program: string, runner: string, args: readonly Arg[]): void {
  const run: ShellEffect = { kind: 'test_run', runner, program };
  if (statusSaysNothingOfTests(program, args)) fx.hidingStatus(() => fx.emit(run));
  else fx.emit(run);
  loadsForeignCode(fx, program, runner, args);
  if (args.some((arg) => rewritesExpectations(arg.value, program))) fx.write(program, everythingBelow(fx));
  if (program === 'node' && args.some((arg) => NODE_PROFILERS.has(arg.value.split('=')[0]!))) fx.write(program, everythingBelow(fx));
  writesOutputOptions(fx, program, args);
}

/**
 * The files and folders a run's options say it writes: reports, logs, caches, profiles (see
 * OUTPUT_OPTION and PLACES_OUTPUT), `-D<property>=<path>` for Maven and Gradle, reporter options
 * (`--reporter-options output=x`), dotnet's `--logger "trx;LogFileName=x"`, pytest's `-o key=path`.
 */
export function writesOutputOptions(fx: ShellEffects, program: string, args: readonly Arg[]): void {
  const writesTo = (name: string, value: Arg): void => {
    // Stream names (`--test-reporter-destination=stdout`) are no files.
    if (value.value === 'stdout' || value.value === 'stderr') return;
    const folder = NAMES_A_FOLDER.test(name);
    fx.write(program, folder ? everythingBelow(fx, value) : value);
  };
  const pairs = (text: string, separator: RegExp): void => {
    for (const pair of text.split(separator)) {
      const eq = pair.indexOf('=');
      const key = pair.slice(0, eq).trim().toLowerCase().replace(/[-_]/g, '');
      if (eq > 0 && (OUTPUT_OPTION.test(key) || (PLACES_OUTPUT.test(key) && !NAMES_AN_INPUT.test(key)))) writesTo(key, literalArg(pair.slice(eq + 1).trim()));
    }
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.dynamic || !arg.value.startsWith('-')) continue;
    const eq = arg.value.indexOf('=');
    const spelled = (eq === -1 ? arg.value : arg.value.slice(0, eq)).replace(/^-+/, '').toLowerCase();
    const name = spelled.replaceAll('-', '');
    // pytest's `--debug[=FILE]` writes its debug log, `pytestdebug.log` when no file is named.
    if (name === 'debug' && program.startsWith('py')) {
      fx.write(program, eq !== -1 ? { value: arg.value.slice(eq + 1), dynamic: arg.dynamic, unknownAt: -1 } : literalArg('pytestdebug.log'));
      continue;
    }
    // `-Dsurefire.reportsDirectory=target/x`: a build property, named like an option.
    if (/^-D[\w.-]+=/.test(arg.value)) {
      pairs(arg.value.slice(2), /$^/);
      continue;
    }
    const value: Arg | undefined = eq !== -1 ? { value: arg.value.slice(eq + 1), dynamic: arg.dynamic, unknownAt: -1 } : args[i + 1];
    if (value === undefined || value.value === '' || value.value.startsWith('-') || value.dynamic) continue;
    if (spelled === 'basetemp') {
      fx.remove(program, everythingBelow(fx, value));
      fx.write(program, value);
    } else if (spelled === 'cov-report' || spelled === 'covreport') {
      // `html:DIR`, `xml:FILE`, …; `term:skip-covered` and `term-missing:skip-covered` only print.
      const colon = value.value.indexOf(':');
      if (colon !== -1 && !value.value.startsWith('term')) fx.write(program, { value: value.value.slice(colon + 1), dynamic: value.dynamic, unknownAt: -1 });
    } else if (name === 'coverage' && eq !== -1) {
      // deno's `--coverage=DIR` (the flag alone, or jest's `--coverage=true`, writes the default folder only).
      if (!/^(?:true|false)$/i.test(value.value)) fx.write(program, everythingBelow(fx, value));
    } else if (name === 'reporteroption' || name === 'reporteroptions' || (name === 'config' && program === 'cypress' && !value.value.trimStart().startsWith('{'))) pairs(value.value, /,/);
    else if (name === 'logger') pairs(value.value, /;/);
    else if ((name === 'o' || name === 'overrideini') && (program === 'pytest' || program === 'py.test' || program === 'python' || program === 'python3')) pairs(value.value, /$^/);
    else if (name === 'o' && program === 'rspec') fx.write(program, value);
    // Gradle's caches and its user home, downloads and all (named like inputs: `project`, `home`).
    else if ((program === 'gradle' || program === 'gradlew') && (name === 'projectcachedir' || name === 'gradleuserhome' || spelled === 'g')) fx.write(program, everythingBelow(fx, value));
    else if (OUTPUT_OPTION.test(name)) writesTo(name, value);
    else if (program === 'go' && GO_OUTPUT_OPTION.test(spelled)) fx.write(program, value);
    else if (PLACES_OUTPUT.test(name) && !NAMES_AN_INPUT.test(name)) writesTo(name, value);
  }
}

/**
 * Options with which a test run loads code of the caller's choosing (lower-cased, dashes dropped):
 * npm's script shell and node options, config files, setup and global-setup files, preloaded
 * modules, custom reporters, environments, transforms, runners, pytest plugins. A bare name is a
 * package (`--reporter dot`, `-p xdist`); a path names a file.
 */
const CODE_OPTION = /^(?:testreporter|scriptshell|nodeoptions|userconfig|globalconfig|config|c|configfile|setupfiles|setupfilesafterenv|globalsetup|globalteardown|require|r|import|loader|experimentalloader|testrunner|testenvironment|environment|reporter|reporters|transform|preset|resolver|snapshotresolver|testsequencer|watchplugins|p|plugin|plugins|rootdir|f|file|makefile|prefix|dir|cwd|directory|rulesdir|resolvepluginsrelativeto|rcfile|configpath|pluginsearchdir|project|loadplugins|manifestpath|bootstrap|testdir|workdir|gemfile|initscript|buildfile|settingsfile|projectdir)$/;
/** In a make variable given on the command line: a function that runs a command or defines rules, or shell syntax for the recipe line it lands in. */
const MAKE_CODE_IN_VALUE = /[;|&`\n]|\$[({](?:shell|eval|file|call|value|guile)\b/;
/** Runs every test binary through a program (`go test -exec`), or sets what runs them (`cargo --config target.*.runner=…`). */
const RUNS_A_PROGRAM = /^(?:exec|toolexec)$/;
/** make's own variables that pick the shell recipes run in, given on its command line. */
/** `SHELL=x`, and make's other assignment operators (`SHELL:=x`, `SHELL::=x`, `SHELL+=x`, `SHELL?=x`, `SHELL!=cmd`). */
const MAKE_SHELL_VARIABLE = /^(?:SHELL|\.SHELLFLAGS|MAKEFLAGS|MAKEFILES|MAKESHELL)\s*(?::{1,3}|[+?!])?=/;

/**
 * A test run, a linter or a formatter that would run code from outside the project (its folder, a
 * config file that is code, a plugin, a setup file) is opaque: the agent may have written it there
 * a moment ago, in a phase that keeps it out of the project only.
 */
export function loadsForeignCode(fx: ShellEffects, program: string, label: string, args: readonly Arg[]): void {
  const foreign = codeFromOutsideTheProject(fx, program, args);
  if (foreign) fx.opaque(`${label} ${foreign}: code there may be the agent's own, and ${label} runs it`, program);
}

/**
 * Why a command that runs the project's code would run code from outside the project, or undefined. Inside the project, code
 * is what the phase before left there (the agent cannot change it while the phase restricts
 * writes); outside, in `/tmp` or a home folder, the agent may have written it a moment ago.
 */
function codeFromOutsideTheProject(fx: ShellEffects, program: string, args: readonly Arg[], where = true): string | undefined {
  // The system's folders are not the agent's to write in such a phase (`--python-executable /usr/bin/python3`).
  const outside = (path: string) => !isWithin(path, fx.projectRoot) && !isSystemPath(path) && path !== '/dev/null';
  if (where && fx.cwdKnown && outside(fx.cwd)) return `runs in ${fx.cwd}, outside the project`;
  // After a cd that may not have run, or to a folder only known at run time: each place it may run.
  if (where && !fx.cwdKnown) {
    if (fx.cwdAnywhere) return 'runs in a folder only known at run time';
    const here = fx.path(HERE);
    const elsewhere = [here.path, ...(here.elsewhere ?? [])].find(outside);
    if (elsewhere !== undefined) return `may run in ${elsewhere}, outside the project`;
  }
  const make = program === 'make' || program === 'gmake';
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.dynamic) {
      // Test files named by a glob outside the project (`pytest /tmp/*.py`), not an option's value. (Text
      // only known at run time is not counted: `pytest $(git diff --name-only)` names the project's files.)
      const previous = i > 0 ? args[i - 1]! : undefined;
      if (previous !== undefined && previous.value.startsWith('-') && !previous.value.includes('=')) continue;
      if (arg.unknownAt === -1 && /^(?:\/|~\/|\.\.)/.test(arg.value) && outside(fx.path(arg).path)) return `runs ${fx.path(arg).path}, outside the project`;
      continue;
    }
    if (make && MAKE_SHELL_VARIABLE.test(arg.value)) return `is given ${/^[\w.]+/.exec(arg.value)![0]}, the shell its recipes run in`;
    // `pytest @/tmp/args`, `javac @~/opts`: more arguments, read from a file the agent may have written.
    if (arg.value.charCodeAt(0) === 64 && /^@(?:\/|~\/|\.\.)/.test(arg.value)) {
      const file = fx.path(sliceArg(arg, 1)).path;
      if (outside(file)) return `reads more arguments from ${file}, outside the project`;
    }
    if (!arg.value.startsWith('-')) {
      // A test file or folder named by its path (`pytest /tmp/test_x.py`, `node --test ../x.mjs`),
      // unless it is the value of an option that names an output (`--basetemp /tmp/x`).
      const previous = i > 0 ? args[i - 1]!.value : '';
      const isOutput = previous.startsWith('-') && !previous.includes('=') && takesOutputPath(previous, program);
      // Bazel's, Buck's and Pants' targets are labels of the workspace (`//...`, `//pkg:test`, `@repo//x`), not paths.
      const label = LABELLED_TARGETS.has(program) && /^(?:\/\/|@)/.test(arg.value);
      if (!isOutput && !label && /^(?:\/|~\/|\.\.)/.test(arg.value) && outside(fx.path(arg).path)) return `runs ${fx.path(arg).path}, outside the project`;
      // `deno test https://…/x_test.ts`: test code fetched from the network, or written in the argument.
      if (program === 'deno' && MODULE_URL.test(arg.value)) return `runs ${arg.value.slice(0, 60)}, code from outside the project`;
      if (!make) continue;
      // `make test CC=/tmp/x.sh`: a variable set to a file outside the project.
      const assigned = /^[A-Za-z_][A-Za-z0-9_]*=(.+)$/s.exec(arg.value)?.[1];
      // `make test CC='$(shell rm -rf src)'`, `CC='rm -rf src;'`: make functions that run commands, or a command line the recipes run.
      if (assigned !== undefined && MAKE_CODE_IN_VALUE.test(assigned)) return `is given ${arg.value.split('=')[0]}, make code or a command line its recipes run`;
      if (assigned !== undefined && /^[~./]/.test(assigned) && outside(fx.path({ value: assigned, dynamic: false, unknownAt: -1 }).path)) return `is given ${arg.value}`;
      continue;
    }
    // `ruby -I/tmp test/x_test.rb`, `node -r/tmp/x.js --test`, `pytest -c/tmp/x.ini`: a short
    // option with its path glued on, as getopt reads it (an output, `-o/tmp/x`, is no code).
    const glued = GLUED_SHORT_PATH.exec(arg.value);
    if (glued && !takesOutputPath(`-${glued[1]!}`, program)) {
      const path = fx.path({ value: glued[2]!, dynamic: false, unknownAt: -1 }).path;
      if (outside(path)) return `loads ${path} (-${glued[1]!}), outside the project`;
    }
    const eq = arg.value.indexOf('=');
    const name = (eq === -1 ? arg.value : arg.value.slice(0, eq)).replace(/^-+/, '').replaceAll('-', '').toLowerCase();
    // A glob's text stands for what it matches (`--config /tmp/*.js`); other text only known at run time is not read.
    const next = args[i + 1];
    const value = eq !== -1 ? arg.value.slice(eq + 1) : next?.dynamic === true && next.unknownAt !== -1 ? undefined : next?.value;
    const outsideCode = (name === 'nodeoptions' || name === 'execargv' || name === 'nodeoption') && value !== undefined ? nodeOptionsLoadOutside(value.replace(/,/g, ' '), fx) : undefined;
    if (outsideCode !== undefined) return `is given ${arg.value.split('=')[0]} that ${outsideCode}`;
    // pytest's `-o pythonpath=/tmp/x`, `-o addopts='-p plugin'`, `-o testpaths=/tmp/t` (whose conftest.py it imports): a search path,
    // more options, or tests of the caller's choosing.
    if ((name === 'o' || name === 'overrideini') && program.startsWith('py') && value !== undefined && /^\s*(?:addopts|pythonpath|python_files|required_plugins|testpaths)\s*=/.test(value)) {
      const [key, setting] = value.split('=', 2) as [string, string];
      if (key.trim() === 'addopts' || setting.split(/\s+/).some((entry) => /^(?:\/|~|\.\.)/.test(entry) && !isWithin(fx.path(literalArg(entry)).path, fx.projectRoot))) return `is given -o ${value}, which can load code from anywhere`;
    }
    // go's `-vettool=/tmp/x`, `-ldflags=-extld=/tmp/x`, `-toolexec`: a program to run.
    if (program === 'go' && (name === 'vettool' || (name === 'ldflags' && /extld|linker/.test(value ?? '')))) return `is given ${arg.value.split('=')[0]}, which names a program to run`;
    // `-DargLine=-javaagent:/tmp/a.jar`, `-Dorg.gradle.jvmargs=…`: JVM options for the test JVM.
    if (arg.value.startsWith('-D') && /javaagent|agentpath|agentlib/.test(arg.value)) return `is given ${arg.value}, which loads code into the tests' JVM`;
    if (RUNS_A_PROGRAM.test(name) && program === 'go') return `runs its test binaries through \`${value ?? ''}\``;
    if (name === 'config' && program === 'cargo' && value?.includes('=')) return `is given --config ${value}, which can name a program to run`;
    // `cypress run --config supportFile=/tmp/x.js,specPattern=/tmp/**`: settings that name code to load or specs to run.
    if (name === 'config' && program === 'cypress' && value?.includes('=') === true && !value.trimStart().startsWith('{')) {
      for (const pair of value.split(',')) {
        const eqAt = pair.indexOf('=');
        const key = pair.slice(0, eqAt).trim();
        const setting = pair.slice(eqAt + 1).trim();
        if (eqAt > 0 && /^(?:\/|~\/|\.\.)/.test(setting) && !takesOutputPath(key, program) && outside(fx.path(literalArg(setting)).path)) return `loads ${fx.path(literalArg(setting)).path} (--config ${key}), outside the project`;
      }
    }
    // `--roots=/tmp/x`, `--env-file=~/x`: a path outside the project, given to an option that is no
    // output, is code or configuration the run may load (the `--name path` form is read as an operand above).
    if (eq !== -1 && /^(?:\/|~\/|\.\.)/.test(value ?? '') && !takesOutputPath(arg.value.slice(0, eq), program) && !/ignore|exclude|deselect/.test(name)) {
      const path = fx.path({ value: value!, dynamic: false, unknownAt: -1 }).path;
      if (outside(path)) return `loads ${path} (${arg.value.slice(0, eq)}), outside the project`;
    }
    if (!CODE_OPTION.test(name) || value === undefined || value === '' || value.startsWith('-')) continue;
    // `go list -f '{{.Dir}}'`: go's -f is an output template.
    if (program === 'go' && name === 'f') continue;
    if (MODULE_URL.test(value)) return `is given ${name} code written in the option itself or fetched (${value.slice(0, 40)}…)`;
    // `--config file:///tmp/v.js`: a file by its URL.
    const file = localFileOfUrl(value);
    if (file !== undefined && outside(normalizeAbsolute(file))) return `loads ${file} (${name}), outside the project`;
    if (value.startsWith('{')) return `is given an inline ${name} that can load any file`;
    if (/^[~./]/.test(value) || value.includes('/')) {
      const path = fx.path({ value, dynamic: false, unknownAt: -1 }).path;
      if (outside(path)) return `loads ${path} (${arg.value.startsWith('--') ? arg.value.split('=')[0] : arg.value}), outside the project`;
    }
  }
  return undefined;
}

/** Build tools whose targets are written as workspace labels (`//pkg:test`). */
const LABELLED_TARGETS: ReadonlySet<string> = new Set(['bazel', 'bazelisk', 'buck2', 'buck', 'pants']);

/**
 * Options for a runner given in a variable (`PYTEST_ADDOPTS="-x -q"`, `GOFLAGS=-count=1`), read
 * as that runner reads them on its command line: the files they write (`--junitxml=F`,
 * `-coverprofile=F`, a snapshot update), and why they would load code from outside the project,
 * or undefined. Where the runner runs is judged where it runs.
 */
export function runnerOptionsEffects(fx: ShellEffects, program: string, args: readonly Arg[]): string | undefined {
  if (args.some((arg) => rewritesExpectations(arg.value, program))) fx.write(program, everythingBelow(fx));
  writesOutputOptions(fx, program, args);
  return codeFromOutsideTheProject(fx, program, args, false);
}

/** A one-letter option and a path glued to it: `-I/tmp`, `-r~/x.js`, `-c../cfg.ini`. */
const GLUED_SHORT_PATH = /^-([A-Za-z])((?:\/|~\/|\.\.).*)$/s;

/**
 * Whether a file a program loads as code or configuration (a kubeconfig, an OpenSSL engine, a
 * shell for hyperfine) may be the agent's: not in the project, the system's folders or the home's
 * dot folders, which a phase that restricts file changes keeps the agent from writing.
 */
export function mayBeAgentsFile(fx: ShellEffects, file: Arg): boolean {
  const ref = fx.path(file);
  if (file.dynamic || ref.dynamic) return true;
  return !isWithin(ref.path, fx.projectRoot) && !isSystemPath(ref.path) && !inHomeDotFolder(ref.path, fx.home);
}

/** Whether a test runner's option names where it writes (its value is an output, not code). */
function takesOutputPath(option: string, program: string): boolean {
  const name = option.replace(/^-+/, '').toLowerCase();
  const joined = name.replaceAll('-', '');
  return name === 'basetemp' || name === 'cov-report' || name === 'coverage' || (name === 'o' && SHORT_O_WRITES.has(program)) || OUTPUT_OPTION.test(joined) || (PLACES_OUTPUT.test(joined) && !NAMES_AN_INPUT.test(joined)) || (program === 'go' && GO_OUTPUT_OPTION.test(name));
}

/** True when every argument only asks for a version or help text. */
export function onlyAsksVersion(args: readonly Arg[]): boolean {
  return args.length > 0 && args.every((arg) => !arg.dynamic && VERSION_FLAGS.has(arg.value));
}

const VERSION_FLAGS = new Set(['--version', '-V', '-v', '--help', '-h', '-version', 'version', '--help-all']);

/**
 * Tools with subcommands whose help only prints: `git commit --help`, `go help test`, `docker
 * network --help`. `--help` must come first or right after the subcommand, before anything the
 * tool could hand on (`docker run img --help` runs the image; `npx pkg --help` fetches and runs it,
 * so the package runners are not here), and `help` must be the first word.
 */
const PRINTS_SUBCOMMAND_HELP = new Set([
  'git', 'go', 'cargo', 'rustup', 'npm', 'pnpm', 'yarn', 'bun', 'deno', 'docker', 'podman', 'kubectl', 'helm', 'gh', 'pip', 'pip3',
  'poetry', 'uv', 'dotnet', 'terraform', 'composer', 'bundle', 'gem', 'brew', 'mvn', 'gradle', 'gradlew', 'conda', 'cmake', 'ctest',
]);

export function onlyAsksHelp(program: string, args: readonly Arg[]): boolean {
  // `gobby workflow phase --help`: gobby's own CLI prints a command's help when it ends in --help, and runs nothing.
  // Only subcommand words before it: after an option (`--reason --help`) it may be that option's value.
  if (program === 'gobby' && args.length > 0 && args.length <= 4 && /^(?:--help|-h)$/.test(args[args.length - 1]!.value) && args.slice(0, -1).every((arg) => !arg.dynamic && /^\w[\w-]*$/.test(arg.value))) return true;
  if (args.length === 0 || args.length > 3) return false;
  const first = args[0]!.value;
  const second = args[1]?.value;
  // Hot path: no help word where one would be.
  if (first !== '--help' && first !== 'help' && second !== '--help' && second !== '-h' && second !== '-help') return false;
  if (args.some((arg) => arg.dynamic)) return false;
  // `split --help`: a program given only --help prints its help, whatever else it does.
  if (args.length === 1 && first === '--help') return true;
  // `git commit -h`: git's subcommands print their usage.
  if (program === 'git' && args.length === 2 && !first.startsWith('-')) return true;
  // terraform's subcommands take `-help` (`terraform init -help`).
  const asks = first === 'help' || first === '--help' || ((second === '--help' || (second === '-help' && program === 'terraform')) && !first.startsWith('-'));
  return asks && PRINTS_SUBCOMMAND_HELP.has(program);
}

export function entries(handle: ProgramHandler, ...names: readonly string[]): [string, ProgramEntry][] {
  return names.map((name) => [name, { handle }]);
}
