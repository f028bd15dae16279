// Did a human override come from the human, or from a process a Claude Code session's tools
// started? The daemon decides from what it reads in /proc about the process that holds the
// request's connection, never from what the request says about itself (the CLI's
// CLAUDECODE check is a first line the agent can step around by unsetting the variable).
//
// The client process is the pid the CLI names in `x-gobby-client-pid`, confirmed to hold the
// connection's socket, or else the socket's holder found by a search. It is an agent's when
// any of these links it to a live registered Claude Code process (session_processes):
// - ancestry: the process, or the leader of its session (SID), descends from it. `script`
//   and `nohup … &` keep that; `setsid` and a double fork cut it (the process is reparented
//   to init);
// - output: its stdout or stderr is a file Claude Code's Bash tool gave it
//   (`…/claude-<uid>/<project>/<session id>/tasks/<task>.output`), which `setsid`, `nohup`
//   and a double fork all inherit;
// - environment: `CLAUDE_PID` or `CLAUDE_CODE_SESSION_ID` naming a live session's process. A
//   signal only: `env -u` removes it.
// What escapes all three is written down in docs/security.md.
import type { SessionProcessRow } from '../store/session-processes-repository.js';
import type { Peer } from './event-provenance.js';
import type { ProcessDetail, ProcReader } from './proc-reader.js';

/** Who ran an override, as the daemon verified it. */
export interface OverrideClient {
  readonly pid: number;
  readonly comm: string;
  readonly uid: number | null;
  readonly user: string | null;
  /** `/dev/pts/3` when its stdin is a terminal, else null. */
  readonly tty: string | null;
}

export interface AgentLink {
  /** The live Claude Code process the client is linked to, and the session that registered it. */
  readonly claudeCode: { readonly pid: number; readonly comm: string; readonly sessionId: string };
  /** What linked them, in words: `descends from it`, `its stdout is …`, … */
  readonly signals: readonly string[];
}

export type OverrideOrigin =
  | { readonly kind: 'human'; readonly client: OverrideClient }
  | ({ readonly kind: 'agent'; readonly client: OverrideClient } & AgentLink)
  /** The connection is there but its process could not be found: refused, since it cannot be cleared. */
  | { readonly kind: 'unknown'; readonly why: string }
  /** Nothing to check against (no /proc, an in-process request): taken as the human's. */
  | { readonly kind: 'unverified'; readonly why: string };

export interface OverrideOriginDeps {
  readonly proc: ProcReader;
  /** The sessions that registered `pid` as their Claude Code process. */
  readonly registeredWithPid: (pid: number) => readonly (SessionProcessRow & { readonly sessionId: string })[];
  readonly registeredProcess: (sessionId: string) => SessionProcessRow | undefined;
  /** User names by uid (/etc/passwd); an unknown uid is shown as a number. */
  readonly userName: (uid: number) => string | null;
  readonly clock: () => number;
}

const MAX_ANCESTORS = 64;
/** A request that names no pid costs a search of every process: a few a second at most. */
const SEARCHES_PER_WINDOW = 5;
const SEARCH_WINDOW_MS = 1000;
/** Where Claude Code's Bash tool sends a command's output: `…/claude-<uid>/<project>/<session id>/tasks/<task>.output`. */
const TASK_OUTPUT = /\/claude-\d+\/[^/]+\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/tasks\/[^/]+$/i;

