// Which real parts this machine has. Suites that need a missing one are skipped, and say so plainly.
import { existsSync } from 'node:fs';

const CHROMIUM_CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];

export function chromiumPath(): string | null {
  return CHROMIUM_CANDIDATES.find((path): path is string => !!path && existsSync(path)) ?? null;
}

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Prints one line naming a skipped suite; the test reporter repeats skipped counts at the end. */
export function announceSkip(suite: string, reason: string): void {
  process.stderr.write(`SKIPPED SUITE: ${suite} — ${reason}\n`);
}

/** `npm test`: the quick tier, which leaves PostgreSQL, Chromium and child processes to `npm run test:all`. */
export function quickTier(): boolean {
  return process.env.DIGEST_TEST_TIER === 'quick';
}
