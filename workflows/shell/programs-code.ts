// Programs that run other code: shells and `eval` (literal code is re-parsed and classified),
// interpreters (inline code, a script file or stdin is opaque), and the prefixes that run the
// command after them (env, sudo, timeout, xargs…), which are peeled so the real program is judged.
import { hasOption, lastOptionValue, optionValues, parseArgv, sliceArg, type OptionSpec, type ParsedArgv } from './argv.js';
import { entries, everythingBelow, filesNamedByData, guardedProgramOf, isTestScriptName, mayBeAgentsFile, nodeOptionsLoadOutside, nodeOptionsWrite, onlyAsksVersion, operandsOf, projectScriptCall, runnerOptionsEffects, runsTests, scriptFileCall, type CommandSite, type ProgramEntry, type ProgramHandler, type ShellEffects } from './program-kit.js';
import { dirName, isSystemPath, isWithin } from './paths.js';
import { programForPath } from './program-paths.js';
import { SHELLS_READ_AS_BASH } from './types.js';
import { literalArg, type Arg } from './words.js';

/** Environment variables that make a program load or run code of the setter's choosing. */
const CODE_INJECTING_VARIABLE =
  /^(?:RSYNC_RSH|RSYNC_CONNECT_PROG|PARALLEL_SHELL|ZIPOPT|UNZIP|ERL_AFLAGS|ERL_ZFLAGS|LUA_INIT(?:_\d_\d)?|CGO_(?:C|CPP|CXX|F|LD)FLAGS|PATH|LD_\w+|DYLD_\w+|BASH_ENV|ENV|PROMPT_COMMAND|SHELLOPTS|BASHOPTS|PS4|CDPATH|NODE_OPTIONS|NODE_PATH|PYTHONSTARTUP|PYTHONPATH|PYTHONHOME|PYTHONINSPECT|PYTHONUSERBASE|PERL5OPT|PERL5LIB|PERLLIB|PERL5DB|RUBYOPT|RUBYLIB|GIT_\w+|EDITOR|VISUAL|PAGER|MANPAGER|GIT_PAGER|SSH_ASKPASS|SUDO_ASKPASS|LESSOPEN|LESSCLOSE|BROWSER|BASH_FUNC_\S*|npm_config_\w+|NPM_CONFIG_\w+|YARN_\w+|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS|JAVA_OPTS|DENO_\w+|BUN_\w+|MAKEFLAGS|MAKEFILES|TERMINFO|HOME|XDG_CONFIG_HOME|XDG_CONFIG_DIRS|XDG_DATA_HOME|XDG_DATA_DIRS|PIP_CONFIG_FILE|PYTEST_ADDOPTS|PYTEST_PLUGINS|CARGO_HOME|CARGO_\w+|RUSTC_WRAPPER|RUSTC_WORKSPACE_WRAPPER|RUSTFLAGS|RUSTDOCFLAGS|GOFLAGS|GOENV|GCONV_PATH|LOCPATH|GIO_MODULE_DIR|GIO_EXTRA_MODULES|GTK_PATH|QT_PLUGIN_PATH|LUA_PATH|LUA_CPATH|TCLLIBPATH|GEM_PATH|GEM_HOME|GOPATH|TAR_OPTIONS|CURL_HOME|WGETRC|RIPGREP_CONFIG_PATH|MAVEN_OPTS|MAVEN_ARGS|GRADLE_OPTS|DOTNET_STARTUP_HOOKS|DOTNET_ROOT|BUNDLE_GEMFILE|COVERAGE_RCFILE|COVERAGE_PROCESS_START|RUSTUP_TOOLCHAIN|RUSTUP_HOME|UV_PYTHON|VIRTUAL_ENV|CONDA_PREFIX|PIPENV_PIPFILE|POETRY_\w+|BAT_PAGER|GH_PAGER|DELTA_PAGER|SYSTEMD_PAGER|COMPILER_PATH|GCC_EXEC_PREFIX|JAVA_HOME|CLASSPATH|KUBECONFIG|AWS_CONFIG_FILE|AWS_SHARED_CREDENTIALS_FILE|OPENSSL_CONF|OPENSSL_ENGINES|OPENSSL_MODULES|GOROOT|GOWORK|GOTOOLCHAIN|GOPROXY|ZDOTDIR|PSQLRC|MYSQL_HOME|GH_BROWSER|PYTHONBREAKPOINT|PYTHONWARNINGS|DOCKER_CONFIG|HELM_PLUGINS|TF_CLI_CONFIG_FILE|GRADLE_USER_HOME|PHPRC|PHP_INI_SCAN_DIR|R_PROFILE|R_PROFILE_USER|R_ENVIRON_USER|R_LIBS|R_LIBS_USER|JULIA_LOAD_PATH|JULIA_DEPOT_PATH|IRBRC|VIMINIT|EXINIT|MYVIMRC|EMACSLOADPATH|HGRCPATH|SBT_OPTS|ANT_OPTS|NODE_REPL_EXTERNAL_MODULE|PIP_\w+|UV_\w+|CMAKE_TOOLCHAIN_FILE|CFLAGS|CXXFLAGS|CPPFLAGS|LDFLAGS|FFLAGS)$/;
/**
 * Variables that name a program to run (`CC=clang`, `SHELL=/bin/bash`): a bare name is looked up on
 * PATH, like any command; a path (`CC=/tmp/x.sh`) is a file the agent may have written.
 */
const PROGRAM_VARIABLE = /^(?:SHELL|CONFIG_SHELL|RUSTC|CC|CXX|CPP|FC|LD|AR|AS)$/;

/**
 * Variables that start Claude Code as `--bare`, `--safe-mode` or `--restricted` do (read from the
 * binary of 2.1.330): a `claude` started with one of them set runs without the user's hooks. And
 * `CLAUDE_CODE_SHELL_PREFIX`: a program every Bash command of that `claude` runs through, after
 * its hooks have judged the command.
 */
export const HOOKLESS_CLAUDE_VARIABLES: ReadonlySet<string> = new Set(['CLAUDE_CODE_SIMPLE', 'CLAUDE_CODE_SAFE_MODE', 'CLAUDE_CODE_RESTRICTED', 'CLAUDE_CODE_SHELL_PREFIX']);

/**
 * Reports an assignment whose variable changes which code later commands run, or that starts a
 * nested Claude Code without hooks (reported as such whether or not `claude` runs in the same
 * command: an exported variable reaches every `claude` started after it).
 */
/** `index`: the subscript, as rendered, of an array element's assignment (`BASH_CMDS[ls]=…`), when fixed. */
export function checkAssignment(name: string, fx: ShellEffects, value?: Arg, index?: string): void {
  // A system program (`SHELL=/bin/bash`) is as trusted as the bare name; the system's folders are protected.
  const namesAFile = value === undefined || value.dynamic || (value.value.includes('/') && !/^\/(?:usr\/(?:local\/)?)?s?bin\/[^/]+$/.test(value.value));
  // A folder a test run also loads code from (`PYTHONPYCACHEPREFIX`: compiled modules) is code too, not only output.
  const loadsCode = LOADS_FROM_PATH_VARIABLES.has(name) || (CODE_INJECTING_VARIABLE.test(name) && !OUTPUT_FOLDER_VARIABLES.has(name));
  if ((loadsCode && !seenThrough(name, fx, value)) || (PROGRAM_VARIABLE.test(name) && namesAFile)) fx.opaque(`setting ${name} changes which code the commands run`);
  if (HOOKLESS_CLAUDE_VARIABLES.has(name)) fx.emit({ kind: 'nested_claude', flags: [name], program: 'claude' });
  // `env 'BASH_FUNC_ls%%=() { rm -rf x; }' bash -c ls`: a function every child bash imports, run in place of that program.
  const exportedFunction = /^BASH_FUNC_(.+)%%$/.exec(name);
  if (exportedFunction) {
    fx.redefineProgramName(exportedFunction[1]);
    if (value !== undefined) fx.runShellCode({ ...value, value: value.value.replace(/^\(\)\s*/, '') }, name, false);
  }
  // `http_proxy=127.0.0.1:7377 curl example.com`: every request of the programs run with it goes to the proxy.
  if (value !== undefined && !value.dynamic && value.value !== '' && PROXY_VARIABLE.test(name)) fx.network(name, value.value);
  if (name === 'IFS' && value !== undefined && !value.dynamic) fx.splitsFieldsOn(value.value);
  // GLOBIGNORE, set to anything, makes globs match dot names as dotglob does.
  if (name === 'GLOBIGNORE') fx.widenGlobs('dotGlob');
  // `BASHOPTS=dotglob:globstar bash -c …`: a bash started with it has those options set.
  if ((name === 'BASHOPTS' || name === 'SHELLOPTS') && value !== undefined) widenGlobsByNames(fx, value);
  // `BASH_CMDS[ls]=/bin/rm` hashes a name to a file; `BASH_ALIASES[ls]='rm -rf'` makes an alias.
  if (name === 'BASH_CMDS' || name === 'BASH_ALIASES') {
    fx.redefineProgramName(index);
    fx.opaque(`setting ${name} changes what a program's name runs`);
  }
  if (REWRITES_EXPECTATIONS_VARIABLE.test(name) && (value === undefined || value.dynamic || !/^(?:0|no|false|never|off|)$/i.test(value.value))) fx.write(name, everythingBelow(fx));
  // `DEPENDENCIES_OUTPUT=deps.d gcc …`: the compiler writes its dependency list there.
  if ((name === 'DEPENDENCIES_OUTPUT' || name === 'SUNPRO_DEPENDENCIES') && value !== undefined && value.value !== '') fx.write(name, { ...value, value: value.value.split(' ')[0]! });
  if ((OUTPUT_FILE_VARIABLES.has(name) || OUTPUT_FILE_VARIABLE_SHAPE.test(name)) && value !== undefined && value.value !== '' && value.value !== '/dev/null' && value.value !== '-') fx.write(name, value);
  // Variables that tell the programs run with them where to write (`NODE_V8_COVERAGE=dir npm test`).
  // A switch named like one (`PIP_NO_CACHE_DIR=1`) names no folder.
  const folder = (OUTPUT_FOLDER_VARIABLES.has(name) || (OUTPUT_FOLDER_VARIABLE_SHAPE.test(name) && !/(?:^|_)NO_/.test(name))) && !systemTempFolder(name, value, fx) ? value : undefined;
  // `NODE_OPTIONS='--cpu-prof --cpu-prof-dir=.claude'`: node's options that write, in every node process the command starts.
  if (name === 'NODE_OPTIONS' && value !== undefined && !value.dynamic) nodeOptionsWrite(fx, value.value);
  if (folder && folder.value !== '') fx.write(name, folder.dynamic ? folder : everythingBelow(fx, folder));
}

/** The proxy variables curl, wget, git, pip, npm and most HTTP libraries follow (either case). */
const PROXY_VARIABLE = /^(?:https?|all|ftp|socks|wss?|rsync)_proxy$/i;

/** Variables whose value is a command that the program run with them starts (`GIT_PAGER=cat git log`). */
const COMMAND_VARIABLES = new Set(['RSYNC_RSH', 'RSYNC_CONNECT_PROG', 'PARALLEL_SHELL', 'PAGER', 'MANPAGER', 'GIT_PAGER', 'EDITOR', 'VISUAL', 'GIT_EDITOR', 'GIT_SEQUENCE_EDITOR', 'GIT_SSH_COMMAND', 'BROWSER', 'GH_BROWSER', 'BAT_PAGER', 'GH_PAGER', 'DELTA_PAGER', 'SYSTEMD_PAGER']);
/** Compiler flags that make and build scripts pass on. */
const C_FLAGS_VARIABLE = /^(?:CGO_)?(?:CFLAGS|CXXFLAGS|CPPFLAGS|LDFLAGS|FFLAGS)$/;
/**
 * Variables naming a file or folder whose code a test run or build loads or runs (`RUSTDOC` for
 * `cargo test`, `CHROME_BIN` for karma, `TS_NODE_PROJECT`, Python's compiled-module folder): one
 * of the project's or the system's is seen through, one the agent may have written is not.
 */
const LOADS_FROM_PATH_VARIABLES = new Set(['RUSTDOC', 'PKG_CONFIG', 'MIX_EXS', 'TS_NODE_PROJECT', 'TS_NODE_COMPILER', 'CHROME_BIN', 'CHROME_PATH', 'PUPPETEER_EXECUTABLE_PATH', 'CYPRESS_RUN_BINARY', 'PLAYWRIGHT_BROWSERS_PATH', 'PYTHONPYCACHEPREFIX']);
/**
 * Search paths for code and programs (`PYTHONPATH=src pytest`, `PATH=./node_modules/.bin:$PATH`), and
 * files or folders of code and configuration (`BUNDLE_GEMFILE=Gemfile.ci`, `VIRTUAL_ENV=.venv`):
 * seen through when they name the project's or the system's.
 */
