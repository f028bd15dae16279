// Which local process is at the other end of a loopback TCP connection, read from Linux's
// /proc: /proc/net/tcp{,6} maps the connection's ports to a socket inode, and
// /proc/<pid>/fd/* links name the sockets a process holds (`socket:[inode]`). The root is
// a parameter so tests can lay out a /proc of their own.
import { closeSync, openSync, readdirSync, readFileSync, readlinkSync, readSync } from 'node:fs';
import { join } from 'node:path';

export interface ProcessInfo {
  readonly pid: number;
  readonly ppid: number;
  /** The kernel's short name for the process (`claude`, `curl`, `sh`, …). */
  readonly comm: string;
  /** Clock ticks after boot: with the pid, names a process even after its pid is reused. */
  readonly startTime: number;
}

/** What the daemon can learn about a process that it does not have to take on its word. */
export interface ProcessDetail extends ProcessInfo {
  /** Session id and process group: `setsid` changes both, a plain fork or `nohup` neither. */
  readonly sid: number;
  readonly pgrp: number;
  /** The controlling terminal's device number, 0 for none. */
  readonly ttyNr: number;
  /** The real user id, from /proc/<pid>/status. */
  readonly uid: number | null;
}

export interface ProcReader {
  /** False where there is no /proc (macOS, Windows): nothing can be verified there. */
  readonly available: boolean;
  /** The inode of the loopback connection whose far end uses `peerPort` and near end `localPort`. */
  socketInode(peerPort: number, localPort: number): string | null;
  processInfo(pid: number): ProcessInfo | null;
  /** Whether `pid` holds the socket: a readdir and a readlink per open file of that one process. */
  holdsSocket(pid: number, inode: string): boolean;
  /** Every process is searched: tens of milliseconds on a busy machine, so only on rare paths. */
  findSocketHolder(inode: string): number | null;
  processDetail(pid: number): ProcessDetail | null;
  /** What file descriptor `fd` of `pid` points at (`/dev/pts/3`, `pipe:[…]`, a path), or null. */
  openFile(pid: number, fd: number): string | null;
  /** The environment `pid` was started with (what the process itself changed later is not seen). */
  environment(pid: number): ReadonlyMap<string, string> | null;
  /** The arguments `pid` was started with, the program first (`/proc/<pid>/cmdline`), or null. */
  commandLine(pid: number): readonly string[] | null;
}

const TCP_TABLES = ['net/tcp', 'net/tcp6'];
/**
 * Bytes of a TCP table read at a time (about 200 lines). The kernel writes the table as it is
 * read, and on a busy machine it runs to thousands of lines (TIME_WAIT included). With 1 900
 * lines here, `readFileSync` of the whole table took 3–5 ms, on the event loop, for every new
 * connection; reading 32 KB at a time and stopping at the connection's line took 0.3–0.7 ms.
 * Smaller reads cost more calls, and much larger ones (256 KB) made the kernel write the whole
 * table again.
 */
const TABLE_CHUNK_BYTES = 32 * 1024;
/** One buffer for every scan: the reads are synchronous, so no two scans share it at once. */
const tableChunk = Buffer.allocUnsafe(TABLE_CHUNK_BYTES);

export function createProcReader(root = '/proc'): ProcReader {
  const available = readable(join(root, 'net', 'tcp'));

  function holdsSocket(pid: number, inode: string): boolean {
    const target = `socket:[${inode}]`;
    const fdDirectory = join(root, String(pid), 'fd');
    let fds: string[];
    try {
      fds = readdirSync(fdDirectory);
    } catch {
      return false;
    }
    return fds.some((fd) => {
      try {
        return readlinkSync(join(fdDirectory, fd)) === target;
      } catch {
        return false;
      }
    });
  }

  return {
    available,
    socketInode(peerPort, localPort) {
      for (const table of TCP_TABLES) {
        const inode = scanTable(join(root, table), peerPort, localPort);
        if (inode) return inode;
      }
      return null;
    },
    processInfo(pid) {
      try {
        return parseStat(pid, readFileSync(join(root, String(pid), 'stat'), 'utf8'));
      } catch {
        return null;
      }
    },
    holdsSocket,
    processDetail(pid) {
      try {
        const detail = parseStatDetail(pid, readFileSync(join(root, String(pid), 'stat'), 'utf8'));
        if (!detail) return null;
        return { ...detail, uid: parseUid(readFileSync(join(root, String(pid), 'status'), 'utf8')) };
      } catch {
        return null;
      }
    },
    openFile(pid, fd) {
      try {
        return readlinkSync(join(root, String(pid), 'fd', String(fd)));
      } catch {
        return null;
      }
    },
    commandLine(pid) {
      try {
        return readFileSync(join(root, String(pid), 'cmdline'), 'utf8').split('\0').filter((arg) => arg !== '');
      } catch {
        return null;
      }
    },
    environment(pid) {
      try {
        const text = readFileSync(join(root, String(pid), 'environ'), 'utf8');
        const entries = text.split('\0').flatMap((entry): [string, string][] => {
          const equals = entry.indexOf('=');
          return equals > 0 ? [[entry.slice(0, equals), entry.slice(equals + 1)]] : [];
        });
        return new Map(entries);
      } catch {
        return null;
      }
    },
    findSocketHolder(inode) {
      let entries: string[];
      try {
        entries = readdirSync(root);
      } catch {
        return null;
      }
      for (const entry of entries) {
        if (/^\d+$/.test(entry) && holdsSocket(Number(entry), inode)) return Number(entry);
      }
      return null;
    },
  };
}

