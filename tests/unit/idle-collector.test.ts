// The daemon empties V8's young generation once no request has come for IDLE_MS, so that the
// next hook event does not pay for a scavenge; under continuous load it leaves V8 alone.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createIdleCollector, IDLE_MS, MIN_YOUNG_BYTES } from '../../daemon/idle-collector.js';
import { DAEMON_NODE_FLAGS } from '../../hooks/daemon-locator.js';
import { REPO_ROOT } from '../support/claude-cli.js';

describe('the idle collector', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  function collectorWith(youngBytes: number) {
    const collections = { count: 0 };
    const collector = createIdleCollector({ collectYoung: () => collections.count++, youngBytes: () => youngBytes });
    return { collector, collections };
  }

  it('collects once, IDLE_MS after the last request', () => {
    const { collector, collections } = collectorWith(MIN_YOUNG_BYTES * 4);
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
    const { collector, collections } = collectorWith(MIN_YOUNG_BYTES * 4);
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

  it('leaves a nearly empty young generation alone', () => {
    const { collector, collections } = collectorWith(MIN_YOUNG_BYTES - 1);
    collector.requestArrived();
    vi.advanceTimersByTime(IDLE_MS * 2);
    expect(collections.count).toBe(0);
    expect(collector.collectIfWorthIt()).toBe(false);
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
      const young = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_used_size;
      const collector = createIdleCollector();
      // Two collections first: what loading left alive is promoted, so only the garbage below is young.
      globalThis.gc({ type: 'minor' });
      globalThis.gc({ type: 'minor' });
      // In a function that returns, as a hook request's work is: nothing on the stack holds it.
      // A chain of small objects: one big array would live in old space, and its slots would keep them.
      const garbage = () => {
        let chain = null;
        for (let i = 0; i < 20000; i++) chain = { i, next: chain };
        return chain.i;
      };
      garbage();
      const before = young();
      const collected = collector.collectIfWorthIt();
      console.log(JSON.stringify({ enabled: collector.enabled, collected, before, after: young() }));`;
    const run = spawnSync(process.execPath, [...DAEMON_NODE_FLAGS, '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const result = JSON.parse(run.stdout) as { enabled: boolean; collected: boolean; before: number; after: number };
    expect(result).toMatchObject({ enabled: true, collected: true });
    expect(result.before).toBeGreaterThan(MIN_YOUNG_BYTES);
    expect(result.after).toBeLessThan(result.before / 4);
  });
});
