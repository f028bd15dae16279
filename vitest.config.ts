import { defineConfig } from 'vitest/config';

const PROCESS_TITLE_FILES = ['tests/integration/provenance.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 30000,
    // Two files at a time even on a 2-core machine (vitest's default there is one): the
    // end-to-end files spend most of their time waiting on the claude and daemon processes
    // they start, so running two side by side cuts the wall time without starving either.
    // Three helped the e2e files alone (171 s → 126 s) but slowed the whole suite, whose unit
    // and integration files are CPU-bound (203 s wall against 196 s with two).
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit+integration',
          include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts'],
          exclude: PROCESS_TITLE_FILES,
          // One module graph per worker instead of one per file: importing the engine, fastify
          // and zod again for each of 50 files was half of these files' time (61 s → 38 s).
          isolate: false,
        },
      },
      // Files whose process plays Claude Code by its title: setting process.title rewrites
      // /proc/self/cmdline for good, which a shared worker would carry into the next file
      // (tests/unit/own-process.test.ts reads its own command line). Each gets a process of its own.
      { extends: true, test: { name: 'process-title', include: PROCESS_TITLE_FILES, pool: 'forks', isolate: true } },
      { extends: true, test: { name: 'e2e', include: ['tests/e2e/**/*.test.ts'] } },
    ],
  },
});
