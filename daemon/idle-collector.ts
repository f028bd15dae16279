// Young-generation garbage collection while the daemon waits for Claude Code.
//
// One hook event allocates from a few kilobytes to about half a megabyte (the parse tree and the
// analysis of a 4 KB Bash script are ~400 KB), and the daemon's young generation is small on
// purpose (--max-semi-space-size=4, for its memory). Left to V8, a scavenge runs whenever that
// space fills, which is often in the middle of a hook request, and that answer then takes
// 0.5–4 ms longer. But sessions send their events tens of milliseconds to seconds apart, so the
// daemon is idle most of the time: once no request has been in flight for IDLE_MS, it empties
// the young generation itself once it is half full, and the next event starts with megabytes of
// room. (Browsers do the same in their idle time.) Under continuous load there is no idle gap and
// nothing changes: V8 collects when it must. The timer counts from the last request's arrival:
// answers take about a millisecond, and one still running after IDLE_MS (a large body arriving
// slowly) would at worst wait for one young collection.
import { getHeapSpaceStatistics } from 'node:v8';

/** Quiet time after the last request before collecting: longer than the gaps within one burst of events. */
export const IDLE_MS = 20;
/** Below this much in the young generation a collection would buy little room for its ~0.2 ms. */
export const MIN_YOUNG_BYTES = 256 * 1024;
/**
 * Collect only once the young generation is at least this full. A collection is not free for the
 * request after it either: it walks the heap's roots and leaves the classifier's code and tables
 * out of the CPU cache, and emptying the young generation before every event made the 4 KB
 * scripts' p99 worse, not better (docs/benchmarks.md). Half full still leaves room for several
 * 4 KB analyses, so V8 seldom has to collect inside a request.
 */
export const COLLECT_AT_FRACTION = 0.5;

/** The young generation's use and size, in bytes. */
export interface YoungGeneration {
  readonly used: number;
  readonly capacity: number;
}

export interface IdleCollector {
  /** Whether collections can run at all (they need node's --expose-gc). */
  readonly enabled: boolean;
  /** A request arrived: re-arms the idle timer, so a collection runs IDLE_MS after the last one. */
  requestArrived(): void;
  /** Collects now if the young generation is at least half full (and past MIN_YOUNG_BYTES); true if it did. */
  collectIfWorthIt(): boolean;
  close(): void;
}

export interface IdleCollectorDeps {
  /** Runs one young-generation collection; undefined when the process cannot (no --expose-gc). */
  readonly collectYoung?: (() => void) | undefined;
  readonly youngGeneration?: () => YoungGeneration;
}

export function createIdleCollector(deps: IdleCollectorDeps = { collectYoung: exposedYoungCollection() }): IdleCollector {
  const collectYoung = deps.collectYoung;
  const youngGeneration = deps.youngGeneration ?? measuredYoungGeneration;
  let timer: NodeJS.Timeout | undefined;

  const collector: IdleCollector = {
    enabled: collectYoung !== undefined,
    requestArrived() {
      if (collectYoung === undefined) return;
      // One timer for the daemon's life, pushed back by every request: no allocation per request.
      if (timer === undefined) {
        timer = setTimeout(() => collector.collectIfWorthIt(), IDLE_MS);
        timer.unref();
      } else timer.refresh();
    },
    collectIfWorthIt() {
      if (collectYoung === undefined) return false;
      const young = youngGeneration();
      if (young.used < Math.max(MIN_YOUNG_BYTES, young.capacity * COLLECT_AT_FRACTION)) return false;
      collectYoung();
      return true;
    },
    close() {
      clearTimeout(timer);
    },
  };
  return collector;
}

/** node's gc() with --expose-gc (the daemon is started with it), as a young-generation collection. */
function exposedYoungCollection(): (() => void) | undefined {
  const gc = (globalThis as { gc?: (options: { type: 'minor' | 'major' }) => void }).gc;
  return typeof gc === 'function' ? () => gc({ type: 'minor' }) : undefined;
}

/** V8's new space: what is in use, and what is in use plus what is left before V8 must collect (one semi-space). */
function measuredYoungGeneration(): YoungGeneration {
  for (const space of getHeapSpaceStatistics()) if (space.space_name === 'new_space') return { used: space.space_used_size, capacity: space.space_used_size + space.space_available_size };
  return { used: 0, capacity: 0 };
}