const SEARCH_PATH_VARIABLES = new Set([
  'PATH', 'PYTHONPATH', 'NODE_PATH', 'PERL5LIB', 'PERLLIB', 'RUBYLIB', 'GEM_HOME', 'GEM_PATH', 'GOPATH', 'BUNDLE_GEMFILE', 'COVERAGE_RCFILE', 'COVERAGE_PROCESS_START', 'VIRTUAL_ENV', 'CONDA_PREFIX', 'PIPENV_PIPFILE', 'RIPGREP_CONFIG_PATH', 'CURL_HOME', 'WGETRC', 'RUSTUP_HOME', 'DOTNET_ROOT',
  // A toolchain, a class path, a configuration file that can name programs (kubeconfig's exec plugins, AWS's credential_process, OpenSSL's engines).
  'JAVA_HOME', 'CLASSPATH', 'GOROOT', 'GOWORK', 'KUBECONFIG', 'AWS_CONFIG_FILE', 'AWS_SHARED_CREDENTIALS_FILE', 'OPENSSL_CONF', 'OPENSSL_ENGINES', 'OPENSSL_MODULES', 'ZDOTDIR', 'PSQLRC', 'MYSQL_HOME', 'DOCKER_CONFIG', 'HELM_PLUGINS', 'TF_CLI_CONFIG_FILE', 'GRADLE_USER_HOME', 'PHPRC', 'PHP_INI_SCAN_DIR', 'R_PROFILE', 'R_PROFILE_USER', 'R_ENVIRON_USER', 'R_LIBS', 'R_LIBS_USER', 'JULIA_LOAD_PATH', 'JULIA_DEPOT_PATH', 'IRBRC', 'MYVIMRC', 'HGRCPATH', 'CMAKE_TOOLCHAIN_FILE',
]);
/** git's and cargo's variables that carry data, not code, paths or configuration. */
const GIT_DATA_VARIABLE = /^(?:GIT_(?:(?:AUTHOR|COMMITTER)_(?:NAME|EMAIL|DATE)|TERMINAL_PROMPT|OPTIONAL_LOCKS|FLUSH|LFS_SKIP_SMUDGE|MERGE_AUTOEDIT)|CARGO_(?:TERM_\w+|INCREMENTAL|BUILD_JOBS|NET_OFFLINE|NET_RETRY|PROFILE_\w+_DEBUG))$/;
/** git's trace variables print to stderr when set to a number or a boolean; a path makes them write that file. */
const GIT_TRACE_VARIABLE = /^GIT_TRACE\w*$/;

/**
 * Whether a variable that could change which code runs is set, here, to something gobby can see
 * through: a command it judges in its own right (`PAGER=cat`), a search path of folders in the
 * project or the system's (`PYTHONPATH=src`; the project's code is what the phase before left
 * there), node options that load no code, or git's data. Anything else, or a value only known at
 * run time, is opaque: `PATH=/tmp/evil:$PATH` would run the agent's own programs.
 */
function seenThrough(name: string, fx: ShellEffects, value: Arg | undefined): boolean {
  if (GIT_DATA_VARIABLE.test(name)) return true;
  if (value === undefined) return false;
  if (GIT_TRACE_VARIABLE.test(name)) return !value.dynamic && /^(?:\d|true|false|yes|no|on|off)?$/i.test(value.value);
  if (value.value === '') return true; // emptied: nothing of the agent's is named
  // A bare name (`TS_NODE_COMPILER=typescript`) is a package or program found as any other.
  if (LOADS_FROM_PATH_VARIABLES.has(name)) return !value.dynamic && (!/[/~]/.test(value.value) || projectOrSystem(fx, value.value));
  if (COMMAND_VARIABLES.has(name)) {
    if (value.dynamic) return false;
    fx.runShellCode(value, name, false);
    return true;
  }
  if (SEARCH_PATH_VARIABLES.has(name)) {
    // The variable's own earlier value (`:$PATH`) adds nothing new; every other entry must be a fixed folder of the project's or the system's.
    return value.value.split(':').every((entry) => entry === `$${name}` || entry === `\${${name}}` || (entry !== '' && !/[$`*?[]/.test(entry) && projectOrSystem(fx, entry)));
  }
  // `RUSTFLAGS='-D warnings'` tunes the compiler; a linker, a plugin or a path (`-C linker=/tmp/x`) runs code.
  if (name === 'RUSTFLAGS' || name === 'RUSTDOCFLAGS') return !value.dynamic && !/link|plugin|[/~]|-Z/.test(value.value);
  // `CFLAGS=-O2` tunes the compiler; `-fplugin=`, `-B DIR`, `-wrapper`, `-specs=`, `-Xclang -load` load or run code.
  if (C_FLAGS_VARIABLE.test(name)) return !value.dynamic && !/plugin|(?:^|\s)-B|-wrapper|-specs|-load|--ld-path|-fuse-ld=\//.test(value.value);
  // Data for pip and uv (`PIP_NO_CACHE_DIR=1`, `UV_NO_PROGRESS=1`), not where they install from or what they run.
  if (/^(?:PIP|UV)_/.test(name)) return !value.dynamic && !/^(?:PIP|UV)_(?:\w*INDEX\w*|FIND_LINKS|CONFIG_FILE|REQUIRE\w*|CONSTRAINT|PYTHON\w*|TARGET|PREFIX|ROOT|SRC|EXTRA\w*|TOOL\w*|CACHE_DIR|PROJECT\w*|SCRIPT\w*|INSTALL_DIR|OVERRIDE)$/.test(name);
  const runner = RUNNER_OPTION_VARIABLES[name];
  if (runner !== undefined) return !value.dynamic && runnerOptionsSeenThrough(runner, name, value.value, fx);
  return name === 'NODE_OPTIONS' && !value.dynamic && nodeOptionsLoadOutside(value.value, fx) === undefined;
}

/**
 * Variables whose value is more options for one runner (`PYTEST_ADDOPTS="-x -q"`, `GOFLAGS=-count=1`,
 * `MAVEN_OPTS=-Xmx2g`, the JVM's option variables): read as that runner's options. `loads` picks out
 * the ones that load or run code whatever their value (pytest's `-p plugin`, go's `-toolexec`,
 * `-mod=mod`, which fetches; a JVM's `-javaagent`); `shape` is what every word must look like (the
 * JVM's options are few and regular, and some launch scripts `eval` them, so a shell character is no option).
 */
interface RunnerOptions {
  readonly program: string;
  readonly loads: RegExp;
  readonly shape?: RegExp;
  /** How the runner splits the value: shell-like words (pytest's shlex), or at white space only. */
  readonly quoted: boolean;
}
/** The JVM options that tune memory, the compiler and properties: `-Xmx2g`, `-XX:+UseG1GC`, `-XX:MaxMetaspaceSize=512m`, `-Dfile.encoding=UTF-8`, `-ea`. */
const JVM_OPTION = /^(?:-X(?:m[sxn]|ss)\d+[kKmMgGtT]?|-XX:[+-]\w+|-XX:\w+=[\w.%+-]*|-D[\w.-]+(?:=[\w.,:%+@-]*)?|-(?:ea|da|esa|dsa|server|client|Xint|Xrs|Xshare:\w+|verbose:\w+)(?::[\w.]+)?)$/;
/** Of those, the ones that load code, run a command or name a file: agents, boot class paths, `-XX:OnError=`, a class loader or manager, Maven's extensions, a configuration or home, the daemon's own JVM options. */
const JVM_LOADS = /agent|bootclasspath|^-XX:(?:On|Flags|VMOptions|CompileCommand|\w*(?:File|Path|Dir|Log|Dump)\w*)|^-XX:[+-]\w*(?:Dump|Log|Record|Attach|Agent)|^-D(?:[\w.-]*\.)?(?:[\w-]*(?:agent|classpath|loader|manager|library|plugins?|exec|command|script|init|jvmargs|opts|args|toolchain|provider|engine|policy)[\w-]*|class|path|ext|dirs|conf|config|home|repo|local|settings)(?:\.|=|$)/i;
const JVM_RUNNER = (program: string): RunnerOptions => ({ program, loads: JVM_LOADS, shape: JVM_OPTION, quoted: false });
const RUNNER_OPTION_VARIABLES: Readonly<Record<string, RunnerOptions>> = {
  // pytest splits PYTEST_ADDOPTS as a shell would; `-p NAME` (not `-p no:NAME`) loads a plugin, `--pyargs` imports packages by name.
  PYTEST_ADDOPTS: { program: 'pytest', loads: /^(?:-[a-oq-zA-Z]*p(?!no:).|--(?:pyargs|plugins?|override-ini|confcutdir|rootdir)|-o$|-c$|--config-file)/, quoted: true },
  // go's flags, each one word (`-flag=value`): a program to run each tool or binary through, another go.mod or overlay, precompiled packages, modules fetched (`-mod=mod`).
  GOFLAGS: { program: 'go', loads: /^--?(?:toolexec|exec|vettool|overlay|modfile|pkgdir|C|compiler|gccgoflags|linkshared|mod=mod|buildmode=(?:plugin|shared)|(?:ld|gc|asm)flags=.*(?:extld|linker|plugin|\/))/, shape: /^--?\w[\w.-]*(?:=\S*)?$/, quoted: false },
  MAVEN_OPTS: JVM_RUNNER('mvn'),
  GRADLE_OPTS: JVM_RUNNER('gradle'),
  JAVA_OPTS: JVM_RUNNER('java'),
  JAVA_TOOL_OPTIONS: JVM_RUNNER('java'),
  _JAVA_OPTIONS: JVM_RUNNER('java'),
  JDK_JAVA_OPTIONS: JVM_RUNNER('java'),
};

/** A runner's options given in a variable, seen through when none loads code (see RunnerOptions). */
function runnerOptionsSeenThrough(runner: RunnerOptions, name: string, value: string, fx: ShellEffects): boolean {
  const words = runner.quoted ? shellWords(value) : value.trim().split(/\s+/).filter((word) => word !== '');
  if (words === undefined) return false;
  if (words.some((word) => runner.loads.test(word) || (runner.shape !== undefined && !runner.shape.test(word)))) return false;
  // `-p plugin` as two words: the plugin is the next word.
  if (runner.program === 'pytest' && words.some((word, i) => /^-[a-oq-zA-Z]*p$/.test(word) && words[i + 1]?.startsWith('no:') !== true)) return false;
  const reason = runnerOptionsEffects(fx, runner.program, words.map(literalArg));
  if (reason !== undefined) fx.opaque(`${name} ${reason}`);
  return true;
}

/** The words of a value split as a shell (and Python's shlex) would, quotes removed; undefined when it holds an expansion, an escape or an unclosed quote. */
function shellWords(text: string): string[] | undefined {
  if (/[$`\\]/.test(text)) return undefined;
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1);
      if (end === -1) return undefined;
      word = (word ?? '') + text.slice(i + 1, end);
      i = end;
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else word = (word ?? '') + c;
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** A folder or file of the project, the system's, or the home's dot folders: not the agent's to have written in such a phase. */
function projectOrSystem(fx: ShellEffects, folder: string): boolean {
  return !mayBeAgentsFile(fx, literalArg(folder));
}

/**
 * `TMPDIR=$TMP pytest`, `TEMP=$TMPDIR …`: the system's temporary folder as the session inherited
 * it, where temporary files go anyway (Claude Code's Bash calls keep no variables from one to the
 * next). A value the command itself set renders as that value, or as more than the bare reference.
 */
function systemTempFolder(name: string, value: Arg | undefined, fx: ShellEffects): boolean {
  const reference = value !== undefined && value.dynamic ? /^\$(?:\{(TMPDIR|TMP|TEMP|TEMPDIR)\}|(TMPDIR|TMP|TEMP|TEMPDIR))$/.exec(value.value) : null;
  if (reference === null) return false;
  const inherited = (reference[1] ?? reference[2])!;
  // Named anywhere else, the command may have set it (`read -r TMP < f`); `TMPDIR=$TMPDIR` names it once, here.
  return fx.bareMentions(inherited) <= (inherited === name ? 1 : 0);
}

/** Variables naming a file the program run with them writes (a history, a profile, a seed file). */
const OUTPUT_FILE_VARIABLES = new Set(['HISTFILE', 'LESSHISTFILE', 'PYTHON_HISTORY', 'NODE_REPL_HISTORY', 'SQLITE_HISTORY', 'MYSQL_HISTFILE', 'PSQL_HISTORY', 'RANDFILE', 'LLVM_PROFILE_FILE', 'JEST_JUNIT_OUTPUT_FILE']);
/** And by shape: a name that says it places a report, a log, coverage or a trace in a file (`COVERAGE_FILE`, `PLAYWRIGHT_JSON_OUTPUT_NAME`, `MOCHA_FILE`). */
const OUTPUT_FILE_VARIABLE_SHAPE = /(?:OUTPUT|REPORT|RESULTS?|LOG|COVERAGE|JUNIT|TRACE|PROFILE|DUMP|MOCHA)_(?:\w+_)?(?:FILE|NAME|FILENAME|PATH)$/;
/** … or in a folder (`PLAYWRIGHT_HTML_OUTPUT_DIR`, `ALLURE_RESULTS_DIR`), caches and temporary files included (`MYPY_CACHE_DIR`, `RUFF_CACHE_DIR`, `PRE_COMMIT_HOME` is named otherwise). */
const OUTPUT_FOLDER_VARIABLE_SHAPE = /(?:OUTPUT|REPORTS?|RESULTS?|LOGS?|COVERAGE|TRACES?|PROFILES?|DUMPS?|ARTIFACTS?|CACHE|TE?MP)_(?:DIR|DIRECTORY|FOLDER|PATH)$/;
/** Variables naming a folder where the program run with them writes files of its own naming (`TMPDIR`: its temporary files). */
const OUTPUT_FOLDER_VARIABLES = new Set(['TMPDIR', 'TEMP', 'TMP', 'XDG_CACHE_HOME', 'XDG_STATE_HOME', 'PYTEST_DEBUG_TEMPROOT', 'NODE_V8_COVERAGE', 'NODE_COMPILE_CACHE', 'PYTHONPYCACHEPREFIX', 'JEST_JUNIT_OUTPUT_DIR', 'COVERAGE_DIR', 'CARGO_TARGET_DIR', 'GOCACHE', 'GOTMPDIR', 'GCOV_PREFIX', 'CCACHE_DIR']);
/**
 * Variables with which test libraries rewrite the expectations they check (snapshots, goldens,
 * the expected text in the sources): `UPDATE_EXPECT=1 cargo test`, `INSTA_UPDATE=always`. Set to
 * anything but an explicit no, the run changes the project.
 */
const REWRITES_EXPECTATIONS_VARIABLE = /^(?:UPDATE_EXPECT|INSTA_UPDATE|INSTA_FORCE_PASS|TRYBUILD|SNAPSHOT_TESTING_RECORD|UPDATE_SNAPSHOTS?|UPDATE_GOLDENS?|GOLDEN_UPDATE|SNAPSHOT_UPDATE|REGENERATE_SNAPSHOTS|BLESS|CI_UPDATE_SNAPSHOTS)$/;

/** Joins literal words into one code string, as `eval` and `watch` do; undefined when a word is dynamic. */
function joinLiteral(args: readonly Arg[]): Arg | undefined {
  if (args.some((arg) => arg.dynamic)) return undefined;
  return literalArg(args.map((arg) => arg.value).join(' '));
}

function runJoined(args: readonly Arg[], program: string, fx: ShellEffects, sameShell: boolean): void {
  if (args.length === 0) return;
  const code = joinLiteral(args);
  if (code) fx.runShellCode(code, program, sameShell);
  else {
    fx.opaque(`${program} runs code built at run time`, program);
    // Run in this shell, that code may have set any variable.
    if (sameShell) fx.forgetVariables();
  }
}

/** The shell options named in `value` (`dotglob:globstar`, `globdots`) that widen globs; a name only known at run time may be any. */
function widenGlobsByNames(fx: ShellEffects, value: Arg): void {
  if (value.dynamic || /dotglob|globdots/i.test(value.value)) fx.widenGlobs('dotGlob');
  if (value.dynamic || /globstar/i.test(value.value)) fx.widenGlobs('globStar');
  if (value.dynamic || /nocaseglob/i.test(value.value)) fx.widenGlobs('noCase');
}

const shell: ProgramHandler = (site, fx) => {
  const args = site.args;
  // zsh's `**/` goes any depth without an option (and `setopt globdots` takes dot names in).
  if (site.program === 'zsh') fx.widenGlobs('globStar');
  let runsString = false;
  let readsStdin = false;
  // `bash -n x.sh` only checks the syntax (an interactive shell, `-i`, ignores -n).
  let noExec = false;
  let interactive = false;
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.dynamic) {
      fx.opaque(`${site.program} is given options built at run time`, site.program);
      return;
    }
    const value = arg.value;
    if (value === '--' || value === '-') {
      i++;
      break;
    }
    if (value.startsWith('--')) {
      if (value === '--no-execute') noExec = true;
      if (['--rcfile', '--init-file'].includes(value)) {
        fx.opaque(`${site.program} ${value} runs the commands in \`${args[i + 1]?.value ?? ''}\``, site.program);
        i++;
      }
      continue;
    }
    if (!value.startsWith('-') && !value.startsWith('+')) break;
    for (const letter of value.slice(1)) {
      if (letter === 'c') runsString = true;
      else if (letter === 's') readsStdin = true;
      else if (letter === 'n' && value.startsWith('-')) noExec = true;
      else if (letter === 'i') interactive = true;
      else if (letter === 'o' || letter === 'O') {
        if (args[i + 1]?.value === 'noexec' && value.startsWith('-')) noExec = true;
        // `bash -O dotglob -O globstar -c …`, `zsh -o globdots`: the code's globs follow them.
        if (value.startsWith('-') && args[i + 1] !== undefined) widenGlobsByNames(fx, args[i + 1]!);
        i++;
      }
    }
  }
  if (noExec && !interactive) {
    if (!runsString && i < args.length && !readsStdin) fx.read(site.program, args[i]!);
    return;
  }
  if (runsString) {
    const code = args[i];
    if (code) fx.runShellCode(code, site.program, false);
    else fx.opaque(`${site.program} -c without code`, site.program);
    return;
  }
  if (i < args.length && !readsStdin) {
    fx.read(site.program, args[i]!);
    fx.opaque(`${site.program} runs the script \`${args[i]!.value}\``, site.program, SHELLS_READ_AS_BASH.has(site.program) ? scriptFileCall(fx, args[i]!, 'shell-file', args.slice(i + 1)) : undefined);
    return;
  }
  if (onlyAsksVersion(args)) return;
  // `bash <<'EOF' … EOF` runs fixed text: judge it like `bash -c`.
  if (fx.stdin && !site.stdinArgs) fx.runShellCode(fx.stdin, site.program, false);
  else fx.opaque(`${site.program} reads the commands to run from its input`, site.program);
};

