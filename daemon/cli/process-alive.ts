// Whether a process still runs, for `daemon stop` waiting on the daemon to exit.
// `kill(pid, 0)` alone also succeeds for a zombie: a process that has exited but that its parent
// has not reaped yet. A detached daemon's parent is init, and some inits (in containers and
// microVMs) reap only every second or so: `daemon stop` then waited that long, up to its timeout
// where init never reaps. On Linux /proc/<pid>/stat tells a zombie from a running process.
import { readFileSync } from 'node:fs';

export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to another user, so it runs.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !hasExited(pid);
}

/** True for a zombie (Z) or a dead (X) process; false where /proc cannot say (not Linux). */
function hasExited(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (error) {
    // Gone between the two checks; without /proc, kill(0) is all there is.
    return (error as NodeJS.ErrnoException).code === 'ENOENT' && process.platform === 'linux';
  }
  // The state follows the command name in parentheses, which may itself hold ") ".
  const state = stat.charAt(stat.lastIndexOf(')') + 2);
  return state === 'Z' || state === 'X';
}
