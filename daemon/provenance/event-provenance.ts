// Did this hook event come from the session's Claude Code process, or was it forged?
//
// Claude Code posts its http hook events from its own process (over one keep-alive
// connection); the agent's Bash tool runs as a child of that process, so a `curl` it runs
// is a different process on a different connection. The daemon looks up which process holds
// the far end of each new connection (/proc, proc-reader.ts) and compares it with the
// process registered for the session:
// - at SessionStart, from the command client's connection: the client's nearest ancestor
//   that is not a shell is Claude Code (`node client.js` < `sh -c` < `claude`), if it looks
//   like Claude Code (a client run by hand has a terminal, tmux or sshd there instead);
// - otherwise on the session's first http event (trust on first use: the model cannot run a
//   tool before Claude Code has sent its first event).
// Neither an environment variable nor a header is involved, so there is nothing the agent
// can read and replay. What this cannot see is listed in docs/security.md.
import type { SessionProcessRow } from '../store/session-processes-repository.js';
import type { ProcessInfo, ProcReader } from './proc-reader.js';

/** The far end of a loopback connection as the daemon sees it. */
export interface Peer {
  readonly peerPort: number;
  readonly localPort: number;
}

export type Provenance =
  /** Sent by the session's registered Claude Code process. `register` is set when this event registers it. */
  | { readonly kind: 'claude-code'; readonly process: ProcessInfo; readonly register?: SessionProcessRow }
  | { readonly kind: 'forged'; readonly sender: ProcessInfo | null; readonly expected: SessionProcessRow; readonly why: string }
  /**
   * Nothing to check against (no /proc, an in-process request): the event is taken as it is.
   * `notRegistered`: a SessionStart's hook runner that does not look like Claude Code, left unregistered.
   */
  | { readonly kind: 'unverified'; readonly why: string; readonly notRegistered?: ProcessInfo };

export interface EventProvenanceDeps {
  readonly proc: ProcReader;
  readonly registeredProcess: (sessionId: string) => SessionProcessRow | undefined;
  readonly clock: () => number;
}

/** Shells and wrappers between Claude Code and its command hooks. */
const LAUNCHERS = new Set(['sh', 'bash', 'dash', 'zsh', 'fish', 'ksh', 'env', 'timeout', 'nice', 'nohup', 'setsid', 'stdbuf']);
const MAX_ANCESTORS = 16;
/**
 * Searching every process for a socket takes tens of milliseconds and stalls every session's
 * hooks meanwhile, and forged requests are the agent's to repeat: a few searches a second.
 */
const SEARCHES_PER_WINDOW = 5;
const SEARCH_WINDOW_MS = 1000;