interface InterpreterSpec {
  /** Options whose presence means code is given inline (`-c`, `-e`). */
  readonly inline: readonly string[];
  readonly options: OptionSpec;
  /** Options whose value names code to load before the script (`node -r x`, `perl -Mx`). */
  readonly preload?: readonly string[];
  /** Options that write the operand files in place (`perl -i`, `ruby -i`). */
  readonly inPlace?: boolean;
  /** Options that only check the syntax of the files, running nothing (`php -l`, `ruby -c`). */
  readonly checkOnly?: readonly string[];
  /** Flags with which the interpreter only prints about itself and runs nothing (`php -m`, `php -i`). */
  readonly informs?: readonly string[];
}

/** Runners that take node's options and its `--test`. */
const NODE_LIKE = new Set(['tsx', 'ts-node', 'esno', 'babel-node']);

function interpreter(spec: InterpreterSpec): ProgramHandler {
  const options: OptionSpec = { ...spec.options, stopAtOperand: true };
  return (site, fx) => {
    if (site.args.length === 0 || onlyAsksVersion(site.args)) {
      if (site.args.length === 0) fx.opaque(`${site.program} reads the code to run from its input`, site.program);
      return;
    }
    if (spec.informs !== undefined && site.args.length > 0 && site.args.every((arg) => !arg.dynamic && spec.informs!.includes(arg.value))) return;
    const parsed = parseArgv(site.args, options);
    const operands = site.args.slice(parsed.rest);
    // `tsx --test`, `ts-node --test`: node's test runner, through a TypeScript loader.
    if (NODE_LIKE.has(site.program) && hasOption(parsed, '--test')) {
      runsTests(fx, site.program, `${site.program} --test`, site.args);
      return;
    }
    if (spec.checkOnly !== undefined && hasOption(parsed, ...spec.checkOnly) && !parsed.options.some((option) => spec.inline.includes(option.name) || (spec.preload ?? []).includes(option.name))) {
      for (const file of operands) fx.read(site.program, file);
      return;
    }
    for (const preload of spec.preload ?? []) {
      for (const value of optionValues(parsed, preload)) fx.opaque(`${site.program} ${preload} loads \`${value.value}\` before running`, site.program);
    }
    const inlineGiven = parsed.options.some((option) => spec.inline.includes(option.name));
    if (spec.inPlace && site.args.some((arg) => /^-[a-zA-Z]*i/.test(arg.value) && !arg.value.startsWith('--'))) {
      for (const file of operands.slice(inlineGiven ? 0 : 1)) fx.write(site.program, file);
    }
    if (inlineGiven) {
      fx.opaque(`${site.program} runs inline code`, site.program);
      return;
    }
    const script = operands[0];
    if (!script || script.value === '-') fx.opaque(`${site.program} reads the code to run from its input`, site.program);
    else if (runsFrameworkTests(script, operands[1], fx)) {
      fx.read(site.program, script);
      runsTests(fx, site.program, `${site.program} ${script.value} test`, operands.slice(2));
    } else if (isProjectTestFile(script, fx)) {
      // `python3 tests/test_api.py`, `ruby -Itest test/user_test.rb`, `node test/a.test.js`: the
      // project's test, run by its interpreter, as its test runner would run it.
      fx.read(site.program, script);
      runsTests(fx, site.program, `${site.program} ${script.value}`, site.args);
    } else {
      fx.read(site.program, script);
      // `node --experimental-vm-modules node_modules/.bin/jest`, `node node_modules/typescript/bin/tsc`: a tool the project installed, judged as that tool.
      const tool = site.program === 'node' || NODE_LIKE.has(site.program) ? projectPackageTool(script, fx) : undefined;
      if (tool !== undefined) {
        fx.run([literalArg(tool), ...operands.slice(1)]);
        return;
      }
      // `php vendor/bin/phpunit`, `python3 .venv/bin/pytest -q`, `ruby bin/rails test`: a launcher the
      // tables know, in the project's tool folder or the system's, does what it does when run itself.
      const launcher = script.dynamic ? undefined : programForPath(script.value, isWithin(fx.path(script).path, fx.projectRoot));
      if (launcher !== undefined && fx.knows(launcher)) {
        fx.run([literalArg(launcher), ...operands.slice(1)]);
        return;
      }
      fx.opaque(`${site.program} runs the file \`${script.value}\``, site.program);
      const guarded = guardedProgramOf(script);
      if (guarded !== undefined) fx.run([literalArg(guarded), ...operands.slice(1)]);
    }
  };
}

/** Standard modules run with -m that print what they are given (`python -m dis x.py`, `python -m uuid`): their operands are read. */
const PYTHON_READING_MODULES = new Set(['this', 'site', 'platform', 'sysconfig', 'tokenize', 'calendar', 'dis', 'ast', 'filecmp', 'mimetypes', 'uuid', 'pickletools', 'tabnanny', 'pyclbr', 'symtable', 'sysconfig', 'locale', 'encodings', 'json']);
/** Standard modules that run or import the code they are given: `timeit` its statements, `inspect` the module it shows, `cProfile`/`trace`/`pdb` a script. */
const PYTHON_CODE_MODULES = new Set(['timeit', 'inspect', 'cProfile', 'profile', 'trace', 'pdb', 'runpy', 'code', 'doctest']);

/** `python -m mypy src` is `mypy src`: tools the tables know by their program name. */
const PYTHON_TOOL_MODULES = new Set(['mypy', 'pylint', 'flake8', 'pyflakes', 'pycodestyle', 'black', 'isort', 'ruff', 'pyright', 'coverage']);

/**
 * Standard modules run with -m that write: `json.tool IN OUT` writes OUT, `py_compile` and
 * `compileall` write `__pycache__` folders next to what they compile.
 */
