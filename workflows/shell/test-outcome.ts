// Whether a test run's exit status says whether the tests passed. A runner told to list, collect,
// build or skip the tests runs none of them (`pytest --collect-only`, `cargo test --no-run`,
// `mvn test -DskipTests`); one told to succeed whatever they do (`mvn --fail-never`,
// `jest --testFailureExitCode=0`, `make -i test`) hides their failures. Both succeed while tests fail,
// so a workflow's "the tests passed" cannot rest on them (effects.test_status_hidden).
import type { Arg } from './words.js';

/** Options of any runner with which no test runs, spelled in full (`--collect-only`, `--listTests=true`). */
const RUNS_NO_TESTS = new Set([
  // pytest
  '--collect-only', '--co', '--setup-plan', '--setup-only', '--fixtures', '--fixtures-per-test', '--markers',
  // jest, vitest
  '--listTests', '--showConfig', '--clearCache',
  // dotnet, phpunit, playwright, swift, cargo's and go's test binaries
  '--list-tests', '--list-tests-xml', '--list-groups', '--list-suites', '--list-test-files', '--list', '-list',
  // mocha, rspec, gradle, deno, cargo, tox, nox, ctest
  '--dry-run', '--dryRun', '--no-run', '--notest', '--listenvs', '--listenvs-all', '--showconfig', '--list-sessions', '--show-only',
  '--list-reporters', '--list-interfaces',
  '--help', '-h', '--version',
]);

/** Options of any runner with which its status stays 0 when tests fail. */
const IGNORES_FAILURES = new Set(['--fail-never', '--suppress-tests-failed-exit-code', '--ignore-errors']);

/** An option that sets the status a failure gives (`--testFailureExitCode`, `--failure-exit-code`): 0 hides failures. */
const FAILURE_STATUS_OPTION = /^--?(?:test)?-?failure-?exit-?code$/i;

/** Short options and subcommands that mean the same for one runner only (`-l` lists tox's environments, but is pytest's `--showlocals`). */
const PROGRAM_RUNS_NO_TESTS: Readonly<Record<string, (args: readonly Arg[]) => boolean>> = {
  tox: (args) => args.some((arg) => arg.value === '-l' || arg.value === '-a'),
  nox: (args) => args.some((arg) => arg.value === '-l'),
  dotnet: (args) => args.some((arg) => arg.value === '-t'),
  ctest: (args) => args.some((arg) => arg.value === '-N'),
  vitest: (args) => args[0]?.value === 'list',
  swift: (args) => args[0]?.value === 'test' && args[1]?.value === 'list',
  // `go test -run '^$'` (no test's name matches; the idiom for running benchmarks alone), `-c` builds, `-n` prints.
  go: (args) => args.some((arg, i) => arg.value === '-c' || arg.value === '-n' || arg.value === '-run=^$' || (arg.value === '-run' && args[i + 1]?.value === '^$')),
  // `mvn test -DskipTests`, `-Dmaven.test.skip=true`, `-Dmaven.test.failure.ignore=true`, `-fn`.
  mvn: mavenSkipsOrIgnores,
  mvnw: mavenSkipsOrIgnores,
  // `gradle build -x test`: the test task is left out.
  gradle: gradleExcludesTests,
  gradlew: gradleExcludesTests,
  // `make -i test` ignores the recipe's failures; `-k` still fails at the end.
  make: makeIgnoresErrors,
  gmake: makeIgnoresErrors,
};

const MAVEN_SKIPS = /^(?:skipTests|maven\.test\.skip|maven\.test\.skip\.exec|maven\.test\.failure\.ignore|testFailureIgnore)(?:=(.*))?$/;

function mavenSkipsOrIgnores(args: readonly Arg[]): boolean {
  return args.some((arg, i) => {
    if (arg.value === '-fn') return true;
    // `-DskipTests`, `-DskipTests=true`, `-D skipTests` (not `-DskipTests=false`).
    const property = arg.value === '-D' ? args[i + 1]?.value : arg.value.startsWith('-D') ? arg.value.slice(2) : undefined;
    const match = property === undefined ? null : MAVEN_SKIPS.exec(property);
    return match !== null && match[1]?.toLowerCase() !== 'false';
  });
}

/** `-x test`, `-xtest`, `--exclude-task=:app:test`, `-x testDebugUnitTest`. */
function gradleExcludesTests(args: readonly Arg[]): boolean {
  return args.some((arg, i) => {
    const task = arg.value === '-x' || arg.value === '--exclude-task' ? args[i + 1]?.value : arg.value.startsWith('--exclude-task=') ? arg.value.slice('--exclude-task='.length) : /^-x[^-]/.test(arg.value) ? arg.value.slice(2) : undefined;
    return task !== undefined && /test/i.test(task.slice(task.lastIndexOf(':') + 1));
  });
}

/** make's `-i` alone or among other flags (`-ik`); letters after one that takes a value (`-C dir`, `-j4`) are that value. */
function makeIgnoresErrors(args: readonly Arg[]): boolean {
  return args.some((arg) => arg.value === '--ignore-errors' || (/^-[a-zA-Z]+$/.test(arg.value) && /^-[^CfIjloOW]*i/.test(arg.value)));
}

/** Whether `program`'s test run with `args` may succeed although tests fail or none ran. */
export function statusSaysNothingOfTests(program: string, args: readonly Arg[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.dynamic || !arg.value.startsWith('-')) continue;
    const eq = arg.value.indexOf('=');
    const name = eq === -1 ? arg.value : arg.value.slice(0, eq);
    const value = eq === -1 ? undefined : arg.value.slice(eq + 1);
    // `--listTests=false` lists nothing.
    if ((RUNS_NO_TESTS.has(name) || IGNORES_FAILURES.has(name)) && value?.toLowerCase() !== 'false') return true;
    if (FAILURE_STATUS_OPTION.test(name) && (value ?? args[i + 1]?.value) === '0') return true;
  }
  return PROGRAM_RUNS_NO_TESTS[program]?.(args) ?? false;
}