export function createEventProvenance({ proc, registeredProcess, clock }: EventProvenanceDeps) {
  const recentSearches: number[] = [];

  function searchSocketHolder(inode: string): number | null {
    const now = clock();
    while (recentSearches.length > 0 && now - recentSearches[0]! >= SEARCH_WINDOW_MS) recentSearches.shift();
    if (recentSearches.length >= SEARCHES_PER_WINDOW) return null;
    recentSearches.push(now);
    return proc.findSocketHolder(inode);
  }

  function isAlive(row: SessionProcessRow): boolean {
    return proc.processInfo(row.pid)?.startTime === row.startTime;
  }

  function describe(info: ProcessInfo | null): string {
    return info ? `pid ${info.pid} (${info.comm})` : 'a process gobby could not identify';
  }

  function forged(expected: SessionProcessRow, inode: string, why: (sender: string) => string): Provenance {
    // The slow search runs only here, on the refused path, to name the sender in the audit row.
    const holder = searchSocketHolder(inode);
    const sender = holder === null ? null : proc.processInfo(holder);
    return { kind: 'forged', sender, expected, why: why(describe(sender)) };
  }

  function asRow(info: ProcessInfo, registeredBy: SessionProcessRow['registeredBy']): SessionProcessRow {
    return { pid: info.pid, startTime: info.startTime, comm: info.comm, registeredBy };
  }

  /**
   * Whether a hook runner is Claude Code: its name or its program says `claude` (the native
   * `claude` binary, or `node …/@anthropic-ai/claude-code/cli.js`: the program and the script
   * an interpreter runs, never the later arguments, which anyone can fill), or it was started
   * inside a Claude Code session (CLAUDECODE in its environment: a nested `claude`). `gobby
   * hook SessionStart` run by hand in a terminal has the terminal emulator, tmux or sshd there,
   * and registering that would refuse every override from the user's own shells as the agent's.
   */
  function looksLikeClaudeCode(info: ProcessInfo): boolean {
    const [program = '', script = ''] = proc.commandLine(info.pid) ?? [];
    if ([info.comm, program, script].some((word) => /claude/i.test(word))) return true;
    return proc.environment(info.pid)?.has('CLAUDECODE') === true;
  }

  /** The first ancestor of `pid` that is not a shell or a launcher: the process that ran the hook command. */
  function hookRunnerOf(pid: number): ProcessInfo | null {
    let info = proc.processInfo(pid);
    for (let depth = 0; info && depth < MAX_ANCESTORS; depth++) {
      const parent = info.ppid > 0 ? proc.processInfo(info.ppid) : null;
      if (!parent || !LAUNCHERS.has(parent.comm)) return parent;
      info = parent;
    }
    return null;
  }

  return {
    /** An http hook event: must come from the registered process itself. */
    checkHttpEvent(sessionId: string, peer: Peer | undefined): Provenance {
      if (!proc.available) return { kind: 'unverified', why: 'this system has no /proc' };
      if (!peer) return { kind: 'unverified', why: 'the request did not arrive over TCP' };
      const inode = proc.socketInode(peer.peerPort, peer.localPort);
      if (!inode) return { kind: 'unverified', why: `no TCP connection from port ${peer.peerPort} was found` };
      const expected = registeredProcess(sessionId);
      if (expected && isAlive(expected)) {
        if (proc.holdsSocket(expected.pid, inode)) return { kind: 'claude-code', process: processOf(expected) };
        return forged(expected, inode, (sender) => `sent by ${sender}, not by the session's Claude Code (pid ${expected.pid}, ${expected.comm})`);
      }
      const holder = searchSocketHolder(inode);
      const info = holder === null ? null : proc.processInfo(holder);
      if (!info) return { kind: 'unverified', why: 'the sending process could not be found (or was looked for too often)' };
      return { kind: 'claude-code', process: info, register: asRow(info, 'first-event') };
    },

    /**
     * SessionStart through the command client: registers the client's hook runner. While the
     * registered Claude Code process lives, a SessionStart that names another one is forged.
     * `claimedClientPid` (sent by the client) spares the search of every process.
     */
    checkSessionStart(sessionId: string, peer: Peer | undefined, claimedClientPid: number | undefined): Provenance {
      if (!proc.available) return { kind: 'unverified', why: 'this system has no /proc' };
      if (!peer) return { kind: 'unverified', why: 'the request did not arrive over TCP' };
      const inode = proc.socketInode(peer.peerPort, peer.localPort);
      if (!inode) return { kind: 'unverified', why: `no TCP connection from port ${peer.peerPort} was found` };
      const client =
        claimedClientPid !== undefined && proc.holdsSocket(claimedClientPid, inode) ? claimedClientPid : searchSocketHolder(inode);
      const runner = client === null ? null : hookRunnerOf(client);
      if (!runner) return { kind: 'unverified', why: 'the process that ran the SessionStart hook could not be found' };
      const expected = registeredProcess(sessionId);
      if (expected && expected.pid !== runner.pid && isAlive(expected)) {
        return forged(expected, inode, () => `a SessionStart from ${describe(runner)} while the session's Claude Code (pid ${expected.pid}) runs`);
      }
      if (!looksLikeClaudeCode(runner)) {
        return {
          kind: 'unverified',
          notRegistered: runner,
          why:
            `the SessionStart hook was run by ${describe(runner)}, which does not look like Claude Code (neither its program nor its command line ` +
            'names claude, and CLAUDECODE is not in its environment; `gobby hook SessionStart` run by hand from a terminal?): it was not registered as ' +
            "the session's Claude Code, and the session's first http event registers its sender instead",
        };
      }
      return { kind: 'claude-code', process: runner, register: asRow(runner, 'session-start') };
    },
  };
}

export type EventProvenance = ReturnType<typeof createEventProvenance>;

function processOf(row: SessionProcessRow): ProcessInfo {
  return { pid: row.pid, ppid: 0, comm: row.comm, startTime: row.startTime };
}
