// What a program's entry in the knowledge tables receives and may do. Handlers are data-like:
// they read the argument vector and report effects; they never see the parse tree.
import { parseArgv, type OptionSpec, type ParsedArgv } from './argv.js';
import { isWithin } from './paths.js';
import type { PathRef, ShellEffect, SignalTarget } from './types.js';
import type { Arg } from './words.js';

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
  /** Absolute: the project's root. What is outside it may have been written by the agent in any phase. */
  readonly projectRoot: string;
  /** What a here-doc or here-string feeds the command, when that is fixed text. */
  readonly stdin: Arg | undefined;
  path(arg: Arg): PathRef;
  read(program: string, target: Arg | PathRef): void;
  /**
   * Reads what is in every file below `target` (`grep -r`, `rg`, `tar -c`, `zip -r`, `scp -r`):
   * recorded as a read of `<target>/**`, so a guard sees a protected file inside that tree.
   */
  readTree(program: string, target: Arg | PathRef): void;
  /** `export NAME=value`: the variable as later words of the same shell see it. */
  setVariable(name: string, value: Arg): void;
  write(program: string, target: Arg | PathRef): void;
  remove(program: string, target: Arg | PathRef): void;
  move(program: string, from: Arg | PathRef, to: Arg | PathRef): void;
  copy(program: string, from: Arg | PathRef, to: Arg | PathRef): void;
  network(program: string, target: string): void;
  signal(program: string, target: string, by: SignalTarget): void;
  emit(effect: ShellEffect): void;
  opaque(why: string, program?: string): void;
  /** A named program or project task the tables do not know. */
  unknown(program: string): void;
  /** Classifies the command a prefix runs (`env X=1 rm f` → `rm f`). */
  run(args: readonly Arg[], options?: { readonly stdinArgs?: boolean }): void;
  /** Re-parses literal shell code (`bash -c '…'`, `eval …`); code built at run time is opaque. */
  runShellCode(code: Arg, program: string, sameShell: boolean): void;
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

/** Operands plus the run-time ones, so `xargs rm` still reports a (dynamic) delete. */
export function operandsOf(parsed: ParsedArgv, site: CommandSite): Arg[] {
  return site.stdinArgs ? [...parsed.operands, RUN_TIME_OPERAND] : [...parsed.operands];
}

export const noEffect: ProgramHandler = () => {};

/**
 * A read-only program whose operands (after `skip` data operands such as a pattern) are files it
 * reads. `withoutOperands`: what it reads when given none, the working directory (`tree`) or
 * everything below it (`ag`), which a searcher also reads below each operand.
 */
export function readsOperands(spec: OptionSpec = {}, skip = 0, withoutOperands?: 'cwd' | 'tree'): ProgramHandler {
  return (site, fx) => {
    const parsed = parseArgv(site.args, spec);
    const files = operandsOf(parsed, site).slice(skip);
    const read = withoutOperands === 'tree' ? fx.readTree : fx.read;
    for (const file of files) if (file.value !== '-') read.call(fx, site.program, file);
    if (files.length === 0 && withoutOperands !== undefined) read.call(fx, site.program, { path: fx.cwd, dynamic: !fx.cwdKnown });
  };
}

export function writesOperands(spec: OptionSpec = {}, skip = 0): ProgramHandler {
  return (site, fx) => {
    for (const file of operandsOf(parseArgv(site.args, spec), site).slice(skip)) fx.write(site.program, file);
  };
}

export function deletesOperands(spec: OptionSpec = {}): ProgramHandler {
  return (site, fx) => {
    for (const file of operandsOf(parseArgv(site.args, spec), site)) fx.remove(site.program, file);
  };
}

/**
 * Flags that make a test run rewrite what the tests expect (snapshot and golden files) instead of
 * checking it: such a run changes project files. `-u` only for the runners where it means that
 * (mocha's `-u` picks an interface), and for `npm test -- -u`, whose runner is not known.
 */
