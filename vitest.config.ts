import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // Two, one per core of CI's machine: a third worker would fill the time tests spend waiting on a child, a browser
    // or a socket, but the suites that check growth ratios and latency bounds would then share a core with it.
    maxWorkers: 2,
    // One process per worker runs file after file (not a new one per file): the src modules load once per worker,
    // not once per file (the import phase was ~120 s of the suite's 1,100 s). The test files share no state: each
    // opens its own stores, servers and temp folders and closes them.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', './test/support/summary-reporter.ts'],
    globalSetup: ['./test/support/global-setup.ts'],
  },
});
