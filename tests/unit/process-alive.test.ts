// `daemon stop` waits until the daemon has exited. A daemon that exited but that init has not
// reaped yet is a zombie: kill(pid, 0) still succeeds on it, and on this machine's init that made
// every stop wait about a second (up to the 10 s timeout where init never reaps).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { isProcessRunning } from '../../daemon/cli/process-alive.js';

function stateOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.charAt(stat.lastIndexOf(')') + 2);
  } catch {
    return undefined;
  }
}

describe.runIf(process.platform === 'linux')('isProcessRunning', () => {
  it('is true for a running process and false for a pid that is gone', async () => {
    expect(isProcessRunning(process.pid)).toBe(true);
    const child = spawn('sleep', ['0']);
    await new Promise((resolve) => child.once('exit', resolve));
    // Node has reaped its own child: the pid is free (unless reused at once, which would run).
    expect(isProcessRunning(child.pid!)).toBe(stateOf(child.pid!) !== undefined);
  });

  it('is false for a zombie, although kill(pid, 0) still succeeds on it', async () => {
    // The background `sleep` exits after its parent has become `sleep 10`, which never waits: a
    // zombie until then. (Exiting at once raced the `exec`: the shell could reap it first.)
    const parent = spawn('sh', ['-c', 'sleep 0.5 & echo $!; exec sleep 10'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const pid = Number(await new Promise<string>((resolve) => parent.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString()))));
      for (let i = 0; i < 500 && stateOf(pid) !== 'Z'; i++) await sleep(10);
      expect(stateOf(pid)).toBe('Z');
      expect(() => process.kill(pid, 0)).not.toThrow();
      expect(isProcessRunning(pid)).toBe(false);
    } finally {
      parent.kill('SIGKILL');
    }
  });
});
