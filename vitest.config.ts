import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 30000,
    // Three files at a time even on a 2-core machine (vitest's default there is one): the
    // end-to-end files spend most of their time waiting on the claude and daemon processes
    // they start. Measured on 2 cores: the e2e files took 171 s with two workers, 126 s with
    // three and 165 s with four (the CPU is then saturated).
    maxWorkers: 3,
  },
});
