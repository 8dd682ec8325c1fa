import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // Three on CI's two cores: much of a test's time is waiting (a child process, a browser, a deadline, a socket).
    // A whole run used ~710 s of CPU (user + sys, children included) where CI's 636 s on 2 cores offered 1,270.
    maxWorkers: 3,
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
