// Prints the plain closing line CI reads: "N passed, N failed, N skipped".
// With DIGEST_FAIL_ON_SKIP=1 (set by .ci/run) a skipped test fails the run: in CI every real part is installed.
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const skippedNames: string[] = [];
    for (const module of testModules) {
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) failed += 1;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
        else {
          skipped += 1;
          skippedNames.push(`${module.moduleId.replace(process.cwd(), '.')} › ${test.fullName}`);
        }
      }
    }
    failed += unhandledErrors.length;
    if (skippedNames.length) {
      process.stdout.write(`\nSkipped tests (${skippedNames.length}):\n`);
      for (const name of skippedNames.slice(0, 30)) process.stdout.write(`  - ${name}\n`);
    }
    if (skipped > 0 && process.env.DIGEST_FAIL_ON_SKIP === '1') {
      process.stdout.write(
        'DIGEST_FAIL_ON_SKIP=1: skipped tests count as failures here (is chromium/postgresql installed?)\n',
      );
      failed += skipped;
      process.exitCode = 1;
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