const PYTHON_MODULES_THAT_WRITE: Readonly<Record<string, (operands: readonly Arg[], fx: ShellEffects, program: string) => void>> = {
  // `pydoc -w name` writes name.html here; without -w it prints. A path (`pydoc /tmp/x.py`) is imported: its code runs.
  pydoc: (operands, fx, program) => {
    if (operands.some((arg) => arg.value === '-w')) fx.write(program, { path: `${fx.cwd}/*.html`, dynamic: true });
    const file = operands.find((arg) => arg.dynamic || arg.value.includes('/') || arg.value.endsWith('.py'));
    if (file !== undefined) fx.opaque(`${program} -m pydoc imports \`${file.value}\`, which runs its code`, program);
  },
  // `json.tool [--indent N] IN OUT`: the value of `--indent` is no file.
  'json.tool': (args, fx, program) => {
    const [input, output] = parseArgv(args, { long: ['indent'] }).operands;
    if (input && input.value !== '-') fx.read(program, input);
    if (output) fx.write(program, output);
  },
  py_compile: (operands, fx, program) => {
    for (const file of operands) fx.write(program, { path: `${dirName(fx.path(file).path)}/__pycache__/*`, dynamic: true });
  },
  compileall: (operands, fx, program) => {
    for (const dir of operands.length > 0 ? operands : [literalArg('.')]) fx.write(program, everythingBelow(fx, dir));
  },
  // `-e ARCHIVE DIR` unpacks (the archive picks the names; tarfile keeps absolute ones on older pythons); `-c` creates, `-l`/`-t` list.
  zipfile: (operands, fx, program) => unpackingModule(operands, fx, program, ['-e', '--extract']),
  tarfile: (operands, fx, program) => unpackingModule(operands, fx, program, ['-e', '--extract'], true),
};

/** Modules whose handlers read their own options. */
const OPTIONS_MATTER = new Set(['pydoc', 'zipfile', 'tarfile', 'json.tool']);

/** `keepsAnyName`: absolute and `../` member names land where they point (tarfile before Python 3.14 extracts with no filter). */
function unpackingModule(operands: readonly Arg[], fx: ShellEffects, program: string, extract: readonly string[], keepsAnyName = false): void {
  const at = operands.findIndex((arg) => extract.includes(arg.value));
  if (at !== -1) {
    const [archive, folder] = operands.slice(at + 1);
    if (archive) fx.read(program, archive);
    fx.write(program, filesNamedByData(fx, keepsAnyName ? literalArg('/') : folder ?? literalArg('.')));
    return;
  }
  const create = operands.findIndex((arg) => arg.value === '-c' || arg.value === '--create');
  if (create === -1) return;
  const [archive, ...files] = operands.slice(create + 1);
  if (archive) fx.write(program, archive);
  for (const file of files) fx.readTree(program, file);
}

const pythonInterpreter = interpreter({ inline: ['-c'], options: { short: 'cmWXQ' } });

/**
 * Where python's own options end: at `-m MODULE` (what follows is the module's: `python -m pytest
 * -c pytest.ini`), at `-c CODE`, or at the script. Undefined unless a module comes first.
 */
function pythonModule(args: readonly Arg[]): { readonly module: Arg; readonly rest: readonly Arg[] } | undefined {
  for (let i = 0; i < args.length; i++) {
    const value = args[i]!.value;
    if (args[i]!.dynamic || !value.startsWith('-') || value === '-' || value === '--') return undefined;
    // A cluster of short options (`-um`, `-mpytest`): the first of m, c, W, X, Q takes the rest or the next word.
    const taking = /[mcWXQ]/.exec(value.slice(1));
    if (taking === null || value.startsWith('--')) continue;
    const glued = value.slice(taking.index + 2);
    if (taking[0] === 'c') return undefined;
    if (taking[0] !== 'm') {
      if (glued === '') i++;
      continue;
    }
    const module = glued === '' ? args[i + 1] : { ...args[i]!, value: glued };
    return module === undefined ? undefined : { module, rest: args.slice(glued === '' ? i + 2 : i + 1) };
  }
  return undefined;
}

/** Frameworks whose manage script runs the project's tests: `python manage.py test`, `python -m django test`, `php artisan test`. */
const FRAMEWORK_TEST_SCRIPTS = new Set(['manage.py', 'artisan', 'django']);

/** java's options that take the next word (its options are words of one dash: `-version`, `-Xmx2g`, `-Dk=v`). */
const JAVA_VALUE_OPTIONS = new Set(['-cp', '-classpath', '--class-path', '-p', '--module-path', '--add-modules', '--upgrade-module-path', '--limit-modules', '--enable-native-access', '-splash']);

/**
 * java runs a class (`java -cp build Main`), a jar (`-jar app.jar`), a module (`-m app/Main`) or
 * a source file (`java Hello.java`); with only options (`-version`, `-Xmx2g -version`,
 * `-XshowSettings:properties -version`) it prints and runs nothing.
 */
const java: ProgramHandler = (site, fx) => {
  const args = site.args;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.dynamic) {
      fx.opaque('java is given an argument built at run time', site.program);
      return;
    }
    if (arg.value === '-jar' || arg.value === '-m' || arg.value === '--module') {
      const target = args[i + 1];
      if (target && arg.value === '-jar') fx.read(site.program, target);
      fx.opaque(`java runs ${arg.value === '-jar' ? 'the jar' : 'the module'} \`${target?.value ?? ''}\``, site.program);
      return;
    }
    // An agent or a handler loads or runs code before anything else, even with `-version`.
    if (/^-(?:javaagent|agentlib|agentpath|XX:On\w*=)/.test(arg.value)) {
      fx.opaque(`java ${arg.value.split(/[:=]/)[0]} loads or runs code of its own`, site.program);
      return;
    }
    if (JAVA_VALUE_OPTIONS.has(arg.value)) i++;
    else if (!arg.value.startsWith('-')) {
      if (arg.value.endsWith('.java')) fx.read(site.program, arg);
      fx.opaque(`java runs \`${arg.value}\``, site.program);
      return;
    }
  }
};

/** A test file of the project, by its name: `test_x.py`, `x_test.rb`, `x_test.go`, `x.test.js`, `x.spec.ts`, `x_spec.rb`. */
function isProjectTestFile(script: Arg, fx: ShellEffects): boolean {
  if (script.dynamic) return false;
  const path = fx.path(script);
  return !path.dynamic && isWithin(path.path, fx.projectRoot) && TEST_FILE_NAME.test(path.path.slice(path.path.lastIndexOf('/') + 1));
}

const TEST_FILE_NAME = /^test_[^/]+\.\w+$|^[^/]+(?:_test|\.test|\.spec|_spec)\.\w+$/;

/** `manage.py test`, `artisan test`: the project's own script, asked to run the project's tests. */
function runsFrameworkTests(script: Arg, command: Arg | undefined, fx: ShellEffects): boolean {
  if (script.dynamic || command?.value !== 'test' || command.dynamic) return false;
  const path = fx.path(script);
  return FRAMEWORK_TEST_SCRIPTS.has(path.path.slice(path.path.lastIndexOf('/') + 1)) && !path.dynamic && isWithin(path.path, fx.projectRoot);
}

const python: ProgramHandler = (site, fx) => {
  const chosen = pythonModule(site.args);
  if (chosen !== undefined) {
    const { module, rest } = chosen;
    if (module.dynamic) fx.opaque(`${site.program} -m runs a module named at run time`, site.program);
    else if (['pytest', 'unittest', 'nose', 'nose2', 'tox', 'doctest'].includes(module.value)) runsTests(fx, site.program, `${site.program} -m ${module.value}`, site.args);
    else if (PYTHON_CODE_MODULES.has(module.value)) fx.opaque(`${site.program} -m ${module.value} runs the code it is given`, site.program);
    else if (module.value === 'django' && rest[0]?.value === 'test') runsTests(fx, site.program, `${site.program} -m django test`, rest);
    else if (['pip', 'pip3', 'ensurepip'].includes(module.value)) fx.run([literalArg('pip'), ...rest]);
    else if (PYTHON_TOOL_MODULES.has(module.value)) fx.run([literalArg(module.value), ...rest]);
    else if (['venv', 'virtualenv'].includes(module.value)) for (const dir of rest.filter((arg) => !arg.value.startsWith('-'))) fx.write(site.program, dir);
    else if (PYTHON_MODULES_THAT_WRITE[module.value]) PYTHON_MODULES_THAT_WRITE[module.value]!(OPTIONS_MATTER.has(module.value) ? rest : rest.filter((arg) => !arg.value.startsWith('-')), fx, site.program);
    else if (module.value === 'sqlite3') fx.run([literalArg('sqlite3'), ...rest]);
    else if (PYTHON_READING_MODULES.has(module.value)) for (const file of rest.filter((arg) => !arg.value.startsWith('-'))) fx.read(site.program, file);
    else fx.unknown(`${site.program} -m ${module.value}`);
    return;
  }
  pythonInterpreter(site, fx);
};

const NODE_OPTIONS: OptionSpec = { short: 'rC', long: ['require', 'import', 'loader', 'experimental-loader', 'env-file', 'input-type', 'conditions', 'inspect-port', 'title', 'stack-size', 'eval', 'print'], stopAtOperand: true };

const nodeInterpreter = interpreter({ inline: ['-e', '--eval', '-p', '--print'], options: { short: 'rC', long: ['require', 'import', 'loader', 'experimental-loader', 'env-file', 'input-type', 'conditions', 'inspect-port', 'title', 'stack-size', 'eval', 'print'] }, preload: ['-r', '--require', '--import', '--loader', '--experimental-loader'] });

const node: ProgramHandler = (site, fx) => {
  // `--test` is node's only before the script: after it, it is the script's own argument (`node vite.js build -- --test`).
  const test = site.args.findIndex((arg) => arg.value === '--test');
  if (test !== -1 && test < parseArgv(site.args, NODE_OPTIONS).rest) {
    runsTests(fx, site.program, 'node --test', site.args);
    return;
  }
  // `node --run test` runs a script of package.json, as `npm run test` does.
  const run = site.args.findIndex((arg) => arg.value === '--run' || arg.value.startsWith('--run='));
  if (run !== -1) {
    const script = site.args[run]!.value.startsWith('--run=') ? { ...site.args[run]!, value: site.args[run]!.value.slice('--run='.length) } : site.args[run + 1];
    fx.run([literalArg('npm'), literalArg('run'), ...(script ? [script] : []), ...site.args.slice(run + 2)], { stdinArgs: site.stdinArgs });
    return;
  }
  const parsed = parseArgv(site.args, { short: 'rC', long: ['require', 'import', 'loader', 'experimental-loader', 'env-file', 'input-type', 'conditions', 'inspect-port', 'title', 'stack-size', 'eval', 'print'], stopAtOperand: true });
  if (hasOption(parsed, '-c', '--check')) {
    for (const file of site.args.slice(parsed.rest)) fx.read(site.program, file);
    return;
  }
  nodeInterpreter(site, fx);
};

/** Runtimes with subcommands: `deno test`, `bun run x`, … */
function runtime(table: Readonly<Record<string, 'test' | 'install' | 'write' | 'read' | 'opaque' | 'script'>>, inline: readonly string[]): ProgramHandler {
  return (site, fx) => {
    if (onlyAsksVersion(site.args)) return;
    // `bun x claude` is `bunx claude`; the options after the package are its own.
    if (site.program === 'bun' && site.args[0]?.value === 'x') {
      fx.run([literalArg('bunx'), ...site.args.slice(1)], { stdinArgs: site.stdinArgs });
      return;
    }
    if (site.args.some((arg) => inline.includes(arg.value))) {
      fx.opaque(`${site.program} runs inline code`, site.program);
      return;
    }
    // Options before the subcommand: bun's workspace filter and folder (`bun --filter web test`),
    // and what it loads before any of it (`bun --preload ./x.ts test`).
    const leading = parseArgv(site.args, RUNTIME_LEADING_OPTIONS);
    for (const loaded of optionValues(leading, '-r', '--preload', '--require', '--import')) fx.opaque(`${site.program} loads \`${loaded.value}\` before it runs`, site.program);
    const args = site.args.slice(leading.rest);
    const directory = lastOptionValue(leading, '--cwd');
    if (directory !== undefined) fx = fx.at(directory);
    const first = args[0];
    let action = first && !first.dynamic ? table[first.value] : undefined;
    if (action === 'write' && first?.value === 'fmt' && site.args.some((arg) => arg.value === '--check')) action = 'read';
    if (action === 'read' && first?.value === 'lint' && site.args.some((arg) => arg.value === '--fix')) action = 'write'; // `deno lint --fix`
    if (action === 'test') runsTests(fx, site.program, `${site.program} ${first!.value}`, site.args);
    else if (action === 'install') fx.emit({ kind: 'package_install', manager: site.program, program: site.program });
    else if (action === 'write') fx.write(site.program, everythingBelow(fx));
    else if (action === 'read') return;
    else if (action === 'script') runScript(site, fx, args.slice(1));
    else if (!first) fx.opaque(`${site.program} reads the code to run from its input`, site.program);
    else if (action === 'opaque' || /[./]/.test(first.value)) {
      const target = action === 'opaque' ? args.slice(1).find((arg) => !arg.value.startsWith('-')) ?? first : first;
      fx.opaque(`${site.program} ${action === 'opaque' ? `${first.value} ` : ''}runs \`${target.value}\``, site.program);
    }
    else runScript(site, fx, args);
  };
}

