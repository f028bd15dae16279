// The classifier's contract beyond single commands: the summary that workflow conditions read,
// the programs and invocations guards look at, and the caps that keep any input from stalling
// the daemon.
import { describe, expect, it } from 'vitest';
import { analyzeShellCommand, MAX_COMMAND_LENGTH, summarizeShellEffects, type ShellContext } from '../../workflows/index.js';

const CTX: ShellContext = { cwd: '/repo', home: '/home/dev', projectRoot: '/repo' };

describe('summarizeShellEffects', () => {
  it('gives conditions plain arrays of paths, targets and programs', () => {
    const summary = summarizeShellEffects(
      analyzeShellCommand('cat a.txt > b.txt && mv c d && rm -f e && curl -s https://x.test && npm test', CTX),
    );
    expect(summary).toEqual({
      reads: ['/repo/a.txt'],
      writes: ['/repo/b.txt', '/repo/d'],
      deletes: ['/repo/c', '/repo/e'],
      paths: ['/repo/a.txt', '/repo/b.txt', '/repo/d', '/repo/c', '/repo/e'],
      network: ['https://x.test'],
      programs: ['cat', 'mv', 'rm', 'curl', 'npm'],
      kinds: ['write', 'read', 'move', 'delete', 'network', 'test_run'], // a redirection is applied before its command runs
      opaque: false,
      test_run: true,
      installs: false,
      unknown_programs: [],
      dynamic_paths: false,
      git_changes: false,
      signals: [],
      test_status_hidden: false,
      changes_files: false,
    });
  });

  it.each([
    'npm test || true',
    'npm test | tail -20',
    'npm test 2>&1 | tee out.log',
    'npm test; echo done',
    'npm test && echo ok || echo failed',
    '! npm test',
    'if npm test; then echo ok; fi',
    'for d in a b; do (cd $d && npm test); done',
    'npm test &',
    'x=$(npm test)',
    "bash -c 'npm test; exit 0'",
    '(set -o pipefail); npm test | tail',
    'set -e; set +e; npm test; true',
    'npm test; echo done; exit $?',
    // Programs that run the tests but give a status of their own.
    'find . -name package.json -execdir npm test \\;',
    'watch -n 5 npm test',
    'ls src/*.ts | entr npm test',
    "at now <<< 'npm test'",
    "tmux new -d 'npm test'",
    'screen -dm npm test',
    'setsid -f npm test',
    "script -qc 'npm test' /dev/null",
    'systemd-run --user npm test',
    "hyperfine -i 'npm test'",
    // Runs told to list, collect, build or skip the tests, or to succeed when they fail.
    'pytest --collect-only -q',
    'python3 -m pytest --co',
    'npx jest --listTests',
    'npx vitest list',
    'npm test -- --listTests',
    'cargo test --no-run',
    'cargo test -- --list',
    'go test -list . ./...',
    "go test -run '^$' -bench . ./...",
    'mvn test -DskipTests',
    'mvn -Dmaven.test.failure.ignore=true test',
    'mvn -fn test',
    './gradlew test -x test',
    'dotnet test --list-tests',
    'npx mocha --dry-run',
    'npx playwright test --list',
    'npx jest --testFailureExitCode=0',
    'bundle exec rspec --failure-exit-code 0',
    'make -i test',
    'tox -l',
  ])('says the status of a test run is hidden in %j', (command) => {
    expect(summarizeShellEffects(analyzeShellCommand(command, CTX))).toMatchObject({ test_run: true, test_status_hidden: true });
  });

  it.each([
    'npm test',
    'cd src && npm test',
    'npm test || exit 1',
    'npm test || { echo failed; exit 1; }',
    'set -o pipefail; npm test 2>&1 | tail -20',
    'set -euo pipefail; npm test | tail; echo done',
    'timeout 600 npx vitest run && npx tsc --noEmit',
    '(npm test)',
    "bash -c 'npm test'",
    'npm test 2>&1; exit $?',
    "bash -c 'cd app; npx vitest run; exit \"$?\"'",
    'find . -name package.json -execdir npm test {} +',
    'setsid -w -f npm test',
    "script -qec 'npm test' /dev/null",
    'systemd-run --user --wait npm test',
    "hyperfine 'npm test'",
    'pytest -l -n 4 -k smoke',
    'npx vitest run src/list.test.ts',
    'mvn -DskipTests=false test',
    './gradlew test -x lint',
    "go test -run 'TestX' ./...",
    'npx jest --testFailureExitCode 1',
    'make -C lib -j4 test',
  ])('says the status of the test run is the command\'s in %j', (command) => {
    expect(summarizeShellEffects(analyzeShellCommand(command, CTX))).toMatchObject({ test_run: true, test_status_hidden: false });
  });

  it('flags opaque code, installs, unknown programs, run-time paths, git changes and signals', () => {
    const summary = summarizeShellEffects(
      analyzeShellCommand('python3 -c 1; npm i x; terraform apply; rm "$F"; git commit -m x; pkill node', CTX),
    );
    expect(summary.opaque).toBe(true);
    expect(summary.installs).toBe(true);
    expect(summary.unknown_programs).toEqual(['terraform apply']);
    expect(summary.dynamic_paths).toBe(true);
    expect(summary.git_changes).toBe(true);
    expect(summary.signals).toEqual(['node']);
  });

  it('is empty for a command that only reads nothing', () => {
    const summary = summarizeShellEffects(analyzeShellCommand('echo "gobby workflow phase execute --force"', CTX));
    expect(summary.paths).toEqual([]);
    expect(summary.kinds).toEqual([]);
    expect(summary.programs).toEqual(['echo']);
  });
});

