// Ctrl-C during a benchmark must not leave a detached gobby daemon (or a helper server)
// running: benchmarks register their teardown here and run.ts runs it on SIGINT/SIGTERM.
const teardowns = new Set<() => unknown>();

/** Registers `teardown` until the returned function is called (from the benchmark's finally). */
export function onInterrupt(teardown: () => unknown): () => void {
  teardowns.add(teardown);
  return () => teardowns.delete(teardown);
}

export async function runInterruptTeardowns(): Promise<void> {
  const pending = [...teardowns];
  teardowns.clear();
  await Promise.allSettled(pending.map(async (teardown) => teardown()));
}