/** Options of bun and deno given before the subcommand, with the values they take. */
const RUNTIME_LEADING_OPTIONS: OptionSpec = { short: 'Frc', long: ['filter', 'cwd', 'config', 'env-file', 'preload', 'require', 'import', 'tsconfig-override', 'elide-lines', 'conditions', 'main-fields', 'define', 'loader'], stopAtOperand: true };

/** `bun run x`, `deno task x`: a test script is a test run; a file is opaque; another script is a named task. */
function runScript(site: CommandSite, fx: ShellEffects, args: readonly Arg[]): void {
  const parsed = parseArgv(args, RUNTIME_LEADING_OPTIONS);
  const name = args[parsed.rest];
  if (!name) return; // `bun run`, `deno task` alone list the scripts
  if (name.dynamic) fx.opaque(`${site.program} runs a script named at run time`, site.program);
  else if (isTestScriptName(name.value)) runsTests(fx, site.program, `${site.program} ${name.value}`, site.args);
  else if (/[./]/.test(name.value)) fx.opaque(`${site.program} runs the file \`${name.value}\``, site.program);
  else fx.unknown(`${site.program} run ${name.value}`, site.program === 'bun' ? projectScriptCall(fx, name.value, args.slice(parsed.rest + 1)) : undefined);
}

const evalBuiltin: ProgramHandler = (site, fx) => runJoined(site.args, 'eval', fx, true);

const source: ProgramHandler = (site, fx) => {
  const file = site.args[0];
  if (!file) return;
  fx.read(site.program, file);
  // A virtual environment's activate script in the project (`source .venv/bin/activate`) only
  // puts the environment's bin/ first on PATH: the project's own tools, as `.venv/bin/pytest` is.
  const activated = fx.path(file);
  const inHome = fx.home !== null && TOOLCHAIN_SCRIPTS.some((script) => activated.path === `${fx.home}/${script}`);
  if (!file.dynamic && !activated.dynamic && ENVIRONMENT_SCRIPT.test(activated.path) && (isWithin(activated.path, fx.projectRoot) || isSystemPath(activated.path) || inHome)) return;
  fx.opaque(`${site.program} runs the commands in \`${file.value}\``, site.program);
};

/** Scripts that set up a tool's environment (a virtual environment's `bin/activate`, `~/.cargo/env`, `nvm.sh`). */
const ENVIRONMENT_SCRIPT = /\/bin\/activate$|\/\.cargo\/env$|\/\.nvm\/nvm\.sh$/;
/** The toolchain installers' own, in the home's dot folders (which a phase that restricts writes keeps as they are). */
const TOOLCHAIN_SCRIPTS = ['.cargo/env', '.nvm/nvm.sh'];

const trap: ProgramHandler = (site, fx) => {
  // `trap -- 'code' EXIT`: `--` ends trap's options, the handler follows.
  const [action, ...signals] = site.args[0]?.value === '--' ? site.args.slice(1) : site.args;
  if (!action || ['-l', '-p', '-P', '-', ''].includes(action.value) || signals.length === 0) return;
  if (action.dynamic) fx.opaque('trap runs code built at run time', 'trap');
  else fx.runShellCode(action, 'trap', true);
};

/**
 * `at` and `batch` run later, outside this session, the commands they read from their input:
 * fixed text (a here-doc, a here-string) is judged as shell code; anything else is opaque.
 */
const scheduler: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, { short: 'qfmMt', long: [] });
  if (hasOption(parsed, '-l', '-r', '-d', '-c') || onlyAsksVersion(site.args)) return;
  const file = lastOptionValue(parsed, '-f');
  if (file) {
    fx.read(site.program, file);
    fx.opaque(`${site.program} runs the file \`${file.value}\` later`, site.program);
  } else if (fx.stdin) {
    const code = fx.stdin;
    fx.hidingStatus(() => fx.runShellCode(code, site.program, false));
  } else fx.opaque(`${site.program} runs later the commands it reads from its input`, site.program);
};

/** crontab installs commands that run later, outside this session; listing them is a read. */
const crontab: ProgramHandler = (site, fx) => {
  if (site.args.some((arg) => arg.value === '-l')) return;
  fx.opaque('crontab installs commands that run later', 'crontab');
};

/** tmux commands whose operands are a shell command it runs (`tmux new -d 'npm run dev'`). */
const TMUX_RUNS_COMMAND = new Set(['new', 'new-session', 'new-window', 'neww', 'split-window', 'splitw', 'respawn-pane', 'respawnp', 'respawn-window', 'respawnw', 'run-shell', 'run']);
/** tmux commands that run what gobby cannot see: keys typed or a buffer pasted into a shell, a condition's commands, a file of tmux commands. */
const TMUX_RUNS_OTHER = new Set(['send-keys', 'send', 'paste-buffer', 'pasteb', 'if-shell', 'if', 'source-file', 'source', 'set-hook', 'pipe-pane', 'pipep', 'bind-key', 'bind', 'confirm-before', 'confirm', 'command-prompt', 'display-popup', 'popup', 'display-menu', 'menu']);
/** A format job: tmux runs `#(cmd)` wherever it shows the format (`display -p '#(…)'`, `set status-right '#(…)'`). */
const TMUX_FORMAT_JOB = '#(';
/** Options of those commands that take a value (`-s name`, `-c dir`, `-t target`, `-e VAR=x`). */
const TMUX_COMMAND_OPTIONS: OptionSpec = { short: 'ceFflnpstxy', stopAtOperand: true };
/** tmux's own options that take a value: a socket, a config file (`-f`), a shell command (`-c`). */
const TMUX_OPTIONS: OptionSpec = { short: 'LSfcT', stopAtOperand: true };
const SCREEN_ATTACHES = new Set(['-ls', '-list', '-r', '-R', '-x', '-wipe', '-Q']);
/** screen options that take a value (`-S name`, `-c rcfile`); the first operand after them starts the command it runs. */
const SCREEN_OPTIONS: OptionSpec = { short: 'ScehLpstTX', long: ['Logfile'], stopAtOperand: true };

/**
 * tmux and screen run commands in sessions of their own, which outlive the session's turn: the
 * command is judged as if it ran here. Keys sent to a shell, or a file of commands, are opaque;
 * listing and attaching run nothing.
 */
const terminalMultiplexer: ProgramHandler = (site, fx) => {
  // What runs in their sessions runs apart from the command: its status is tmux's or screen's own.
  fx.hidingStatus(() => multiplexerCommands(site, fx));
};

function multiplexerCommands(site: CommandSite, fx: ShellEffects): void {
  const args = site.args;
  if (site.program === 'tmux') {
    const global = parseArgv(args, TMUX_OPTIONS);
    const config = lastOptionValue(global, '-f');
    if (config) fx.opaque(`tmux runs the commands in \`${config.value}\``, 'tmux');
    const shellCommand = lastOptionValue(global, '-c');
    if (shellCommand) fx.runShellCode(shellCommand, 'tmux', false);
    for (const words of tmuxCommandSequence(args.slice(global.rest))) tmuxCommand(words, fx);
    return;
  }
  // Listing, attaching and detaching run nothing (`screen -ls`, `screen -r dev`, `screen -d dev`).
  if (args.some((arg) => SCREEN_ATTACHES.has(arg.value))) return;
  const detaches = args.some((arg) => arg.value === '-d' || arg.value === '-D');
  if (detaches && !args.some((arg) => /^-[a-zA-Z]*m/.test(arg.value))) return;
  const parsed = parseArgv(args, SCREEN_OPTIONS);
  const rcfile = lastOptionValue(parsed, '-c');
  if (rcfile) {
    fx.read('screen', rcfile);
    fx.opaque(`screen runs the commands in \`${rcfile.value}\``, 'screen');
  }
  const command = args.slice(parsed.rest);
  if (hasOption(parsed, '-X')) fx.opaque('screen -X sends commands to a running session', 'screen');
  else if (command.length > 0) fx.run(command);
}

/**
 * tmux's commands one by one: `tmux set-buffer x \; save-buffer f` is two. An argument that is a
 * semicolon, or ends in one that no backslash escapes, ends a command.
 */
function tmuxCommandSequence(args: readonly Arg[]): Arg[][] {
  const sequence: Arg[][] = [[]];
  for (const arg of args) {
    const current = sequence[sequence.length - 1]!;
    if (arg.value.endsWith(';') && !arg.value.endsWith('\\;')) {
      if (arg.value.length > 1) current.push({ ...arg, value: arg.value.slice(0, -1) });
      sequence.push([]);
    } else current.push(arg);
  }
  return sequence.filter((words) => words.length > 0);
}

/** tmux options whose value is a command tmux runs later (in each new pane, to lock) or a file it writes. */
const TMUX_OPTION_RUNS = new Set(['default-command', 'default-shell', 'lock-command']);
const TMUX_OPTION_FILE = 'history-file';
const TMUX_SETS_OPTION = new Set(['set-option', 'set', 'set-window-option', 'setw']);

function tmuxCommand(words: readonly Arg[], fx: ShellEffects): void {
  const [command, ...rest] = words;
  if (command === undefined) return;
  if (TMUX_RUNS_OTHER.has(command.value) || command.dynamic || words.some((arg) => arg.value.includes(TMUX_FORMAT_JOB))) {
    fx.opaque(`tmux ${command.value} runs commands gobby cannot see`, 'tmux');
    return;
  }
  if (TMUX_RUNS_COMMAND.has(command.value)) {
    const parsed = parseArgv(rest, TMUX_COMMAND_OPTIONS);
    const directory = lastOptionValue(parsed, '-c');
    runJoined(rest.slice(parsed.rest), 'tmux', directory ? fx.at(directory) : fx, false);
    return;
  }
  // `save-buffer [-a] [-b name] FILE` writes the buffer, which `set-buffer` filled with any text; `load-buffer FILE` reads one.
  const operands = (): Arg[] => rest.slice(parseArgv(rest, { short: 'bt', stopAtOperand: true }).rest);
  if (command.value === 'save-buffer' || command.value === 'saveb') {
    const file = operands()[0];
    if (file !== undefined && file.value !== '-') fx.write('tmux', file);
  } else if (command.value === 'load-buffer' || command.value === 'loadb') {
    const file = operands()[0];
    if (file !== undefined && file.value !== '-') fx.read('tmux', file);
  } else if (TMUX_SETS_OPTION.has(command.value)) {
    const [name, value] = operands();
    if (name === undefined) return;
    if (name.dynamic || TMUX_OPTION_RUNS.has(name.value)) fx.opaque(`tmux ${command.value} ${name.value} sets a command tmux runs later`, 'tmux');
    else if (name.value === TMUX_OPTION_FILE && value !== undefined) fx.write('tmux', value);
  }
}

const alias: ProgramHandler = (site, fx) => {
  for (const arg of site.args) {
    const eq = arg.value.indexOf('=');
    if (eq === -1 || arg.value.startsWith('-')) continue;
    fx.redefineProgramName(arg.dynamic ? undefined : arg.value.slice(0, eq));
    if (arg.dynamic) fx.opaque('alias defines a command built at run time', 'alias');
    else fx.runShellCode(literalArg(arg.value.slice(eq + 1)), 'alias', true);
  }
};

/** A builtin whose option (`hash -p FILE NAME`, `enable -n NAME`, `enable -f FILE NAME`) changes what its names run from then on. */
function redefiningNames(handle: ProgramHandler, option: RegExp): ProgramHandler {
  return (site, fx) => {
    if (site.args.some((arg) => option.test(arg.value))) {
      const names = site.args.filter((arg) => !arg.value.startsWith('-'));
      if (names.some((arg) => arg.dynamic)) fx.redefineProgramName();
      // The names come last (after `-p FILE` or `-f FILE`); every operand is taken as one, to be safe.
      else for (const name of names) fx.redefineProgramName(name.value);
    }
    handle(site, fx);
  };
}

/** Builtins with one option that runs or loads code (`hash -p`, `enable -f`, `mapfile -C`, `compgen -C`, `fc -s`). */
function builtinWithCodeOption(option: string, why: string): ProgramHandler {
  return (site, fx) => {
    if (site.args.some((arg) => arg.dynamic || arg.value === option || (arg.value.startsWith('-') && !arg.value.startsWith('--') && arg.value.includes(option.slice(1))))) fx.opaque(why, site.program);
  };
}

/** `setsid [-c] [-f] [-w] CMD`: with `-f` it forks and returns at once, unless `-w` waits for the command's status. */
const setsid: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, { stopAtOperand: true });
  const command = site.args.slice(parsed.rest);
  if (command.length === 0) return;
  if (hasOption(parsed, '-f', '--fork') && !hasOption(parsed, '-w', '--wait')) fx.hidingStatus(() => fx.run(command, { stdinArgs: site.stdinArgs }));
  else fx.run(command, { stdinArgs: site.stdinArgs });
};

