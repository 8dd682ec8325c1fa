// A week whose papers have HTML renderings (real recorded arXiv pages on loopback at the arXiv paths), built with the
// real pipeline, store (PGlite) and extractive writer: items written from their sections, takeaways linked to the
// section that supports them, the facts line, a paper without HTML written from its abstract with a note, and a
// rebuild that fetches nothing.
import type { ServerResponse } from 'node:http';
import { HtmlValidate } from 'html-validate';
import { afterEach, describe, expect, it } from 'vitest';
import { createDigest } from '../../src/compose/create-digest.js';
import type { ConfigInput } from '../../src/config/config-schema.js';
import { parseConfig } from '../../src/config/index.js';
import { silentLogger } from '../../src/core/ports.js';
import type { SourceItem } from '../../src/core/types.js';
import { formatFullText } from '../../src/editions/build-anew.js';
import { buildEdition } from '../../src/editions/build-edition.js';
import { paperReader } from '../../src/editions/paper-reader.js';
import { ARXIV_INTERVAL_MS, readFullTexts } from '../../src/enrich/full-text.js';
import { parsePaperHtml } from '../../src/enrich/paper-html.js';
import { createHostPacer } from '../../src/net/host-pacer.js';
import { createHttpClient } from '../../src/net/http-client.js';
import { renderEditionHtml } from '../../src/publish/edition-html.js';
import { renderEditionJson } from '../../src/publish/edition-json.js';
import { renderEmailHtml } from '../../src/publish/email-html.js';
import { nodeFileSystem } from '../../src/publish/write-site.js';
import type { Store } from '../../src/store/types.js';
import { createExtractiveWriter } from '../../src/write/extractive.js';
import { withTestStore } from '../support/database.js';
import { startFakeLlm } from '../support/fake-llm.js';
import { readFixture } from '../support/fixtures.js';
import { type LoopbackRequest, type LoopbackServer, startLoopback } from '../support/loopback.js';

const WEEK = '2026-05-04';
const PAGES: Record<string, string> = {
  '/html/2310.06825': '2310.06825v1_arxiv-html.html',
  '/html/2508.08468': '2508.08468v6_arxiv-html.html',
};
const NO_HTML = '2605.00001';
/** The code repositories HF lists (githubRepo): the abstract-only paper's shows; Mistral's own link wins over its. */
const LISTED = 'https://github.com/example-lab/sparse-kernels';
const LISTED_MISTRAL = 'https://github.com/example-lab/not-mistral';
const http = createHttpClient({
  timeoutMs: 5000,
  maxBytes: 20 * 1024 * 1024,
  retries: 0,
  allowLoopback: true,
});

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function abstractOf(file: string): { title: string; text: string } {
  const paper = parsePaperHtml(readFixture('real', 'arxiv-html', file).toString('utf8'), {
    arxivId: 'x',
    url: 'u',
  })!;
  return { title: paper.title, text: paper.sections[0]!.text.replace(/\n/g, ' ') };
}

function paperItem(arxivId: string, title: string, text: string, githubRepo?: string): SourceItem {
  return {
    ...(githubRepo ? { githubRepo } : {}),
    sourceId: 'api-hf',
    url: `https://arxiv.org/abs/${arxivId}`,
    title,
    text,
    authors: ['A. Author'],
    arxivId,
    image: null,
    publishedAt: '2026-05-01T10:00:00.000Z',
    upvotes: 10,
  };
}

async function seed(store: Store): Promise<void> {
  const mistral = abstractOf('2310.06825v1_arxiv-html.html');
  const avse = abstractOf('2508.08468v6_arxiv-html.html');
  await store.items.upsert([
    paperItem('2310.06825', mistral.title, mistral.text, LISTED_MISTRAL),
    paperItem('2508.08468', avse.title, avse.text),
    paperItem(
      NO_HTML,
      'Sparse attention kernels for long-context inference',
      'We present a set of sparse attention kernels for long-context inference on commodity GPUs. ' +
        'The kernels reduce memory traffic by skipping blocks whose attention mass is negligible. ' +
        'On sequences of 128k tokens they run 2.1 times faster than dense attention with the same accuracy. ' +
        'We discuss when block sparsity fails and how to detect it at run time.',
      LISTED,
    ),
  ]);
}

async function arxiv(): Promise<LoopbackServer> {
  server = await startLoopback((request: LoopbackRequest, response: ServerResponse) => {
    const file = PAGES[request.path];
    if (!file) return void response.writeHead(404, { 'content-type': 'text/html' }).end('No HTML');
    response.writeHead(200, { 'content-type': 'text/html' }).end(readFixture('real', 'arxiv-html', file));
  });
  return server;
}

