import { defineConfig } from 'vitest/config';

// Two loops. `npm test` (DIGEST_TEST_TIER=quick) is what a developer runs after every change: units, the store on
// PGlite and the HTTP app in-process, about two minutes on two cores. `npm run test:all` (and CI) adds what starts
// real processes or services: the CLI and `digest serve` as child processes, Chromium, PostgreSQL, the local engine
// and the README's commands. A test that starts any of those lives under test/e2e/ or in a `*.process.test.ts` or
// `*.browser.test.ts` file, so the quick tier never waits on one.
const WHOLE_TIER_ONLY = [
  'test/e2e/**',
  'test/readme/**',
  '**/*.process.test.ts',
  '**/*.browser.test.ts',
  // Every migration level written with rows and migrated forward: a minute of PGlite, for the whole tier.
  'test/store/upgrade.test.ts',
];
const quick = process.env.DIGEST_TEST_TIER === 'quick';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: quick ? ['**/node_modules/**', ...WHOLE_TIER_ONLY] : ['**/node_modules/**'],
    pool: 'forks',
    // Two, one per core of CI's machine: a third worker would fill the time tests spend waiting on a child, a browser
    // or a socket, but the suites that check growth ratios and latency bounds would then share a core with it.
    maxWorkers: 2,
    // One process per worker runs file after file (not a new one per file): the src modules load once per worker,
    // not once per file. The test files share no state: each opens its own stores, servers and temp folders.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', './test/support/summary-reporter.ts'],
    globalSetup: ['./test/support/global-setup.ts'],
  },
});