const SYSTEMD_RUN_OPTIONS: OptionSpec = { short: 'pEM', long: ['unit', 'property', 'description', 'slice', 'setenv', 'working-directory', 'machine', 'uid', 'gid', 'nice', 'on-active', 'on-boot', 'on-startup', 'on-unit-active', 'on-unit-inactive', 'on-calendar', 'on-clock-change', 'on-timezone-change', 'timer-property', 'path-property', 'socket-property', 'service-type', 'expand-environment'], stopAtOperand: true };

/** `systemd-run CMD` starts CMD as a service and returns; `--wait`, `--pipe`, `--pty` and `--scope` wait for it and give its status. */
const systemdRun: ProgramHandler = (site, fx) => {
  const parsed = parseArgv(site.args, SYSTEMD_RUN_OPTIONS);
  const command = site.args.slice(parsed.rest);
  if (command.length === 0) return;
  if (hasOption(parsed, '--wait', '-P', '--pipe', '-t', '--pty', '--scope')) fx.run(command, { stdinArgs: site.stdinArgs });
  else fx.hidingStatus(() => fx.run(command, { stdinArgs: site.stdinArgs }));
};

/** Runs the command that follows a prefix's own options and `skip` leading operands. */
function prefix(spec: OptionSpec, skip = 0, onOptions?: (parsed: ReturnType<typeof parseArgv>, site: CommandSite, fx: ShellEffects) => ShellEffects | undefined): ProgramEntry {
  return {
    prefix: true,
    handle: (site, fx) => {
      const parsed = parseArgv(site.args, { ...spec, stopAtOperand: true });
      const context = onOptions?.(parsed, site, fx) ?? fx;
      const command = site.args.slice(parsed.rest + skip);
      if (command.length > 0) context.run(command, { stdinArgs: site.stdinArgs });
    },
  };
}

/**
 * GNU parallel runs its command (the words joined, as a shell runs them) once for each argument
 * given after `:::`, put where `{}` (or `{.}`, `{/}`, `{1}`, …) is, or appended. Each run is judged
 * as the shell code it is (`parallel 'rm -rf {}' ::: ~/.gob*`); arguments read from the input or a
 * file are only known at run time, as xargs's are.
 */
const parallel: ProgramEntry = {
  prefix: true,
  handle: (site, caller) => {
    const parsed = parseArgv(site.args, { short: 'jSanNCd', long: ['jobs', 'sshlogin', 'arg-file', 'colsep', 'halt', 'timeout', 'delay', 'max-args', 'max-replace-args', 'wd', 'workdir', 'joblog', 'results', 'res', 'tmpdir', 'tagstring', 'retries', 'memfree', 'load', 'basefile', 'return', 'sshloginfile', 'env', 'max-procs', 'shebang-wrap', 'termseq', 'delimiter'], stopAtOperand: true });
    // `--joblog FILE`, `--results DIR`, `--tmpdir DIR` write; `--wd DIR` runs the commands there.
    for (const log of optionValues(parsed, '--joblog')) caller.write('parallel', log);
    for (const folder of optionValues(parsed, '--results', '--res', '--tmpdir')) caller.write('parallel', everythingBelow(caller, folder));
    const workdir = lastOptionValue(parsed, '--wd', '--workdir');
    const fx = workdir === undefined ? caller : caller.at(workdir);
    const rest = site.args.slice(parsed.rest);
    const separator = rest.findIndex((arg) => PARALLEL_SEPARATOR.test(arg.value));
    const command = separator === -1 ? rest : rest.slice(0, separator);
    const inputs = separator === -1 ? [] : rest.slice(separator + 1).filter((arg) => !PARALLEL_SEPARATOR.test(arg.value));
    // Without a command, the arguments are the commands (`parallel ::: 'npm test' 'npm run lint'`).
    if (command.length === 0) {
      if (separator === -1 || rest.some((arg) => arg.value.startsWith('::::'))) fx.opaque('parallel runs the commands it is given as input', 'parallel');
      else for (const input of inputs) fx.runShellCode(input, 'parallel', false);
      return;
    }
    if (inputs.length === 0 || rest.some((arg) => arg.value.startsWith('::::')) || optionValues(parsed, '-a', '--arg-file').length > 0) {
      fx.run(command, { stdinArgs: true });
      return;
    }
    for (const input of inputs) {
      if (input.unknownAt !== -1) {
        fx.opaque('parallel runs its command with arguments only known at run time', 'parallel');
        continue;
      }
      const code = command.map((arg) => arg.value).join(' ');
      if (code.includes('{=')) {
        fx.opaque('parallel runs a perl expression in its replacement string', 'parallel');
        continue;
      }
      const placed = PARALLEL_REPLACEMENT.test(code) ? code.replace(PARALLEL_REPLACEMENT_ALL, (replacement) => parallelReplacement(replacement, input.value)) : `${code} ${input.value}`;
      fx.runShellCode({ value: placed, dynamic: command.some((arg) => arg.dynamic), unknownAt: command.some((arg) => arg.unknownAt !== -1) ? 0 : -1 }, 'parallel', false);
    }
  },
};
const PARALLEL_SEPARATOR = /^::::?\+?$/;
const PARALLEL_REPLACEMENT = /\{\d*(?:\.|\/|\/\/|\/\.|#|%)?\}/;

/** What parallel puts for a replacement string: the argument, without its extension (`.`), its base name (`/`), its folder (`//`), a job number (`#`, `%`). */
function parallelReplacement(replacement: string, input: string): string {
  const kind = replacement.replace(/^\{\d*/, '').replace(/\}$/, '');
  const slash = input.lastIndexOf('/');
  const base = slash === -1 ? input : input.slice(slash + 1);
  const withoutExtension = (text: string) => text.replace(/\.[^./]*$/, '');
  switch (kind) {
    case '.':
      return withoutExtension(input);
    case '/':
      return base;
    case '//':
      return slash === -1 ? '.' : input.slice(0, slash) || '/';
    case '/.':
      return withoutExtension(base);
    case '#':
    case '%':
      return '1';
    default:
      return input;
  }
}
const PARALLEL_REPLACEMENT_ALL = new RegExp(PARALLEL_REPLACEMENT.source, 'g');

const env: ProgramEntry = {
  prefix: true,
  handle: (site, fx) => {
    const parsed = parseArgv(site.args, { short: 'uCS', long: ['unset', 'chdir', 'split-string'], optional: ['block-signal', 'default-signal', 'ignore-signal'], stopAtOperand: true });
    // Any word with `=` after its first character is an assignment to env (`BASH_FUNC_ls%%=…` too).
    const { variables, rest } = leadingAssignments(site.args.slice(parsed.rest), fx);
    const directory = lastOptionValue(parsed, '-C', '--chdir');
    const context = directory ? fx.at(directory) : fx;
    const split = lastOptionValue(parsed, '-S', '--split-string');
    context.inEnvironment(variables, () => {
      if (split) runJoined([split, ...rest], 'env', context, false);
      else if (rest.length > 0) context.run(rest, { stdinArgs: site.stdinArgs });
    });
  },
};

/** `NAME=value` words before a command (`env`, `sudo`): each checked as an assignment, and given as the command's environment. */
function leadingAssignments(args: readonly Arg[], fx: ShellEffects): { variables: [string, Arg][]; rest: readonly Arg[] } {
  const variables: [string, Arg][] = [];
  let at = 0;
  for (; at < args.length && /^[^=]+=/.test(args[at]!.value); at++) {
    const arg = args[at]!;
    const eq = arg.value.indexOf('=');
    const value = sliceArg(arg, eq + 1);
    checkAssignment(arg.value.slice(0, eq), fx, value);
    variables.push([arg.value.slice(0, eq), value]);
  }
  return { variables, rest: args.slice(at) };
}

const sudo: ProgramEntry = {
  prefix: true,
  handle: (site, fx) => {
    const parsed = parseArgv(site.args, { short: 'ugpChUrtTDR', long: ['user', 'group', 'prompt', 'close-from', 'host', 'other-user', 'role', 'type', 'command-timeout', 'chdir', 'chroot'], stopAtOperand: true });
    if (hasOption(parsed, '-e', '--edit')) {
      for (const file of site.args.slice(parsed.rest)) fx.write(site.program, file);
      return;
    }
    // `sudo F=x sh -c 'rm $F'`: sudo sets the variables named before the command.
    const { variables, rest: command } = leadingAssignments(site.args.slice(parsed.rest), fx);
    const directory = lastOptionValue(parsed, '-D', '--chdir');
    const context = directory ? fx.at(directory) : fx;
    context.inEnvironment(variables, () => {
      if (hasOption(parsed, '-s', '--shell', '-i', '--login')) {
        if (command.length > 0) runJoined(command, site.program, context, false);
        else fx.opaque(`${site.program} starts a shell that reads commands from its input`, site.program);
      } else if (command.length > 0) context.run(command, { stdinArgs: site.stdinArgs });
    });
  },
};

/** More input items than this are left to run time. */
const MAX_XARGS_ITEMS = 32;

/** xargs's items: lines with -I, NUL-separated with -0, else blank-separated words (quotes as xargs reads them); undefined past the cap. */
function inputWords(text: string, nul: boolean, lines: boolean): string[] | undefined {
  let items: string[];
  if (nul) items = text.split('\0');
  else if (lines) items = text.split('\n').map((line) => line.trim());
  else items = [...text.matchAll(/"([^"]*)"|'([^']*)'|((?:\\.|[^\s'"])+)/g)].map((match) => match[1] ?? match[2] ?? match[3]!.replace(/\\(.)/g, '$1'));
  items = items.filter((item) => item !== '');
  return items.length > MAX_XARGS_ITEMS ? undefined : items;
}

/** What `xargs -I` puts in place of its placeholder, known only at run time. */
const XARGS_ITEM = '$(xargs input)';

const xargs: ProgramEntry = {
  prefix: true,
  handle: (site, fx) => {
    const parsed = parseArgv(site.args, { short: 'adEILnPs', long: ['arg-file', 'delimiter', 'max-args', 'max-procs', 'max-chars', 'process-slot-var'], optional: ['eof', 'replace', 'max-lines'], stopAtOperand: true });
    const argFiles = optionValues(parsed, '-a', '--arg-file');
    for (const file of argFiles) if (file.value !== '/dev/stdin' && file.value !== '-') fx.read('xargs', file);
    // `-a /dev/stdin` reads the items from the input after all.
    const fromInput = argFiles.length === 0 || argFiles.every((file) => file.value === '/dev/stdin' || file.value === '-');
    const replace = lastOptionValue(parsed, '-I', '--replace')?.value ?? (hasOption(parsed, '-i', '--replace') ? '{}' : undefined);
    let command = site.args.slice(parsed.rest);
    if (command.length === 0) command = [literalArg('echo')];
    // Input that is fixed text (`xargs rm <<< file`, `echo 4711 | xargs kill`): its words are the operands.
    const input = fx.stdin !== undefined && !fx.stdin.dynamic && fromInput ? inputWords(fx.stdin.value, hasOption(parsed, '-0', '--null'), replace !== undefined) : undefined;
    if (input !== undefined) {
      if (replace === undefined) fx.run([...command, ...input.map(literalArg)]);
      else for (const line of input) fx.run(command.map((arg) => (arg.value.includes(replace) ? { ...arg, value: arg.value.replaceAll(replace, line) } : arg)));
      return;
    }
    // With -I the input replaces the placeholder instead of being appended: written as the
    // substitution it is (`cat ~/.gobby/{}` reads `~/.gobby/$(xargs input)`), so gobby's ground
    // takes it as any name, as it takes a variable known only at run time.
    if (replace) command = command.map((arg) => (arg.value.includes(replace) ? { value: arg.value.replaceAll(replace, XARGS_ITEM), dynamic: true, unknownAt: arg.value.indexOf(replace) } : arg));
    fx.run(command, { stdinArgs: replace === undefined });
  },
};

const commandBuiltin: ProgramEntry = {
  prefix: true,
  handle: (site, fx) => {
    const parsed = parseArgv(site.args, { stopAtOperand: true });
    if (hasOption(parsed, '-v', '-V')) return; // looks the name up, runs nothing
    const command = site.args.slice(parsed.rest);
    if (command.length > 0) fx.run(command, { stdinArgs: site.stdinArgs });
  },
};

const watch: ProgramEntry = {
  prefix: true,
  handle: (site, fx) => {
    const parsed = parseArgv(site.args, { short: 'nq', long: ['interval', 'equexit'], optional: ['differences'], stopAtOperand: true });
    const command = site.args.slice(parsed.rest);
    // watch runs the command until it is stopped: its status is never the command's.
    fx.hidingStatus(() => {
      if (hasOption(parsed, '-x', '--exec')) fx.run(command);
      else runJoined(command, 'watch', fx, false);
    });
  },
};