const REWRITES_EXPECTATIONS = new Set(['--update', '--updateSnapshot', '--update-snapshots', '--snapshot-update', '--force-regen', '--inline-snapshot=fix', '--inline-snapshot=create', '--inline-snapshot=update']);
const SHORT_UPDATE_RUNNERS = new Set(['vitest', 'jest', 'playwright', 'npm', 'pnpm', 'yarn', 'bun']);

/**
 * Options of test runners that name a file or folder the run writes (lower-cased, dashes dropped):
 * reports, profiles, build output. `--basetemp` is a folder pytest empties first.
 */
const OUTPUT_OPTION = /^(?:outputfile(?:\..+)?|outputdir|output|junitxml|junit|resultlog|html|jsonreportfile|outputdirectory|coveragedirectory|coverage\.reportsdirectory|targetdir|reportdir|reportsdir)$/;
/** `go test`'s own: `-o` is the test binary, the rest are profiles (elsewhere `-o` and `--trace` mean other things). */
const GO_OUTPUT_OPTION = /^(?:o|coverprofile|cpuprofile|memprofile|blockprofile|mutexprofile|trace|outputdir)$/;

/**
 * A test run (`runner` as the user would name it), and a write of the project when it rewrites
 * its expectations, or of the paths its output options name (`--outputFile=x`, `--junitxml x`,
 * `go test -o bin`, `--basetemp=dir`, `--cov-report=html:dir`).
 */
export function runsTests(fx: ShellEffects, program: string, runner: string, args: readonly Arg[]): void {
  fx.emit({ kind: 'test_run', runner, program });
  loadsForeignCode(fx, program, runner, args);
  if (args.some((arg) => REWRITES_EXPECTATIONS.has(arg.value) || (arg.value === '-u' && SHORT_UPDATE_RUNNERS.has(program)))) {
    fx.write(program, { path: `${fx.cwd}/**`, dynamic: true });
  }
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.dynamic || !arg.value.startsWith('-')) continue;
    const eq = arg.value.indexOf('=');
    const name = (eq === -1 ? arg.value : arg.value.slice(0, eq)).replace(/^-+/, '').toLowerCase();
    const value: Arg | undefined = eq !== -1 ? { value: arg.value.slice(eq + 1), dynamic: false, unknownAt: -1 } : args[i + 1];
    if (value === undefined || value.value === '' || value.value.startsWith('-')) continue;
    if (name === 'basetemp') {
      fx.remove(program, { path: `${fx.path(value).path}/**`, dynamic: true });
      fx.write(program, value);
    } else if (name === 'cov-report' || name === 'covreport') {
      const colon = value.value.indexOf(':');
      if (colon !== -1) fx.write(program, { value: value.value.slice(colon + 1), dynamic: value.dynamic, unknownAt: -1 });
    } else if (OUTPUT_OPTION.test(name.replaceAll('-', '')) || (program === 'go' && GO_OUTPUT_OPTION.test(name))) {
      fx.write(program, value);
    }
  }
}

/**
 * Options with which a test run loads code of the caller's choosing (lower-cased, dashes dropped):
 * npm's script shell and node options, config files, setup and global-setup files, preloaded
 * modules, custom reporters, environments, transforms, runners, pytest plugins. A bare name is a
 * package (`--reporter dot`, `-p xdist`); a path names a file.
 */
