// What a process search sees of the daemon: `pkill -f <pattern>` matches its command line,
// `pkill <pattern>` and `killall -r <pattern>` its name. The guards test an agent's pattern against
// these (`pkill -f 'daemon/mai'`, `killall -r 'nod.'`), so any spelling that would find the
// daemon is refused, not only the words gobby expects. Read once, when the daemon starts.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

export interface OwnProcess {
  /** The kernel's short name (`/proc/self/comm`, 15 characters) and the executable's name. */
  readonly names: readonly string[];
  /** The arguments joined by spaces, as `ps -o args` and `pkill -f` show them. */
  readonly commandLine: string;
}

export function ownProcess(procRoot = '/proc'): OwnProcess {
  const comm = readOrNull(`${procRoot}/self/comm`)?.trim();
  const cmdline = readOrNull(`${procRoot}/self/cmdline`);
  const names = [...new Set([comm ?? process.title, basename(process.execPath)].filter((name) => name !== ''))];
  const commandLine = cmdline ? cmdline.replace(/\0+$/, '').replaceAll('\0', ' ') : [process.execPath, ...process.execArgv, ...process.argv.slice(1)].join(' ');
  return { names, commandLine };
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null; // no /proc (macOS): the command line built from process.argv stands in
  }
}
