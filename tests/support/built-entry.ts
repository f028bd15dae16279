// Runs a built entry point (the gobby CLI, the hook client) as a user's shell would for one
// GOBBY_HOME and port: none of the test runner's environment (no CLAUDECODE, no real
// GOBBY_HOME) is inherited. `npm test` builds dist/ first.
import { spawn } from 'node:child_process';

export interface EntryRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface EntryEnv {
  /** HOME and GOBBY_HOME both. */
  readonly home: string;
  /** GOBBY_PORT as given: a string tests a value that is not a port ('' leaves it to config.json). */
  readonly port: number | string;
}

/** `extraEnv` adds variables a test sets on purpose (CLAUDECODE=1, say). */
export function runBuiltEntry(
  entry: string,
  args: readonly string[],
  env: EntryEnv,
  options: { cwd?: string; stdin?: string; extraEnv?: Record<string, string> } = {},
): Promise<EntryRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry, ...args], {
      cwd: options.cwd ?? env.home,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: env.home, GOBBY_HOME: env.home, GOBBY_PORT: String(env.port), ...options.extraEnv },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(options.stdin ?? '');
  });
}