/** The connection's inode from a TCP table read a chunk at a time, stopping at its line. */
function scanTable(path: string, peerPort: number, localPort: number): string | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    let partialLine = '';
    for (;;) {
      const length = readSync(fd, tableChunk, 0, TABLE_CHUNK_BYTES, null);
      // The table is ASCII; latin1 decodes it without UTF-8's checks.
      const text = partialLine + tableChunk.toString('latin1', 0, length);
      const end = length === 0 ? text.length : text.lastIndexOf('\n') + 1;
      const found = inodeInLines(text.slice(0, end), peerPort, localPort);
      if (found !== undefined || length === 0) return found ?? null;
      partialLine = text.slice(end);
    }
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * A line of /proc/net/tcp: `sl local_address rem_address st … uid timeout inode`, addresses
 * as hex `IP:PORT`. The connection seen from the client's side has the client's port as its
 * local address and the daemon's port as its remote one.
 */
export function findInode(table: string, peerPort: number, localPort: number): string | null {
  return inodeInLines(table, peerPort, localPort) ?? null;
}

/** `undefined` when no line of `lines` is the connection; null when its line has no inode. */
function inodeInLines(lines: string, peerPort: number, localPort: number): string | null | undefined {
  // The kernel prints ports as four upper-case hex digits: look for the client's port and
  // split only the lines that have it, not every line of the table.
  const needle = `:${peerPort.toString(16).toUpperCase().padStart(4, '0')} `;
  for (let at = lines.indexOf(needle); at !== -1; at = lines.indexOf(needle, at + needle.length)) {
    const start = lines.lastIndexOf('\n', at) + 1;
    const newline = lines.indexOf('\n', at);
    const fields = lines.slice(start, newline === -1 ? lines.length : newline).trim().split(/\s+/);
    if (fields.length < 10) continue;
    if (portOf(fields[1]!) === peerPort && portOf(fields[2]!) === localPort) {
      const inode = fields[9]!;
      return inode === '0' ? null : inode;
    }
  }
  return undefined;
}

/** `/proc/<pid>/stat`: `pid (comm) state ppid … starttime(22nd)`; comm may hold spaces and parentheses. */
export function parseStat(pid: number, stat: string): ProcessInfo | null {
  const open = stat.indexOf('(');
  const close = stat.lastIndexOf(')');
  if (open < 0 || close < open) return null;
  const rest = stat.slice(close + 2).split(' ');
  const ppid = Number(rest[1]);
  const startTime = Number(rest[19]);
  if (!Number.isInteger(ppid) || !Number.isFinite(startTime)) return null;
  return { pid, ppid, comm: stat.slice(open + 1, close), startTime };
}

/** `/proc/<pid>/stat` fields 5 to 7 (pgrp, session, tty_nr) besides what `parseStat` reads. */
function parseStatDetail(pid: number, stat: string): Omit<ProcessDetail, 'uid'> | null {
  const info = parseStat(pid, stat);
  if (!info) return null;
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { ...info, pgrp: Number(rest[2]), sid: Number(rest[3]), ttyNr: Number(rest[4]) };
}

function parseUid(status: string): number | null {
  const match = /^Uid:\s+(\d+)/m.exec(status);
  return match ? Number(match[1]) : null;
}

function portOf(address: string): number {
  return parseInt(address.slice(address.lastIndexOf(':') + 1), 16);
}

function readable(path: string): boolean {
  try {
    readFileSync(path, 'utf8');
    return true;
  } catch {
    return false;
  }
}
