// The daemon empties V8's young generation once no request has come for IDLE_MS, so that the
// next hook event does not pay for a scavenge; under continuous load it leaves V8 alone.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COLLECT_AT_FRACTION, createIdleCollector, IDLE_MS, MIN_YOUNG_BYTES } from '../../daemon/idle-collector.js';
import { DAEMON_NODE_FLAGS } from '../../hooks/daemon-locator.js';
import { REPO_ROOT } from '../support/claude-cli.js';

describe('the idle collector', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  /** The daemon's young generation: 4 MB semi-spaces (DAEMON_NODE_FLAGS). */
  const CAPACITY = 4 * 1024 * 1024;

  function collectorWith(used: number, capacity = CAPACITY) {
    const collections = { count: 0 };
    const collector = createIdleCollector({ collectYoung: () => collections.count++, youngGeneration: () => ({ used, capacity }) });
    return { collector, collections };
  }

  it('collects once, IDLE_MS after the last request', () => {
    const { collector, collections } = collectorWith(CAPACITY * 0.75);
    collector.requestArrived();
    vi.advanceTimersByTime(IDLE_MS - 1);
    expect(collections.count).toBe(0);
    vi.advanceTimersByTime(1);
    expect(collections.count).toBe(1);
    vi.advanceTimersByTime(IDLE_MS * 10);
    expect(collections.count).toBe(1);
    collector.close();
  });

  it('does not collect while requests keep coming, and does once they stop', () => {
    const { collector, collections } = collectorWith(CAPACITY * 0.75);
    for (let i = 0; i < 50; i++) {
      collector.requestArrived();
      vi.advanceTimersByTime(IDLE_MS / 2);
    }
    expect(collections.count).toBe(0);
    vi.advanceTimersByTime(IDLE_MS);
    expect(collections.count).toBe(1);
    // The next burst arms it again.
    collector.requestArrived();
    vi.advanceTimersByTime(IDLE_MS);
    expect(collections.count).toBe(2);
    collector.close();
  });

  it('leaves a young generation less than half full alone: the next events have room, and a collection costs them', () => {
    const { collector, collections } = collectorWith(CAPACITY * COLLECT_AT_FRACTION - 1);
    collector.requestArrived();
    vi.advanceTimersByTime(IDLE_MS * 2);
    expect(collections.count).toBe(0);
    expect(collector.collectIfWorthIt()).toBe(false);
    expect(collectorWith(CAPACITY * COLLECT_AT_FRACTION).collector.collectIfWorthIt()).toBe(true);
  });

  it('leaves a nearly empty young generation alone, however small V8 has made it', () => {
    // V8 shrinks the young generation of a process that allocates slowly, as a daemon between sessions does.
    expect(collectorWith(MIN_YOUNG_BYTES - 1, MIN_YOUNG_BYTES).collector.collectIfWorthIt()).toBe(false);
    expect(collectorWith(MIN_YOUNG_BYTES, MIN_YOUNG_BYTES * 2).collector.collectIfWorthIt()).toBe(true);
  });

  it('is off, and says so, in a process without --expose-gc', () => {
    const collector = createIdleCollector({ collectYoung: undefined });
    expect(collector.enabled).toBe(false);
    collector.requestArrived();
    vi.advanceTimersByTime(IDLE_MS * 2);
    expect(collector.collectIfWorthIt()).toBe(false);
  });
});

describe('with the flags the daemon is started with', () => {
  it('empties the young generation in a real process', () => {
    // A child with the daemon's node flags (and the built module, as the daemon runs it) fills its
    // young generation, then lets the collector run.
    const script = `
      const { createIdleCollector } = await import(${JSON.stringify(pathToFileURL(join(REPO_ROOT, 'dist', 'daemon', 'idle-collector.js')).href)});
      const { getHeapSpaceStatistics } = await import('node:v8');
      const newSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
      const young = () => newSpace().space_used_size;
      const capacity = () => newSpace().space_used_size + newSpace().space_available_size;
      const collector = createIdleCollector();
      // Two collections first: what loading left alive is promoted, so only the garbage below is young.
      globalThis.gc({ type: 'minor' });
      globalThis.gc({ type: 'minor' });
      const idleWhileLittleIsUsed = collector.collectIfWorthIt();
      // In a function that returns, as a hook request's work is: nothing on the stack holds it.
      // Chains of small objects: one big array would live in old space, and its slots would keep them.
      const garbage = () => {
        let chain = null;
        for (let i = 0; i < 2000; i++) chain = { i, next: chain };
        return chain.i;
      };
      // Until the young generation is well past half full, as after a few hook events.
      while (young() < capacity() * 0.7) garbage();
      const before = young();
      const collected = collector.collectIfWorthIt();
      console.log(JSON.stringify({ enabled: collector.enabled, idleWhileLittleIsUsed, collected, before, after: young() }));`;
    const run = spawnSync(process.execPath, [...DAEMON_NODE_FLAGS, '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const result = JSON.parse(run.stdout) as { enabled: boolean; idleWhileLittleIsUsed: boolean; collected: boolean; before: number; after: number };
    expect(result).toMatchObject({ enabled: true, idleWhileLittleIsUsed: false, collected: true });
    expect(result.before).toBeGreaterThan(MIN_YOUNG_BYTES);
    expect(result.after).toBeLessThan(result.before / 4);
  });
});
