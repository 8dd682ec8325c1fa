// The first hour as the README types it: after `npm start` (digest demo) and after the service path
// (`init --yes --smtp 127.0.0.1:1025 && demo && publish`), the commands a newcomer types next with no flag — `list`,
// `build --offline`, the desk board — choose the demo's 12, and the board never calls the fresh draft out of date.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Edition } from '../../src/core/types.js';
import { SAMPLE_WEEK } from '../../src/sample/sample-week.js';
import { runDigest } from '../support/cli.js';
import { sampleBoard } from '../support/desk-board.js';

/** The edition as a build leaves it (drafts/) or, after `digest publish`, as the site shows it (out/). */
const edition = (cwd: string, folder = 'drafts'): Edition =>
  JSON.parse(readFileSync(join(cwd, folder, SAMPLE_WEEK, 'edition.json'), 'utf8'));

async function listed(cwd: string): Promise<string[]> {
  const run = await runDigest(['list', '--week', SAMPLE_WEEK, '--json'], { cwd });
  expect(run.code, run.stderr).toBe(0);
  const rows = (JSON.parse(run.stdout) as { candidates: { key: string; picked: boolean }[] }).candidates;
  return rows.filter((row) => row.picked).map((row) => row.key);
}

const env = { DIGEST_CONFIG_JSON: '' };

describe('after npm start (digest demo), the next commands with no flag', () => {
  let cwd: string;
  let demo: string[];
  beforeAll(async () => {
    cwd = mkdtempSync(join(tmpdir(), 'digest-first-hour-'));
    const ran = await runDigest(['demo'], { cwd, env });
    expect(ran.code, ran.stderr).toBe(0);
    demo = edition(cwd).items.map((item) => item.key);
  }, 180_000);
  afterAll(() => rmSync(cwd, { recursive: true, force: true }));

  it('the demo edition names "the authors" at most once per item (docs/writing.md)', () => {
    for (const item of edition(cwd).items) {
      const text = [item.summary, ...item.takeaways].join(' ');
      expect((text.match(/\bthe authors\b/gi) ?? []).length, item.key).toBeLessThanOrEqual(1);
    }
  });

  it('list --week 2026-05-04 stars the demo edition’s 12', async () => {
    expect(demo).toHaveLength(12);
    expect((await listed(cwd)).sort()).toEqual([...demo].sort());
  });

  it('build --week 2026-05-04 --offline chooses the same 12 in the same order', async () => {
    const run = await runDigest(['build', '--week', SAMPLE_WEEK, '--offline'], { cwd, env });
    expect(run.code, run.stderr).toBe(0);
    expect(edition(cwd).items.map((item) => item.key)).toEqual(demo);
  }, 120_000);
});

describe("after the README's service path (init --yes --smtp 127.0.0.1:1025 && demo && publish)", () => {
  let cwd: string;
  let demo: string[];
  beforeAll(async () => {
    cwd = mkdtempSync(join(tmpdir(), 'digest-first-hour-service-'));
    for (const args of [['init', '--yes', '--smtp', '127.0.0.1:1025'], ['demo'], ['publish']]) {
      const ran = await runDigest(args, { cwd, env });
      expect(ran.code, `${args[0]}: ${ran.stderr}`).toBe(0);
    }
    demo = edition(cwd, 'out').items.map((item) => item.key);
  }, 180_000);
  afterAll(() => rmSync(cwd, { recursive: true, force: true }));

  it("list, with init's config, stars the demo's 12", async () => {
    expect((await listed(cwd)).sort()).toEqual([...demo].sort());
  });

  it('the desk board chooses the draft’s 12 and calls none of them out of date', async () => {
    const rows = await sampleBoard(cwd);
    expect(rows.length).toBeGreaterThan(12);
    expect(
      rows
        .filter((row) => row.chosen)
        .map((row) => row.key)
        .sort(),
    ).toEqual([...demo].sort());
    for (const row of rows) expect(row.why).not.toMatch(/saved draft|Rebuild the draft/);
  });
});