const CODE_OPTION = /^(?:scriptshell|nodeoptions|userconfig|globalconfig|config|c|configfile|setupfiles|setupfilesafterenv|globalsetup|globalteardown|require|r|import|loader|experimentalloader|testrunner|testenvironment|environment|reporter|reporters|transform|preset|resolver|snapshotresolver|testsequencer|watchplugins|p|plugin|plugins|rootdir|f|file|makefile|prefix|dir|cwd|directory|rulesdir|resolvepluginsrelativeto|rcfile|configpath|pluginsearchdir|project|loadplugins|manifestpath|bootstrap|testdir|workdir|gemfile|initscript|buildfile|settingsfile|projectdir)$/;
/** Runs every test binary through a program (`go test -exec`), or sets what runs them (`cargo --config target.*.runner=…`). */
const RUNS_A_PROGRAM = /^(?:exec|toolexec)$/;
/** make's own variables that pick the shell recipes run in, given on its command line. */
const MAKE_SHELL_VARIABLE = /^(?:SHELL|\.SHELLFLAGS|MAKEFLAGS|MAKEFILES|MAKESHELL)=/;

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
function codeFromOutsideTheProject(fx: ShellEffects, program: string, args: readonly Arg[]): string | undefined {
  const outside = (path: string) => !isWithin(path, fx.projectRoot);
  if (fx.cwdKnown && outside(fx.cwd)) return `runs in ${fx.cwd}, outside the project`;
  const make = program === 'make' || program === 'gmake';
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.dynamic) continue;
    if (make && MAKE_SHELL_VARIABLE.test(arg.value)) return `is given ${arg.value.slice(0, arg.value.indexOf('='))}, the shell its recipes run in`;
    if (!arg.value.startsWith('-')) {
      // A test file or folder named by its path (`pytest /tmp/test_x.py`, `node --test ../x.mjs`),
      // unless it is the value of an option that names an output (`--basetemp /tmp/x`).
      const previous = i > 0 ? args[i - 1]!.value : '';
      const isOutput = previous.startsWith('-') && !previous.includes('=') && takesOutputPath(previous, program);
      // Bazel's targets are labels of the workspace (`//...`, `//pkg:test`, `@repo//x`), not paths.
      const label = (program === 'bazel' || program === 'bazelisk') && /^(?:\/\/|@)/.test(arg.value);
      if (!isOutput && !label && /^(?:\/|~\/|\.\.)/.test(arg.value) && outside(fx.path(arg).path)) return `runs ${fx.path(arg).path}, outside the project`;
      if (!make) continue;
      // `make test CC=/tmp/x.sh`: a variable set to a file outside the project.
      const assigned = /^[A-Za-z_][A-Za-z0-9_]*=(.+)$/.exec(arg.value)?.[1];
      if (assigned !== undefined && /^[~./]/.test(assigned) && outside(fx.path({ value: assigned, dynamic: false, unknownAt: -1 }).path)) return `is given ${arg.value}`;
      continue;
    }
    const eq = arg.value.indexOf('=');
    const name = (eq === -1 ? arg.value : arg.value.slice(0, eq)).replace(/^-+/, '').replaceAll('-', '').toLowerCase();
    const value = eq !== -1 ? arg.value.slice(eq + 1) : args[i + 1]?.dynamic ? undefined : args[i + 1]?.value;
    if (RUNS_A_PROGRAM.test(name) && program === 'go') return `runs its test binaries through \`${value ?? ''}\``;
    if (name === 'config' && program === 'cargo' && value?.includes('=')) return `is given --config ${value}, which can name a program to run`;
    if (!CODE_OPTION.test(name) || value === undefined || value === '' || value.startsWith('-')) continue;
    if (value.startsWith('{')) return `is given an inline ${name} that can load any file`;
    if (/^[~./]/.test(value) || value.includes('/')) {
      const path = fx.path({ value, dynamic: false, unknownAt: -1 }).path;
      if (outside(path)) return `loads ${path} (${arg.value.startsWith('--') ? arg.value.split('=')[0] : arg.value}), outside the project`;
    }
  }
  return undefined;
}

/** Whether a test runner's option names where it writes (its value is an output, not code). */
function takesOutputPath(option: string, program: string): boolean {
  const name = option.replace(/^-+/, '').toLowerCase();
  return name === 'basetemp' || name === 'cov-report' || OUTPUT_OPTION.test(name.replaceAll('-', '')) || (program === 'go' && GO_OUTPUT_OPTION.test(name));
}

/** True when every argument only asks for a version or help text. */
export function onlyAsksVersion(args: readonly Arg[]): boolean {
  return args.length > 0 && args.every((arg) => !arg.dynamic && VERSION_FLAGS.has(arg.value));
}

const VERSION_FLAGS = new Set(['--version', '-V', '-v', '--help', '-h', '-version', 'version', '--help-all']);

export function entries(handle: ProgramHandler, ...names: readonly string[]): [string, ProgramEntry][] {
  return names.map((name) => [name, { handle }]);
}
