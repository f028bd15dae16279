// Reads a file the agent's tools could have replaced: opened without blocking and checked
// before it is read, so a FIFO (reading one waits for a writer for ever), a device or a huge
// file where a settings or workflow file belongs cannot stall or swamp the daemon.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

export type RegularFileRead =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly why: 'missing' | 'not a regular file' | 'too large' | 'unreadable'; readonly size?: number };

export function readRegularFile(path: string, maxBytes: number): RegularFileRead {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    return { ok: false, why: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'unreadable' };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { ok: false, why: 'not a regular file' };
    if (stat.size > maxBytes) return { ok: false, why: 'too large', size: stat.size };
    const buffer = Buffer.alloc(stat.size);
    const read = readSync(fd, buffer, 0, stat.size, 0);
    return { ok: true, text: buffer.subarray(0, read).toString('utf8') };
  } catch {
    return { ok: false, why: 'unreadable' };
  } finally {
    closeSync(fd);
  }
}