describe('programs and invocations', () => {
  it('lists the program behind every prefix, not the prefix', () => {
    const analysis = analyzeShellCommand('env -u CLAUDECODE sudo -E nice timeout 5 gobby workflow phase execute --force', CTX);
    expect(analysis.programs).toEqual(['gobby']);
    expect(analysis.invocations).toEqual([{ program: 'gobby', args: ['workflow', 'phase', 'execute', '--force'], cwd: '/repo', outputShown: true }]);
  });

  it('keeps a prefix that runs nothing (env printing the environment)', () => {
    expect(analyzeShellCommand('env | sort', CTX).programs).toEqual(['env', 'sort']);
  });

  it('records where each invocation runs after cd', () => {
    const analysis = analyzeShellCommand('cd ~/.gobby && node ../x/cli.js status', CTX);
    expect(analysis.invocations.at(-1)).toEqual({ program: 'node', args: ['../x/cli.js', 'status'], cwd: '/home/dev/.gobby', outputShown: true });
  });

  it('marks the invocations whose output goes only to the terminal', () => {
    const shown = (command: string): string[] => analyzeShellCommand(command, CTX).invocations.filter((invocation) => invocation.outputShown === true).map((invocation) => invocation.program);
    // A pipeline of text filters prints where its last stage prints.
    expect(shown('ps aux | grep node | head -3; kill $(lsof -ti:3000)')).toEqual(['ps', 'grep', 'head', 'kill']);
    // A substitution, a stage before a program that uses its input, a redirection, nohup: taken.
    expect(shown('kill $(pgrep -f vite)')).toEqual(['kill']);
    expect(shown('pgrep -f vite | xargs kill')).toEqual(['kill']);
    expect(shown('pgrep -f vite > /tmp/p; ps aux | sort -o /tmp/q')).toEqual(['sort']);
    expect(shown('{ pgrep vite; } > /tmp/p; pgrep vite >&2; pgrep vite 2>&1')).toEqual(['pgrep', 'pgrep']);
    expect(shown('nohup pgrep vite')).toEqual([]);
    expect(shown('exec > /tmp/log; pgrep vite')).toEqual([]);
  });

  it('sees the programs inside substitutions and re-parsed code', () => {
    expect(analyzeShellCommand('echo $(whoami) && bash -c "git status"', CTX).programs).toEqual(['whoami', 'echo', 'bash', 'git']);
  });
});

describe('caps', () => {
  it('does not parse a command above the length cap: it is opaque, and fast', () => {
    const huge = `echo ${'gobby workflow phase '.repeat(15_000)}`;
    expect(huge.length).toBeGreaterThan(300_000);
    const started = performance.now();
    const analysis = analyzeShellCommand(huge, CTX);
    expect(performance.now() - started).toBeLessThan(50);
    expect(analysis.effects).toEqual([{ kind: 'opaque', why: expect.stringContaining(`${MAX_COMMAND_LENGTH}-character limit`) }]);
  });

  it('classifies a command just under the cap', () => {
    const command = `cat ${'a '.repeat((MAX_COMMAND_LENGTH - 10) / 2)}`;
    expect(command.length).toBeLessThanOrEqual(MAX_COMMAND_LENGTH);
    expect(analyzeShellCommand(command, CTX).effects).toEqual([{ kind: 'read', path: { path: '/repo/a', dynamic: false }, program: 'cat' }]);
  });

  it('is opaque when subshells nest too deep', () => {
    const deep = `${'( '.repeat(200)}rm f${' )'.repeat(200)}`;
    expect(analyzeShellCommand(deep, CTX).effects.map((effect) => effect.kind)).toContain('opaque');
  });

  it('is opaque when substitutions nest too deep', () => {
    const deep = `${'$('.repeat(300)}rm f${')'.repeat(300)}`;
    expect(analyzeShellCommand(deep, CTX).effects.map((effect) => effect.kind)).toContain('opaque');
  });

  it('is opaque when bash -c nests code deeper than the re-parse cap, and still reports the levels it read', () => {
    let command = 'rm f';
    for (let level = 0; level < 12; level++) command = `bash -c ${shellQuote(command)}`;
    const kinds = analyzeShellCommand(command, CTX).effects.map((effect) => effect.kind);
    expect(kinds).toEqual(['opaque']);
  });

  it('reads a long word that ends in a glob or an expansion in linear time (no regex backtracking)', () => {
    // A pattern with a nested quantifier once took 2^n steps on `ls aaaa…a*`: 40 letters would stall the daemon for hours.
    for (const word of [`${'a'.repeat(4_000)}*`, `${'src/'.repeat(1_000)}"$x"`, `'a'${"b'c'".repeat(1_000)}$`]) {
      const started = performance.now();
      const analysis = analyzeShellCommand(`ls ${word}`, CTX);
      expect(performance.now() - started).toBeLessThan(50);
      expect(analysis.programs).toEqual(['ls']);
    }
  });

  it('stays linear on many short statements', () => {
    const time = (count: number): number => {
      const command = 'ls; '.repeat(count);
      const started = performance.now();
      // A different command each time: a remembered answer would measure the memo, not the classifier.
      for (let i = 0; i < 5; i++) analyzeShellCommand(`${command}#${i}`, CTX);
      return performance.now() - started;
    };
    time(1000); // warm up
    const small = time(2000);
    const large = time(8000);
    expect(large).toBeLessThan(small * 12); // 4x the input: far from quadratic (16x) even on a noisy machine
  });
});

