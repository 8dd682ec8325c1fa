import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repo's copy of recorded real responses (see test/fixtures/real/PROVENANCE.md). */
export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');

export function fixturePath(...parts: string[]): string {
  return join(FIXTURES, ...parts);
}

export function readFixture(...parts: string[]): Buffer {
  return readFileSync(fixturePath(...parts));
}

/** The arXiv ids the reference edition picked from the seed week, as its README names them. */
export function seedWeekPicks(): string[] {
  const readme = readFileSync(fixturePath('real', 'seed-week-2026-05-04', 'README.md'), 'utf8');
  const match = /picked these (\d+) of them: ([\d.,\s]+)/.exec(readme);
  const ids = match?.[2]?.match(/\d{4}\.\d{4,5}/g) ?? [];
  if (!match || ids.length !== Number(match[1]))
    throw new Error('seed-week README no longer names the picks');
  return ids;
}
