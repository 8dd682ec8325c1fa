// A correction, end to end on a published edition: `correct` publishes revision 2 with its reason, the live page
// says "Corrected on DATE: reason" and links revision 1, which stays readable at its own page; the feeds carry the
// updated date, the JSON API answers revision 2 and lists both, the audit log says who corrected what, and the
// edition stays frozen to every other door.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, PublishedEditionError } from '../../src/core/errors.js';
import type { Edition } from '../../src/core/types.js';
import { createServerApp } from '../../src/server/app.js';
import type { Store } from '../../src/store/types.js';
import { createDeskHarness, type DeskHarness, EDITOR, WEEK } from '../desk/_desk.js';
import { createTestStore } from '../support/database.js';

describe('correcting a published edition', () => {
  let store: Store;
  let harness: DeskHarness;
  let original: Edition;
  const REASON = 'The benchmark figure in item 1 was wrong';

  beforeAll(async () => {
    store = await createTestStore();
    harness = await createDeskHarness(store);
    await harness.digest.publish({ week: WEEK, outDir: harness.siteDir, chat: false, allowFlagged: true });
    original = (await store.editions.get(WEEK))!;
  }, 60_000);
  afterAll(async () => {
    await harness?.close();
    await store?.close();
  });

  const read = (...path: string[]) => readFile(join(harness.siteDir, ...path), 'utf8');

  it('refuses a correction without a reason or that changes nothing', async () => {
    const draft = await harness.digest.correctionDraft(WEEK);
    const input = { week: WEEK, editor: EDITOR.email, corrected: draft, outDir: harness.siteDir };
    await expect(harness.digest.correct({ ...input, reason: '  ' })).rejects.toThrow(ConfigError);
    await expect(harness.digest.correct({ ...input, reason: REASON })).rejects.toThrow(/changes nothing/);
    await expect(
      harness.digest.correct({ ...input, reason: REASON, corrected: { ...draft, items: [{ key: 'x' }] } }),
    ).rejects.toThrow(/field "items\.0\./);
    expect(await store.revisions.list(WEEK)).toEqual([]);
  });

  it('refuses a correction that reorders, repeats or drops a published item, naming the difference', async () => {
    const draft = await harness.digest.correctionDraft(WEEK);
    const [a, b, c] = draft.items;
    expect(c).toBeDefined();
    const input = { week: WEEK, editor: EDITOR.email, reason: REASON, outDir: harness.siteDir };
    const attempt = (items: typeof draft.items) =>
      harness.digest.correct({ ...input, corrected: { ...draft, items } });
    const rest = draft.items.slice(3);
    await expect(attempt([b!, a!, c!, ...rest])).rejects.toThrow(/item 1 is ".+", published as ".+"/);
    await expect(attempt([a!, a!, b!, c!, ...rest])).rejects.toThrow(/appears twice/);
    await expect(attempt([a!, c!, ...rest])).rejects.toThrow(new RegExp(`"${b!.key}" missing`));
    await expect(attempt([a!, b!, c!, ...rest])).rejects.toThrow(/changes nothing/);
    expect(await store.revisions.list(WEEK)).toEqual([]);
  });

  it('publishes revision 2 with a visible note while revision 1 stays readable', async () => {
    const firstPage = await read(WEEK, 'index.html');
    const draft = await harness.digest.correctionDraft(WEEK);
    draft.items[0]!.summary = 'A corrected summary: the benchmark gain is 3 points, not 30.';
    const outcome = await harness.digest.correct({
      week: WEEK,
      reason: REASON,
      editor: EDITOR.email,
      corrected: draft,
      outDir: harness.siteDir,
    });
    expect(outcome.revision).toBe(2);

    const live = await read(WEEK, 'index.html');
    expect(live).toContain('A corrected summary: the benchmark gain is 3 points, not 30.');
    expect(live).toMatch(/Corrected on <time datetime="[^"]+">2026-05-05<\/time>: The benchmark figure/);
    expect(live).toContain(`href="../${WEEK}-r1/"`);
    // Revision 1 as readers had it, at its own page.
    const first = await read(`${WEEK}-r1`, 'index.html');
    expect(first).toContain(original.items[0]!.summary);
    expect(first).not.toContain('A corrected summary');
    expect(firstPage).not.toContain('Corrected on');
    // The earlier revision says so where a reader sees it, and links the current one.
    expect(first).toMatch(
      new RegExp(
        `<p class="superseded" role="note"><strong>An earlier revision\\.</strong> This is revision 1 of this edition, ` +
          `as readers had it; it has since been corrected\\. <a href="\\.\\./${WEEK}/">Read the current revision \\(2\\)</a>\\.</p>`,
      ),
    );
    expect(live).not.toContain('class="superseded"');
    // The reason is a sentence of its own: it never runs into the link after it.
    expect(live).toMatch(/: [^<]*[.!?] <a href="\.\.\/[^"]+-r1\/">Read revision 1<\/a>\.<\/p>/);

    const atom = await read('atom.xml');
    expect(atom).toContain('<updated>2026-05-05T09:00:00.000Z</updated>');

    const api = createServerApp({
      site: { dir: harness.siteDir },
      health: { checkDatabase: async () => {} },
      useCases: { archive: { archive: await harness.digest.archive() } },
      log: () => {},
    });
    const answer = (await (await api.request(`/api/v1/editions/${WEEK}`)).json()) as {
      revision: number;
      revisions: { revision: number; reason: string | null; page: string | null }[];
      items: { summary: string }[];
    };
    expect(answer.revision).toBe(2);
    expect(answer.items[0]?.summary).toContain('A corrected summary');
    expect(answer.revisions).toEqual([
      expect.objectContaining({ revision: 1, reason: null, page: `https://digest.example/${WEEK}-r1/` }),
      expect.objectContaining({ revision: 2, reason: REASON, page: `https://digest.example/${WEEK}/` }),
    ]);

    const audit = await store.desk.listAudit({ week: WEEK });
    expect(audit).toContainEqual(
      expect.objectContaining({
        editor: EDITOR.email,
        action: 'correct',
        detail: { revision: 2, reason: REASON },
      }),
    );
    expect((await store.revisions.get(WEEK, 1))?.items[0]?.summary).toBe(original.items[0]!.summary);

    // Still frozen: a rebuild of the corrected edition is refused like before.
    await expect(
      harness.digest.build({
        week: WEEK,
        outDir: harness.siteDir,
        ingest: false,
        enrich: false,
        offline: true,
        check: false,
        refresh: true,
      }),
    ).rejects.toThrow(PublishedEditionError);
  });

  it("keeps an item's anchor when a correction changes its title: links already shared still land", async () => {
    const before = await read(WEEK, 'index.html');
    const anchor = /<li class="card" id="([^"]+)">/.exec(before)?.[1];
    expect(anchor).toMatch(/^item-/);
    const draft = await harness.digest.correctionDraft(WEEK);
    draft.items[0]!.title = 'A corrected title that reads nothing like the first one';
    const outcome = await harness.digest.correct({
      week: WEEK,
      reason: 'The title named the wrong lab.',
      editor: EDITOR.email,
      corrected: draft,
      outDir: harness.siteDir,
    });
    expect(outcome.revision).toBe(3);
    const live = await read(WEEK, 'index.html');
    expect(live).toContain('A corrected title that reads nothing like the first one');
    expect(live).toContain(`<li class="card" id="${anchor}">`);
    expect(live).not.toContain('id="item-a-corrected-title');
    expect(live).toContain(`href="#${anchor}"`);
    // The reason already ends a sentence: no second full stop before the link.
    expect(live).toContain('The title named the wrong lab. <a href="../');
    expect(await read(`${WEEK}-r2`, 'index.html')).toContain('This is revision 2 of this edition');
  });
});