const flock: ProgramEntry = {
  prefix: true,
  handle: (site, fx) => {
    // flock [options] lockfile (-c 'code' | command…): options may also follow the lock file.
    const spec: OptionSpec = { short: 'wEc', long: ['timeout', 'wait', 'conflict-exit-code', 'command'], stopAtOperand: true };
    const before = parseArgv(site.args, spec);
    const lock = site.args[before.rest];
    if (!lock) return;
    if (!/^\d+$/.test(lock.value)) fx.write('flock', lock);
    const after = parseArgv(site.args.slice(before.rest + 1), spec);
    const code = lastOptionValue(before, '-c', '--command') ?? lastOptionValue(after, '-c', '--command');
    const command = site.args.slice(before.rest + 1 + after.rest);
    if (code) fx.runShellCode(code, 'flock', false);
    else if (command.length > 0) fx.run(command, { stdinArgs: site.stdinArgs });
  },
};

/**
 * export/declare/local/readonly/typeset: each NAME=value is an assignment. Apart from export they
 * make every variable only its likeliest value (SETS_VARIABLES_UNSEEN in classify.ts); an array,
 * a nameref or an integer (`-a`, `-A`, `-n`, `-i`) is left to those rules.
 */
const declaration: ProgramHandler = (site, fx) => {
  const plainText = !site.args.some((arg) => /^[-+][a-zA-Z]*[aAni]/.test(arg.value));
  for (const arg of site.args) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)(\+?)=/.exec(arg.value);
    if (!match) continue;
    const value = arg.value.slice(match[0].length);
    checkAssignment(match[1]!, fx, { ...arg, value });
    if (!plainText) continue;
    const prefix = match[0].length;
    fx.setVariable(match[1]!, { value, dynamic: arg.dynamic, unknownAt: arg.unknownAt === -1 ? -1 : Math.max(0, arg.unknownAt - prefix) }, match[2] === '+');
  }
};

/** `su -c 'cmd'`, `script -c 'cmd'`, `nix-shell --run 'cmd'`: a shell string. */
/** `entr [-acdnprsz] UTILITY [ARG…]`: the utility runs on each change; with `-s` it is a shell command string. */
const entr: ProgramEntry = {
  prefix: true,
  handle: (site, fx) => {
    const parsed = parseArgv(site.args, { stopAtOperand: true });
    const command = site.args.slice(parsed.rest);
    // entr runs the utility on each change of its files: its own status is not the utility's.
    fx.hidingStatus(() => {
      if (hasOption(parsed, '-s')) {
        if (command[0]) fx.runShellCode(command[0], 'entr', false);
      } else if (command.length > 0) fx.run(command, { stdinArgs: site.stdinArgs });
    });
  },
};

function shellStringOption(options: readonly string[], spec: OptionSpec, otherwise: string): ProgramEntry {
  return {
    prefix: true,
    handle: (site, fx) => {
      const parsed = parseArgv(site.args, spec);
      const code = lastOptionValue(parsed, ...options);
      if (code) fx.runShellCode(code, site.program, false);
      else if (!onlyAsksVersion(site.args)) fx.opaque(otherwise, site.program);
    },
  };
}

/** `runuser -u USER [--] CMD ARGS…` runs CMD itself; `runuser USER -c CODE` runs CODE in USER's shell, and without either starts that shell. */
const RUNUSER_OPTIONS: OptionSpec = { short: 'cgGsuw', long: ['command', 'group', 'supp-group', 'shell', 'user', 'whitelist-environment'] };
const runuser: ProgramHandler = (site, fx) => {
  const leading = parseArgv(site.args, { ...RUNUSER_OPTIONS, stopAtOperand: true });
  if (hasOption(leading, '-u', '--user') && leading.rest < site.args.length) {
    fx.run(site.args.slice(leading.rest));
    return;
  }
  const code = lastOptionValue(parseArgv(site.args, RUNUSER_OPTIONS), '-c', '--command');
  if (code) fx.runShellCode(code, 'runuser', false);
  else if (!onlyAsksVersion(site.args)) fx.opaque('runuser starts a shell', 'runuser');
};

const hyperfine: ProgramEntry = {
  prefix: true,
  handle: (site, fx) => {
    const parsed = parseArgv(site.args, { short: 'wrmMnpcsSuPLN', long: ['warmup', 'runs', 'min-runs', 'max-runs', 'prepare', 'cleanup', 'setup', 'shell', 'export-json', 'export-csv', 'export-markdown', 'export-asciidoc', 'export-orgmode', 'parameter-scan', 'parameter-step-size', 'parameter-list', 'time-unit', 'command-name', 'style', 'sort', 'output', 'input', 'conclude', 'reference'] });
    for (const out of optionValues(parsed, '--export-json', '--export-csv', '--export-markdown', '--export-asciidoc', '--export-orgmode')) fx.write('hyperfine', out);
    const runAll = (): void => {
      for (const code of [...optionValues(parsed, '-p', '--prepare', '-c', '--cleanup', '-s', '--setup', '--conclude', '--reference'), ...operandsOf(parsed, site)]) fx.runShellCode(code, 'hyperfine', false);
    };
    // A failing command fails hyperfine, unless `-i` tells it to go on.
    if (hasOption(parsed, '-i', '--ignore-failure')) fx.hidingStatus(runAll);
    else runAll();
    // `--shell /tmp/x`: every command runs through that program (`-N`/`--shell=none` runs them directly).
    for (const shell of optionValues(parsed, '-S', '--shell')) if (shell.value !== 'none' && !/^(?:(?:\/usr)?\/bin\/)?(?:ba|da|z|k|fi)?sh$/.test(shell.value)) fx.run([shell]);
  },
};

/** `npx vitest`, `pnpm dlx tsc`, `uvx ruff`: the package's binary is the program. */
/** `node_modules/.bin/NAME`, `node_modules/PKG/bin/NAME.js`, `node_modules/@scope/PKG/NAME.mjs`. */
const PACKAGE_TOOL_FILE = /(?:^|\/)node_modules\/(?:\.bin\/([^/]+)|((?:@[^/]+\/)?[^/]+)\/(?:bin\/)?([^/]+?)(?:\.[cm]?js)?)$/;

/** The known tool a file of the project's own node_modules is (its binary, or its package's), or undefined. */
function projectPackageTool(script: Arg, fx: ShellEffects): string | undefined {
  if (script.dynamic) return undefined;
  const match = PACKAGE_TOOL_FILE.exec(script.value);
  if (match === null || !isWithin(fx.path(script).path, fx.projectRoot)) return undefined;
  const candidates = match[1] !== undefined ? [match[1]] : [match[3]!, packageBinary(match[2]!)];
  return candidates.find((name) => fx.knows(name) && !NODE_LIKE.has(name));
}

const PACKAGE_BINARIES: Readonly<Record<string, string>> = {
  '@anthropic-ai/claude-code': 'claude',
  typescript: 'tsc',
  '@playwright/test': 'playwright',
  '@biomejs/biome': 'biome',
  'npm-run-all': 'npm-run-all',
};

function packageBinary(spec: string): string {
  const mapped = PACKAGE_BINARIES[spec.replace(/(?<=.)@[^/]*$/, '')];
  if (mapped) return mapped;
  const withoutVersion = spec.replace(/(?<=.)@[^/]*$/, '');
  const slash = withoutVersion.lastIndexOf('/');
  return slash === -1 ? withoutVersion : withoutVersion.slice(slash + 1);
}

const packageRunner: ProgramEntry = {
  prefix: true,
  handle: (site, fx) => {
    const parsed = parseArgv(site.args, { short: 'pc', long: ['package', 'call', 'node-options', 'cache', 'registry', 'from', 'with', 'python', 'spec'], stopAtOperand: true });
    // `npx -p /tmp/x vitest`: the binary comes from a package in a folder, which may be the agent's.
    for (const pkg of optionValues(parsed, '-p', '--package', '--from', '--with', '--spec')) {
      const spec = pkg.value.replace(/^file:(?:\/\/)?/, '');
      if (pkg.dynamic) fx.opaque(`${site.program} runs a package named at run time`, site.program);
      else if (/^(?:\/|~|\.)/.test(spec) && !isWithin(fx.path(literalArg(spec)).path, fx.projectRoot)) fx.opaque(`${site.program} runs a package from ${fx.path(literalArg(spec)).path}, outside the project`, site.program);
    }
    const code = lastOptionValue(parsed, '-c', '--call');
    if (code) {
      fx.runShellCode(code, site.program, false);
      return;
    }
    const [name, ...rest] = site.args.slice(parsed.rest);
    if (!name) return;
    if (name.dynamic) {
      fx.opaque(`${site.program} runs a package named at run time`, site.program);
      return;
    }
    // `npx /tmp/pkg`: a package in a folder outside the project may be the agent's.
    const spec = name.value.replace(/^file:(?:\/\/)?/, '');
    if (/^(?:\/|~|\.)/.test(spec) && !isWithin(fx.path(literalArg(spec)).path, fx.projectRoot)) fx.opaque(`${site.program} runs a package from ${fx.path(literalArg(spec)).path}, outside the project`, site.program);
    // A package the tables do not know runs its own code, whatever it is asked (`npx pkg --help` installs and runs it).
    const binary = packageBinary(name.value);
    if (!fx.knows(binary)) fx.unknown(binary);
    fx.run([literalArg(binary), ...rest], { stdinArgs: site.stdinArgs });
  },
};

/** `uv run x`, `poetry run x`, `bundle exec x`: the project's environment, then the command. */
const projectRunner: ProgramEntry = {
  prefix: true,
  handle: (site, fx) => {
    const parsed = parseArgv(site.args, { short: 'pe', long: ['with', 'python', 'project', 'directory', 'env-file', 'package', 'extra', 'group', 'gemfile', 'name', 'prefix'], stopAtOperand: true });
    const [first, ...rest] = site.args.slice(parsed.rest);
    if (!first) return;
    if (first.value.endsWith('.py')) fx.run([literalArg('python'), first, ...rest]);
    else fx.run([first, ...rest], { stdinArgs: site.stdinArgs });
  },
};

const gnuTime: ProgramEntry = prefix({ short: 'of', long: ['output', 'format'] }, 0, (parsed, _site, fx) => {
  for (const out of optionValues(parsed, '-o', '--output')) fx.write('time', out);
  return undefined;
});

const strace: ProgramEntry = prefix({ short: 'oeEpPsSuXIbaO', long: ['output', 'trace', 'signal', 'attach', 'user', 'string-limit', 'env', 'log-file'] }, 0, (parsed, site, fx) => {
  for (const out of optionValues(parsed, '-o', '--output', '--log-file')) fx.write(site.program, out);
  for (const pid of optionValues(parsed, '-p', '--attach')) attachTo(site.program, pid, fx);
  return undefined;
});

/**
 * A tracer or debugger attached to a running process (`strace -p`, `gdb -p`) can stop it, change
 * its memory or kill it: to gobby that is a signal to the process, with the same targets as `kill`.
 */
function attachTo(program: string, pids: Arg, fx: ShellEffects): void {
  const targets = pids.dynamic ? [pids.value] : pids.value.split(/[\s,]+/).filter((pid) => pid !== '');
  for (const pid of targets) fx.signal(program, pid, 'pid');
}

/**
 * Tools that change a running process by pid (`renice 19 -p PID`, `taskset -p 1 PID`, `chrt -p 0
 * PID`, `ionice -c3 -p PID`, `prlimit --pid PID --nofile=0`, `cpulimit -p PID -l 1`) can starve or
 * cripple it: to gobby, a signal to that process. Without a pid they run a command, as prefixes.
 */
function tunesProcesses(spec: OptionSpec, skip: number, pidsOf: (parsed: ParsedArgv, operands: Arg[]) => readonly Arg[] | undefined): ProgramEntry {
  const asPrefix = prefix(spec, skip);
  return {
    prefix: true,
    handle: (site, fx) => {
      const parsed = parseArgv(site.args, spec);
      const pids = pidsOf(parsed, operandsOf(parsed, site));
      if (pids === undefined) asPrefix.handle(site, fx);
      else for (const pid of pids) fx.signal(site.program, pid.value, 'pid');
    },
  };
}

/** `taskset -p [mask] PID`, `chrt -p [prio] PID`: the pid is the last operand. */
const lastOperandWithP = (parsed: ParsedArgv, operands: Arg[]): readonly Arg[] | undefined => (hasOption(parsed, '-p', '--pid') ? operands.slice(-1) : undefined);

/**
 * gdb and lldb run script files like an interpreter, and attach to a process by pid (`-p`, `--pid`,
 * lldb's `--attach-pid`), by name (lldb's `-n`/`--attach-name`) or as gdb's second operand
 * (`gdb prog 1234`).
 */