export function createOverrideOrigin(deps: OverrideOriginDeps) {
  const { proc } = deps;
  const recentSearches: number[] = [];

  function searchSocketHolder(inode: string): number | null {
    const now = deps.clock();
    while (recentSearches.length > 0 && now - recentSearches[0]! >= SEARCH_WINDOW_MS) recentSearches.shift();
    if (recentSearches.length >= SEARCHES_PER_WINDOW) return null;
    recentSearches.push(now);
    return proc.findSocketHolder(inode);
  }

  function liveRow(row: SessionProcessRow | undefined): boolean {
    return row !== undefined && proc.processInfo(row.pid)?.startTime === row.startTime;
  }

  /** The registered, live Claude Code process among `pid`'s ancestors (itself excluded), if any. */
  function claudeCodeAbove(pid: number): AgentLink['claudeCode'] | null {
    let info = proc.processInfo(pid);
    for (let depth = 0; info && info.ppid > 1 && depth < MAX_ANCESTORS; depth++) {
      const parent = proc.processInfo(info.ppid);
      if (!parent) return null;
      const row = deps.registeredWithPid(parent.pid).find((candidate) => candidate.startTime === parent.startTime);
      if (row) return { pid: row.pid, comm: row.comm, sessionId: row.sessionId };
      info = parent;
    }
    return null;
  }

  function liveSession(sessionId: string): AgentLink['claudeCode'] | null {
    const row = deps.registeredProcess(sessionId);
    return row && liveRow(row) ? { pid: row.pid, comm: row.comm, sessionId } : null;
  }

  function liveByPid(pid: number): AgentLink['claudeCode'] | null {
    const info = proc.processInfo(pid);
    const row = info ? deps.registeredWithPid(pid).find((candidate) => candidate.startTime === info.startTime) : undefined;
    return row ? { pid: row.pid, comm: row.comm, sessionId: row.sessionId } : null;
  }

  function linkToAgent(client: ProcessDetail): AgentLink | null {
    const found: { claudeCode: AgentLink['claudeCode']; signal: string }[] = [];
    const above = claudeCodeAbove(client.pid);
    if (above) found.push({ claudeCode: above, signal: `it descends from Claude Code (pid ${above.pid})` });
    if (client.sid > 1 && client.sid !== client.pid) {
      const leaderAbove = claudeCodeAbove(client.sid);
      if (leaderAbove) found.push({ claudeCode: leaderAbove, signal: `the leader of its session (pid ${client.sid}) descends from Claude Code (pid ${leaderAbove.pid})` });
    }
    for (const fd of [1, 2]) {
      const target = proc.openFile(client.pid, fd);
      const sessionId = target ? TASK_OUTPUT.exec(target)?.[1] : undefined;
      const owner = sessionId ? liveSession(sessionId) : null;
      if (owner) found.push({ claudeCode: owner, signal: `its ${fd === 1 ? 'stdout' : 'stderr'} is the output file of a Claude Code Bash tool call (${target})` });
    }
    const env = proc.environment(client.pid);
    const claudePid = env?.get('CLAUDE_PID');
    const byEnvPid = claudePid && /^\d+$/.test(claudePid) ? liveByPid(Number(claudePid)) : null;
    if (byEnvPid) found.push({ claudeCode: byEnvPid, signal: `its environment names Claude Code (CLAUDE_PID=${claudePid})` });
    const envSession = env?.get('CLAUDE_CODE_SESSION_ID');
    const byEnvSession = envSession ? liveSession(envSession) : null;
    if (byEnvSession) found.push({ claudeCode: byEnvSession, signal: `its environment names a running session (CLAUDE_CODE_SESSION_ID=${envSession})` });
    if (found.length === 0) return null;
    return { claudeCode: found[0]!.claudeCode, signals: [...new Set(found.map((entry) => entry.signal))] };
  }

  function describeClient(detail: ProcessDetail): OverrideClient {
    const stdin = proc.openFile(detail.pid, 0);
    return {
      pid: detail.pid,
      comm: detail.comm,
      uid: detail.uid,
      user: detail.uid === null ? null : deps.userName(detail.uid),
      tty: stdin && /^\/dev\/(pts\/\d+|tty\w*)$/.test(stdin) ? stdin : null,
    };
  }

  return {
    /** `claimedPid` is the CLI's `x-gobby-client-pid`: believed only if that process holds the connection. */
    check(peer: Peer | undefined, claimedPid: number | undefined): OverrideOrigin {
      if (!proc.available) return { kind: 'unverified', why: 'this system has no /proc' };
      if (!peer) return { kind: 'unverified', why: 'the request did not arrive over TCP' };
      const inode = proc.socketInode(peer.peerPort, peer.localPort);
      if (!inode) return { kind: 'unknown', why: `no TCP connection from port ${peer.peerPort} was found` };
      const pid = claimedPid !== undefined && proc.holdsSocket(claimedPid, inode) ? claimedPid : searchSocketHolder(inode);
      const detail = pid === null ? null : proc.processDetail(pid);
      if (!detail) return { kind: 'unknown', why: 'the process that sent it could not be found (or was looked for too often)' };
      const client = describeClient(detail);
      const link = linkToAgent(detail);
      return link ? { kind: 'agent', client, ...link } : { kind: 'human', client };
    },
  };
}

export type OverrideOriginCheck = ReturnType<typeof createOverrideOrigin>;