describe('remembered analyses', () => {
  it('answers a repeated command with the same analysis', () => {
    const command = 'cd src && sed -i s/a/b/ x.ts && git status';
    const first = analyzeShellCommand(command, CTX);
    expect(analyzeShellCommand(command, CTX)).toEqual(first);
    expect(first.effects).toContainEqual({ kind: 'write', path: { path: '/repo/src/x.ts', dynamic: false }, program: 'sed' });
  });

  it('does not answer from memory for another working directory, home or project', () => {
    const command = 'rm notes.txt ~/x';
    analyzeShellCommand(command, CTX);
    const elsewhere = analyzeShellCommand(command, { cwd: '/other', home: '/home/someone', projectRoot: '/other' });
    expect(elsewhere.effects).toEqual([
      { kind: 'delete', path: { path: '/other/notes.txt', dynamic: false }, program: 'rm' },
      { kind: 'delete', path: { path: '/home/someone/x', dynamic: false }, program: 'rm' },
    ]);
    expect(analyzeShellCommand(command, CTX).effects[0]).toEqual({ kind: 'delete', path: { path: '/repo/notes.txt', dynamic: false }, program: 'rm' });
  });

  it('cannot be changed by a caller, so one caller never alters what the next is told', () => {
    const analysis = analyzeShellCommand('rm -rf build', CTX);
    expect(() => (analysis.effects as unknown[]).push({ kind: 'read' })).toThrow(TypeError);
    expect(() => (analysis.programs as string[]).splice(0)).toThrow(TypeError);
    expect(analyzeShellCommand('rm -rf build', CTX).effects).toEqual([{ kind: 'delete', path: { path: '/repo/build', dynamic: false }, program: 'rm' }]);
  });

  it('still answers correctly after the memo has evicted old entries', () => {
    const first = analyzeShellCommand('cat first.txt', CTX);
    for (let i = 0; i < 2_000; i++) analyzeShellCommand(`cat file-${i}.txt`, CTX);
    expect(analyzeShellCommand('cat first.txt', CTX)).toEqual(first);
  });
});

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

describe('the environment a command gives a program', () => {
  it('is recorded with the invocation, as rendered, through env and sudo', () => {
    const analysis = analyzeShellCommand('DOCKER_HOST=tcp://$H:2375 env X=1 sudo Y=2 docker ps; docker images', CTX);
    expect(analysis.invocations.map((invocation) => invocation.environment)).toEqual([['DOCKER_HOST=tcp://$H:2375', 'X=1', 'Y=2'], undefined]);
  });
});

describe('programs whose own language runs commands', () => {
  it('reads the command of an MCP server given as JSON, and takes mlr DSL that runs or writes as code gobby cannot see into', () => {
    const json = analyzeShellCommand('claude mcp add-json -s user x \'{"command":"rm","args":["-rf","/tmp/x"]}\'', CTX);
    expect(json.effects).toContainEqual(expect.objectContaining({ kind: 'delete', program: 'rm' }));
    expect(analyzeShellCommand("claude mcp add-json x 'not json'", CTX).effects).toContainEqual(expect.objectContaining({ kind: 'opaque' }));
    expect(analyzeShellCommand("mlr -n put 'end{system(\"date\")}'", CTX).effects).toContainEqual(expect.objectContaining({ kind: 'opaque', program: 'mlr' }));
    expect(analyzeShellCommand('mlr --icsv cat data.csv', CTX).effects.map((effect) => effect.kind)).not.toContain('opaque');
  });
});