function debuggerEntry(runsCode: ProgramHandler): ProgramHandler {
  return (site, fx) => {
    const args = site.args;
    const rest: Arg[] = [];
    for (let i = 0; i < args.length; i++) {
      const value = args[i]!.value;
      // `--pid=42`, and `-p42` as getopt reads a value glued to its letter.
      const glued = /^--?(?:pid|attach-pid|attach-name)=(.*)$/.exec(value) ?? /^-p(\d.*)$/.exec(value);
      if (glued) fx.signal(site.program, glued[1]!, value.includes('name') ? 'name' : 'pid');
      else if (['-p', '--pid', '-pid', '--attach-pid'].includes(value) && args[i + 1]) attachTo(site.program, args[++i]!, fx);
      else if (['-n', '--attach-name'].includes(value) && site.program === 'lldb' && args[i + 1]) fx.signal(site.program, args[++i]!.value, 'name');
      else rest.push(args[i]!);
    }
    const operands = rest.filter((arg) => !arg.value.startsWith('-'));
    if (site.program === 'gdb' && operands.length >= 2 && /^\d+$/.test(operands[1]!.value)) {
      fx.signal('gdb', operands[1]!.value, 'pid');
      rest.splice(rest.indexOf(operands[1]!), 1);
    }
    runsCode({ ...site, args: rest }, fx);
  };
}

/** `script [file]` records the session into `file` (default `./typescript`) and its logs. */
const SCRIPT_OPTIONS = { short: 'cEIOTBmo', long: ['command', 'echo', 'log-in', 'log-out', 'log-io', 'log-timing', 'logging-format', 'output-limit'] } as const;
const script: ProgramEntry = {
  prefix: true,
  handle: (site, fx) => {
    const parsed = parseArgv(site.args, SCRIPT_OPTIONS);
    const logs = optionValues(parsed, '-I', '--log-in', '-O', '--log-out', '-B', '--log-io', '-T', '--log-timing');
    for (const log of logs) fx.write('script', log);
    const [file] = operandsOf(parsed, site);
    if (file) fx.write('script', file);
    else if (optionValues(parsed, '-O', '--log-out', '-B', '--log-io').length === 0) fx.write('script', literalArg('typescript'));
    const code = lastOptionValue(parsed, '-c', '--command');
    // script exits 0 whatever the command did, unless asked for the command's status (`-e`, `--return`).
    if (code && hasOption(parsed, '-e', '--return')) fx.runShellCode(code, 'script', false);
    else if (code) fx.hidingStatus(() => fx.runShellCode(code, 'script', false));
    else if (!onlyAsksVersion(site.args)) fx.opaque('script records a shell that reads commands from its input', 'script');
  },
};

const busybox: ProgramEntry = {
  prefix: true,
  handle: (site, fx) => {
    const [applet, ...rest] = site.args;
    if (!applet || applet.value.startsWith('-')) return;
    fx.run([applet, ...rest], { stdinArgs: site.stdinArgs });
  },
};

/** Subcommand prefixes: `direnv exec DIR cmd`, `nix develop -c cmd`, `pnpm exec cmd`, `conda run cmd`. */
function subcommandPrefix(subcommands: Readonly<Record<string, number>>): ProgramEntry {
  return {
    prefix: true,
    handle: (site, fx) => {
      const [sub, ...rest] = site.args;
      const skip = sub ? subcommands[sub.value] : undefined;
      if (skip === undefined) {
        fx.unknown(`${site.program}${sub ? ` ${sub.value}` : ''}`);
        return;
      }
      const parsed = parseArgv(rest, { short: 'npc', long: ['name', 'prefix', 'cwd'], stopAtOperand: true });
      const command = rest.slice(parsed.rest + skip);
      if (command.length > 0) fx.run(command, { stdinArgs: site.stdinArgs });
    },
  };
}

export const CODE_PROGRAMS: readonly [string, ProgramEntry][] = [
  ...entries(shell, 'bash', 'sh', 'zsh', 'dash', 'ksh', 'ash', 'mksh', 'fish', 'csh', 'tcsh', 'rbash', 'yash', 'posh'),
  ...entries(python, 'python', 'python3', 'python2', 'pypy', 'pypy3', ...['3.8', '3.9', '3.10', '3.11', '3.12', '3.13', '3.14'].map((version) => `python${version}`)),
  ['node', { handle: node }],
  ['java', { handle: java }],
  ['nodejs', { handle: node }],
  // perl's -l, -0 and -x take only an attached value (`-l012`, `-0777`): `-lane 'code'` bundles -e.
  ...entries(interpreter({ inline: ['-e', '-E'], options: { short: 'IMmeE' }, preload: ['-M', '-m'], inPlace: true }), 'perl', 'perl5'),
  ...entries(interpreter({ inline: ['-e'], options: { short: 'IrCEe' }, preload: ['-r'], inPlace: true, checkOnly: ['-c'] }), 'ruby', 'jruby'),
  ...entries(interpreter({ inline: ['-r', '-R', '-B', '-E', '-a'], options: { short: 'cdzrRBEF' }, checkOnly: ['-l'], informs: ['-m', '-i', '--ini', '-v', '--version', '-h', '--help'] }), 'php'),
  ...entries(interpreter({ inline: ['-e'], options: { short: 'el' }, preload: ['-l'] }), 'lua', 'luajit'),
  ...entries(interpreter({ inline: ['-e', '--eval', '-E'], options: { short: 'eELJ', long: ['eval', 'load'] }, preload: ['-L', '--load'] }), 'julia', 'elixir', 'iex', 'Rscript', 'R', 'osascript', 'jshell', 'groovy', 'scala', 'kotlin', 'irb', 'ghci', 'runghc', 'clojure', 'racket', 'guile', 'sbcl', 'tclsh', 'wish', 'expect', 'octave', 'dc', 'pwsh', 'powershell', 'ts-node', 'tsx', 'esno', 'babel-node', 'coffee', 'erl', 'escript'),
  ...entries(debuggerEntry(interpreter({ inline: ['-e', '--eval', '-E'], options: { short: 'eELJ', long: ['eval', 'load'] }, preload: ['-L', '--load'] })), 'gdb', 'lldb'),
  ['deno', { handle: runtime({ test: 'test', install: 'install', add: 'install', remove: 'install', fmt: 'write', compile: 'write', lint: 'read', check: 'read', info: 'read', doc: 'read', bench: 'test', coverage: 'read', outdated: 'read', types: 'read', upgrade: 'install', eval: 'opaque', run: 'opaque', repl: 'opaque', serve: 'opaque', task: 'script' }, []) }],
  ['bun', { handle: runtime({ test: 'test', install: 'install', i: 'install', add: 'install', a: 'install', remove: 'install', rm: 'install', update: 'install', link: 'install', pm: 'read', outdated: 'read', audit: 'read', why: 'read', info: 'read', init: 'write', create: 'write', patch: 'write', build: 'write', run: 'script', repl: 'opaque' }, ['-e', '--eval', '-p', '--print']) }],
  ['eval', { handle: evalBuiltin }],
  ...entries(declaration, 'export', 'declare', 'typeset', 'local', 'readonly'),
  ['source', { handle: source }],
  ['.', { handle: source }],
  ['trap', { handle: trap }],
  ['alias', { handle: alias }],
  ['hash', { handle: redefiningNames(builtinWithCodeOption('-p', 'hash -p makes a name run a file of the caller\'s choosing'), /^-[a-z]*p/) }],
  ['enable', { handle: redefiningNames(builtinWithCodeOption('-f', 'enable -f loads a builtin from a shared object'), /^-[a-z]*[fn]/) }],
  ...entries(builtinWithCodeOption('-C', 'the -C callback runs code'), 'mapfile', 'readarray', 'compgen', 'complete'),
  ['fc', { handle: (site, fx) => void (site.args.length > 0 && !site.args.every((arg) => arg.value === '-l' || /^-?\d+$/.test(arg.value)) && fx.opaque('fc re-runs commands from the history', 'fc')) }],
  ['env', env],
  ['sudo', sudo],
  ['doas', sudo],
  ['xargs', xargs],
  ['command', commandBuiltin],
  ['builtin', prefix({})],
  ['exec', prefix({ short: 'a' })],
  ['nice', prefix({ short: 'n', long: ['adjustment'] })],
  ['nohup', prefix({})],
  ['timeout', prefix({ short: 'sk', long: ['signal', 'kill-after'] }, 1)],
  ['stdbuf', prefix({ short: 'ioe', long: ['input', 'output', 'error'] })],
  ['ionice', tunesProcesses({ short: 'cnpPu', long: ['class', 'classdata', 'pid', 'pgid', 'uid'] }, 0, (parsed) => (hasOption(parsed, '-p', '--pid') ? optionValues(parsed, '-p', '--pid') : undefined))],
  // `renice [-n] PRIO [-p] PID…`: every operand but a priority not given with -n.
  ['renice', tunesProcesses({ short: 'n', long: ['priority', 'relative'] }, 0, (parsed, operands) => (hasOption(parsed, '-n', '--priority', '--relative') ? operands : operands.slice(1)))],
  ['prlimit', tunesProcesses({ short: 'po', long: ['pid', 'output'] }, 0, (parsed) => (hasOption(parsed, '-p', '--pid') ? optionValues(parsed, '-p', '--pid') : undefined))],
  ['cpulimit', tunesProcesses({ short: 'lpPe', long: ['limit', 'pid', 'path', 'exe'] }, 0, (parsed) => (hasOption(parsed, '-p', '--pid') ? optionValues(parsed, '-p', '--pid') : undefined))],
  ['setsid', { prefix: true, handle: setsid }],
  ...entries(scheduler, 'at', 'batch'),
  ['crontab', { handle: crontab }],
  ...entries(terminalMultiplexer, 'tmux', 'screen'),
  ['systemd-run', { prefix: true, handle: systemdRun }],
  ['taskset', tunesProcesses({}, 1, lastOperandWithP)],
  ['chrt', tunesProcesses({ short: 'T', long: ['sched-runtime', 'sched-deadline', 'sched-period'] }, 1, lastOperandWithP)],
  ['unbuffer', prefix({})],
  ['caffeinate', prefix({ short: 'tw' })],
  ['chronic', prefix({})],
  ['fakeroot', prefix({ short: 'ilsb' })],
  ['faketime', prefix({ short: 'm' }, 1)],
  ['dbus-run-session', prefix({})],
  ['catchsegv', prefix({})],
  ['xvfb-run', prefix({ short: 'nslefwp', long: ['server-num', 'server-args', 'error-file', 'auth-file', 'xauth-protocol', 'wait'] })],
  ['proxychains', prefix({ short: 'f' })],
  ['proxychains4', prefix({ short: 'f' })],
  ['torsocks', prefix({})],
  // `sshpass -p PASSWORD ssh host cmd`: the password from -p, a file (-f), a descriptor (-d) or SSHPASS (-e).
  ['sshpass', prefix({ short: 'pfdP' })],
  // valgrind's own options come first, in the `--name=value` form: its logs are files it writes.
  ['valgrind', prefix({ long: ['log-file', 'xml-file', 'log-socket', 'suppressions', 'tool'] }, 0, (parsed, _site, fx) => {
    for (const log of optionValues(parsed, '--log-file', '--xml-file')) fx.write('valgrind', log);
    return undefined;
  })],
  ['ltrace', strace],
  ['strace', strace],
  ['time', gnuTime],
  ['cross-env', env],
  ['dotenv', prefix({ short: 'ecv' })],
  ['watch', watch],
  ['flock', flock],
  ['entr', entr],
  ['parallel', parallel],
  ['hyperfine', hyperfine],
  ['su', shellStringOption(['-c', '--command', '--session-command'], { short: 'cgGs', long: ['command', 'session-command', 'group', 'supp-group', 'shell'] }, 'su starts a shell that reads commands from its input')],
  ['runuser', { prefix: true, handle: runuser }],
  ['script', script],
  ['nix-shell', shellStringOption(['--run', '--command'], { short: 'pAEI', long: ['run', 'command', 'packages', 'attr', 'expr', 'include', 'arg', 'argstr'] }, 'nix-shell starts a shell')],
  ['busybox', busybox],
  ['toybox', busybox],
  ['shx', busybox],
  ...(['npx', 'pnpx', 'bunx', 'uvx', 'pipx-run'] as const).map((name): [string, ProgramEntry] => [name, packageRunner]),
  ['direnv', subcommandPrefix({ exec: 1 })],
  ['nix', subcommandPrefix({ develop: 0, shell: 0, run: 0 })],
];

/** For package managers whose `run`/`exec`/`dlx` subcommands run a command (programs-dev.ts). */
export const PROJECT_RUNNER = projectRunner;
export const PACKAGE_RUNNER = packageRunner;
