// Learned taste on embeddings: the dense model, and loadTaste with a real embedder against the loopback fake
// (deterministic hashed-bag-of-words vectors) on a real store — embedded once, tf-idf with a warning on failure.
import { afterEach, describe, expect, it } from 'vitest';
import { llmSchema } from '../../src/config/llm-schema.js';
import { createEmbedder } from '../../src/llm/embeddings.js';
import { planEdition } from '../../src/select/plan-edition.js';
import { tasteText } from '../../src/select/taste.js';
import { denseTasteScores, fitDenseTaste } from '../../src/select/taste-dense.js';
import { loadTaste } from '../../src/select/taste-history.js';
import { tasteReport } from '../../src/select/taste-report.js';
import type { Store } from '../../src/store/types.js';
import { useTestStore } from '../support/database.js';
import { fakeEmbedding } from '../support/fake-embeddings.js';
import { type FakeLlm, type FakeLlmOptions, startFakeLlm } from '../support/fake-llm.js';
import { paperItem } from '../support/source-items.js';
import { policy, storedItem } from '../support/stored-items.js';
import { edition, examples, liked, passed } from './_taste-history.js';

const MODEL = 'openai:text-embedding-3-small';
const unit = (text: string) => Float32Array.from(fakeEmbedding(text));

describe('fitDenseTaste', () => {
  it('has no model without both kinds of example', () => {
    expect(fitDenseTaste([], [])).toBeNull();
    expect(fitDenseTaste([unit('Prompt injection')], [true])).toBeNull();
  });

  it('scores an unseen item like the picks above one like those passed over, through the shared fit', () => {
    const model = fitDenseTaste(
      examples.map((example) => unit(tasteText(example.title, example.text))),
      examples.map((example) => example.positive),
    )!;
    expect(model).toMatchObject({ positives: 4, negatives: 5 });
    const [attack, image] = denseTasteScores(model, [
      unit('Prompt injection defenses for browser agents. We study attacks and defenses.'),
      unit('Image generation with diffusion. We study pixels and frames.'),
    ]);
    expect(attack!).toBeGreaterThan(0.5);
    expect(image!).toBeLessThan(0.5);
  });
});

const WEEK = '2026-05-11';
const candidates = [
  storedItem({
    key: 'arxiv:2605.00201',
    title: 'Indirect prompt injection against browser agents',
    text: 'Attacks and defenses for agents that read the web. '.repeat(5),
  }),
  storedItem({
    key: 'arxiv:2605.00202',
    title: 'Image generation for agents in production',
    text: 'Diffusion for high resolution image generation, pixels and frames. '.repeat(5),
  }),
];

/** The liked and passed-over papers of the week before, the first three liked ones published. */
async function publishHistory(store: Store): Promise<void> {
  const items = [...liked, ...passed].map((title, index) =>
    paperItem(`2605.001${String(index).padStart(2, '0')}`, {
      title,
      text: `${title}. ${index < liked.length ? 'We study attacks and defenses.' : 'We study pixels and frames.'}`,
      publishedAt: '2026-05-02T00:00:00Z',
    }),
  );
  await store.items.upsert(items);
  await store.editions.save(edition('2026-05-04', items.slice(0, 3)));
  await store.editions.markPublished('2026-05-04', '2026-05-04T12:00:00.000Z');
}

describe('learned taste with an embeddings model', () => {
  const store = useTestStore();
  let fake: FakeLlm | undefined;
  const warnings: string[] = [];
  const log = { warn: (message: string) => warnings.push(message) };
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
    warnings.length = 0;
  });

  async function embedder(
    options: FakeLlmOptions = {},
    env: NodeJS.ProcessEnv = { OPENAI_API_KEY: 'test-key' },
  ) {
    // A new fake server for each embedder: its request log starts empty.
    await fake?.close();
    fake = await startFakeLlm(options);
    return createEmbedder({
      modelId: MODEL,
      llm: llmSchema.parse({ embed: MODEL, maxRetries: 0 }),
      store: store(),
      env: { OPENAI_BASE_URL: fake.baseURL, ...env },
    });
  }

  it('learns from embeddings of the history and scores the week’s candidates, embedding each text once', async () => {
    await publishHistory(store());
    const taste = await loadTaste(store(), WEEK, { embedder: await embedder(), candidates, log });
    expect(warnings).toEqual([]);
    expect(taste.learnedWith).toBe(`embeddings:${MODEL}`);
    expect(taste.model).toBeNull();
    expect(taste.dense?.model).toMatchObject({ positives: 3, negatives: 6 });
    const sent = fake!.embeddings.flatMap((request) => request.input);
    for (const candidate of candidates) expect(sent).toContain(tasteText(candidate.title, candidate.text));
    expect(sent).toHaveLength(9 + candidates.length);

    const plan = planEdition(candidates, policy({ itemsPerEdition: 1, taste: taste.signal }), WEEK);
    expect(plan.ranked[0]!.item.key).toBe('arxiv:2605.00201');
    expect(plan.ranked[0]!.signals.taste).toBe(1);
    expect(plan.ranked[1]!.signals.taste!).toBeLessThan(1);
    expect(plan.ranked[0]!.signals.tasteShare).toBeCloseTo(0.15, 5);

    const requests = fake!.embeddings.length;
    const again = await loadTaste(store(), WEEK, { embedder: await embedder(), candidates, log });
    expect(fake!.embeddings).toHaveLength(0);
    expect(again.signal!.scores(candidates)).toEqual(taste.signal!.scores(candidates));
    expect(requests).toBe(1);

    const report = await tasteReport(store(), WEEK, { embedder: await embedder(), log });
    expect(fake!.embeddings).toHaveLength(0);
    expect(report).toMatchObject({
      learnedWith: `embeddings:${MODEL}`,
      positiveTerms: [],
      negativeTerms: [],
    });
    expect(liked).toContain(report.positiveTitles[0]);
    expect(passed).toContain(report.negativeTitles[0]);
  });

  const failures: [string, FakeLlmOptions, NodeJS.ProcessEnv | undefined, RegExp][] = [
    ['an HTTP error', { embeddingScript: () => ({ status: 500 }) }, undefined, /\(HTTP 500: fake 500\)/],
    ['a malformed answer', { embeddingScript: () => 'malformed' }, undefined, /\(a malformed answer/],
    ['no key', {}, {}, /\(OPENAI_API_KEY is not set\)/],
  ];
  for (const [what, options, env, reason] of failures) {
    it(`falls back to tf-idf with one warning on ${what}`, async () => {
      await publishHistory(store());
      const taste = await loadTaste(store(), WEEK, {
        embedder: await embedder(options, env),
        candidates,
        log,
      });
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(
        new RegExp(`^learned taste: embeddings model ${MODEL} failed \\(.*\\); using tf-idf this run$`),
      );
      expect(warnings[0]).toMatch(reason);
      expect(taste.learnedWith).toBe('tf-idf');
      expect(taste.model?.positives).toBe(3);
      expect(taste.signal!.scores(candidates)).toHaveLength(2);
    });
  }

  it('asks nothing and warns of nothing for an empty history', async () => {
    const taste = await loadTaste(store(), WEEK, { embedder: await embedder(), candidates, log });
    expect(taste).toMatchObject({ learnedWith: null, signal: null, dense: null, model: null });
    expect(fake!.embeddings).toHaveLength(0);
    expect(warnings).toEqual([]);
    const report = await tasteReport(store(), WEEK, { embedder: await embedder(), log });
    expect(report).toMatchObject({ share: 0, learnedWith: null, positiveTitles: [] });
  });
});
