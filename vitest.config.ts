import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 30000,
    // Two files at a time even on a 2-core machine (vitest's default there is one): the
    // end-to-end files spend most of their time waiting on the claude and daemon processes
    // they start, so running two side by side cuts the wall time without starving either.
    // Three helped the e2e files alone (171 s → 126 s) but slowed the whole suite, whose unit
    // and integration files are CPU-bound (203 s wall against 196 s with two).
    maxWorkers: 2,
  },
});