async function build(store: Store, origin: string, config: ConfigInput = {}) {
  const timer = { now: () => 0, sleep: async () => {} };
  const pacer = createHostPacer(ARXIV_INTERVAL_MS, timer);
  const parsed = parseConfig({ ...config, enrich: { arxivHtmlUrl: `${origin}/html/` } });
  return buildEdition({
    date: WEEK,
    config: parsed,
    store,
    ports: { writer: createExtractiveWriter(), log: silentLogger },
    stages: parsed.llm.fullText
      ? {
          readPapers: (ids: string[]) =>
            readFullTexts(ids, {
              http,
              store,
              arxiv: { baseUrl: `${origin}/html/` },
              offline: false,
              pacer,
              now: () => new Date(),
            }),
        }
      : {},
  });
}

describe('a week of papers read in full', () => {
  it('writes from the sections, links each takeaway to its section, states the facts, and a rebuild fetches nothing', async () => {
    await withTestStore(async (store) => {
      await seed(store);
      const arxivServer = await arxiv();
      const { edition, warnings, fullText } = await build(store, arxivServer.origin);
      expect(warnings).toEqual([]);
      // What the usage lines print: full text costs more input than the abstracts alone.
      expect(fullText).toMatchObject({ papers: 3, read: 2 });
      expect(fullText.sourceTokens.fullText).toBeGreaterThan(3 * fullText.sourceTokens.abstract);
      expect(formatFullText(fullText)).toMatch(
        /^Papers: 2 of 3 read in full; their source text ≈ [\d,]+ tokens \(their abstracts alone ≈ [\d,]+\)\n {2}1 from the abstract: arXiv has no HTML rendering of this paper$/,
      );
      expect(arxivServer.requests).toHaveLength(3);
      const byId = new Map(edition.items.map((item) => [item.arxivId, item]));

      const mistral = byId.get('2310.06825')!;
      expect(mistral.readFrom).toBe('full-text');
      const sections = mistral.support?.map((source) => source?.section);
      // A result from the results section (§3) is a takeaway, linked to that section of the version read.
      expect(sections).toContain('S3');
      const results = mistral.support?.find((source) => source?.section === 'S3');
      expect(results).toMatchObject({ label: '§3', url: `${arxivServer.origin}/html/2310.06825v1#S3` });
      const index = mistral.support!.indexOf(results!);
      expect(mistral.takeaways[index]).toMatch(/\d/);
      expect(mistral.facts?.map((fact) => fact.label)).toEqual([
        'Code',
        'Apache-2.0',
        'Winogrande, PIQA, SIQA, ARC-Easy +11',
      ]);

      const avse = byId.get('2508.08468')!;
      expect(avse.readFrom).toBe('full-text');
      expect(avse.facts).toBeUndefined();

      const pdfOnly = byId.get(NO_HTML)!;
      expect(pdfOnly.readFrom).toBe('abstract');
      expect(pdfOnly.readNote).toBe('written from the abstract: arXiv has no HTML rendering of this paper');
      expect(pdfOnly.support?.every((source) => source === null || source.url === null)).toBe(true);
      // Read from the abstract alone, it still shows the code repository HF lists; the paper without one, none.
      expect(pdfOnly.facts?.map((fact) => [fact.label, fact.url])).toEqual([['Code', LISTED]]);
      expect(mistral.facts?.[0]?.url).toBe('https://github.com/mistralai/mistral-src');

      const page = renderEditionHtml(edition);
      expect(page).toContain(`<a class="src" href="${arxivServer.origin}/html/2310.06825v1#S3"`);
      expect(page).toContain('>§3</a>');
      expect(page).toContain(
        '<p class="facts"><a href="https://github.com/mistralai/mistral-src">Code</a> · Apache-2.0',
      );
      expect(page).toContain(`<p class="facts"><a href="${LISTED}">Code</a></p>`);
      expect(page).not.toContain(LISTED_MISTRAL);
      expect(page).toContain('read in full');
      const report = await new HtmlValidate({ extends: ['html-validate:recommended'] }).validateString(page);
      expect(report.results.flatMap((result) => result.messages.map((message) => message.message))).toEqual(
        [],
      );
      // Readers get reader words; the build's reason (no HTML rendering) is the operator's, kept off the page.
      expect(page).toContain(
        'title="Summarised from the abstract; the full paper was not read.">from the abstract<',
      );
      expect(page).not.toContain('no HTML rendering');
      const email = await renderEmailHtml(edition);
      expect(email).toContain(`href="${arxivServer.origin}/html/2310.06825v1#S3"`);
      expect(email).toContain('Apache-2.0');
      const json = JSON.parse(renderEditionJson(edition)) as { items: Record<string, unknown>[] };
      const jsonMistral = json.items.find((item) => item.arxivId === '2310.06825')!;
      expect(jsonMistral).toMatchObject({
        readFrom: 'full-text',
        facts: mistral.facts,
        support: mistral.support,
      });
      const jsonPdfOnly = json.items.find((item) => item.arxivId === NO_HTML)!;
      expect(jsonPdfOnly.facts).toEqual([
        { kind: 'code', label: 'Code', url: LISTED, quote: expect.stringContaining('githubRepo') },
      ]);
      expect(json.items.find((item) => item.arxivId === '2508.08468')!.facts).toBeUndefined();

      const again = await build(store, arxivServer.origin);
      expect(arxivServer.requests).toHaveLength(3);
      expect(again.edition.items.map((item) => item.support)).toEqual(
        edition.items.map((item) => item.support),
      );
    });
  });

  it('digest eval writes each model both ways once papers were read in full, and full text costs more input', async () => {
    await withTestStore(async (store) => {
      await seed(store);
      const arxivServer = await arxiv();
      await build(store, arxivServer.origin);
      const fake = await startFakeLlm();
      try {
        const digest = createDigest({
          config: parseConfig({ enrich: { arxivHtmlUrl: `${arxivServer.origin}/html/` } }),
          store,
          http,
          log: silentLogger,
          env: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.baseURL },
          fs: nodeFileSystem,
          clock: { now: () => new Date(`${WEEK}T12:00:00Z`) },
        });
        const reports = await digest.evaluate({
          week: WEEK,
          models: ['openai:gpt-4.1-mini'],
          check: false,
          refresh: false,
        });
        expect(reports.map((report) => [report.model, report.input])).toEqual([
          ['openai:gpt-4.1-mini', 'full-text'],
          ['openai:gpt-4.1-mini · abstract only', 'abstract'],
        ]);
        expect(reports[0]!.tokensIn).toBeGreaterThan(2 * reports[1]!.tokensIn);
        // Eval reads what the build stored: it fetches nothing.
        expect(arxivServer.requests).toHaveLength(3);
      } finally {
        await fake.close();
      }
    });
  });

  it('--offline, --no-enrich and enrich.enabled: false read only what is stored', async () => {
    await withTestStore(async (store) => {
      const arxivServer = await arxiv();
      const deps = (enabled: boolean) => ({
        config: parseConfig({ enrich: { enabled, arxivHtmlUrl: `${arxivServer.origin}/html/` } }),
        store,
        http,
        log: silentLogger,
        env: {},
        fs: nodeFileSystem,
        clock: { now: () => new Date(`${WEEK}T12:00:00Z`) },
      });
      for (const [enabled, input] of [
        [true, { offline: true, enrich: true }],
        [true, { offline: false, enrich: false }],
        [false, { offline: false, enrich: true }],
      ] as const) {
        const result = await paperReader(deps(enabled), input)(['2310.06825']);
        expect(result.fetched).toBe(0);
        expect(result.missing.get('2310.06825')).toMatch(/fetching is off/);
      }
      expect(arxivServer.requests).toHaveLength(0);
      const online = await paperReader(deps(true), { offline: false, enrich: true })(['2310.06825']);
      expect(online.papers.get('2310.06825')?.status).toBe('read');
      expect(arxivServer.requests).toHaveLength(1);
    });
  });

  it('with llm.fullText false, every paper is written from its abstract and nothing is fetched', async () => {
    await withTestStore(async (store) => {
      await seed(store);
      const arxivServer = await arxiv();
      const { edition } = await build(store, arxivServer.origin, { llm: { fullText: false } });
      expect(arxivServer.requests).toHaveLength(0);
      for (const item of edition.items) {
        expect(item.readFrom).toBe('abstract');
        expect(item.readNote).toMatch(/llm\.fullText/);
      }
    });
  });

  it('old editions without these fields render as before', async () => {
    const page = renderEditionHtml({
      date: WEEK,
      name: 'Digest',
      title: 'Old, Edition',
      intro: 'An edition stored before papers were read in full.',
      writer: 'extractive',
      sources: [],
      items: [
        {
          key: 'arxiv:2401.00001',
          title: 'An older paper',
          url: 'https://arxiv.org/abs/2401.00001',
          level: 'Intermediate',
          authors: [],
          summary: 'A summary.',
          takeaways: ['One.', 'Two.', 'Three.'],
          source: 'api-hf',
          sources: ['api-hf'],
          arxivId: '2401.00001',
          citations: null,
          image: null,
          publishedAt: '2024-01-01T00:00:00.000Z',
          writer: 'extractive',
        },
      ],
    });
    expect(page).toContain('<li>One.</li>');
    expect(page).not.toMatch(/class="(?:src|facts|read)"/);
  });
});
