import { describe, expect, it } from 'vitest';
import { planEdition } from '../../src/select/plan-edition.js';
import {
  boundedExamples,
  fitTaste,
  tasteScores,
  tasteShare,
  tasteSignal,
  topTerms,
} from '../../src/select/taste.js';
import { loadTaste } from '../../src/select/taste-history.js';
import { resetTasteNow, tasteReport } from '../../src/select/taste-report.js';
import { readableTerms } from '../../src/select/text-tokens.js';
import { useTestStore } from '../support/database.js';
import { paperItem } from '../support/source-items.js';
import { policy, storedItem } from '../support/stored-items.js';
import { edition, examples, liked, passed } from './_taste-history.js';

describe('readableTerms', () => {
  it('shows the word that made each stem most often, bigrams as two words', () => {
    const texts = ['Failures of spanning trees', 'A failure mode: failures under load', 'Image generation'];
    const readable = readableTerms(['failur', 'spann', 'imag gener'], texts);
    expect(readable.get('failur')).toBe('failures');
    expect(readable.get('spann')).toBe('spanning');
    expect(readable.get('imag gener')).toBe('image generation');
  });
});

describe('fitTaste', () => {
  it('has no model for an empty history or one without both kinds of example', () => {
    expect(fitTaste([])).toBeNull();
    expect(fitTaste(examples.filter((example) => example.positive))).toBeNull();
    expect(tasteShare(null)).toBe(0);
  });

  it('scores an unseen item like the ones the editor picked above one like those passed over', () => {
    const model = fitTaste(examples)!;
    expect(model.positives).toBe(4);
    expect(model.negatives).toBe(5);
    const [attack, image] = tasteScores(model, [
      { title: 'Prompt injection in browser agents', text: 'Attacks and defenses for agents.' },
      { title: 'Image generation with diffusion', text: 'Pixels and frames.' },
    ]);
    expect(attack!).toBeGreaterThan(0.5);
    expect(image!).toBeLessThan(0.5);
    const top = topTerms(model, 5);
    expect(top.positive.map(([term]) => term)).toContain('injection');
    expect(top.negative.map(([term]) => term).join(' ')).toMatch(/imag|generat|pixel|frame/);
  });

  it('blends into relevance as a recorded signal, and moves the ranking', () => {
    const items = [
      storedItem({ key: 'arxiv:2604.00001', title: 'Prompt injection in browser agents' }),
      storedItem({ key: 'arxiv:2604.00002', title: 'Image generation for agents in production' }),
    ];
    const model = fitTaste(examples)!;
    const plain = planEdition(items, policy({ itemsPerEdition: 1 }), '2026-05-04');
    const tasted = planEdition(
      items,
      policy({ itemsPerEdition: 1, taste: tasteSignal(model) }),
      '2026-05-04',
    );
    expect(plain.ranked[0]!.signals.taste).toBeUndefined();
    const first = tasted.ranked[0]!;
    expect(first.item.key).toBe('arxiv:2604.00001');
    expect(first.signals.taste).toBe(1);
    expect(first.signals.tasteShare).toBeCloseTo(0.2, 5);
  });
});

describe('boundedExamples', () => {
  const many = (count: number, positive: boolean) =>
    Array.from({ length: count }, (_, index) => ({
      title: `${positive ? 'Pick' : 'Passed over'} ${index}`,
      text: `Text ${index}.`,
      positive,
    }));

  it('keeps a short history whole', () => {
    const history = [...many(3, true), ...many(1_999, false)];
    expect(boundedExamples(history)).toEqual(history);
  });

  it('keeps every pick and thins the items passed over, the same ones whatever the order', () => {
    const history = [...many(300, true), ...many(9_000, false)];
    const kept = boundedExamples(history);
    expect(kept.filter((example) => example.positive)).toHaveLength(300);
    // max(2,000, 10 per pick)
    expect(kept.filter((example) => !example.positive)).toHaveLength(3_000);
    const again = boundedExamples([...history].reverse());
    const titles = (list: typeof kept) => list.map((example) => example.title).sort();
    expect(titles(again)).toEqual(titles(kept));
    // The thinning is spread over the history, not its first rows.
    expect(
      kept.some((example) => example.title === 'Passed over 8999' || example.title > 'Passed over 5'),
    ).toBe(true);
  });
});

describe('taste from the store', () => {
  const store = useTestStore();

  it('is empty, not an error, for a new installation', async () => {
    const { model, history } = await loadTaste(store(), '2026-05-11');
    expect(model).toBeNull();
    expect(history.examples).toHaveLength(0);
    const report = await tasteReport(store(), '2026-05-11');
    expect(report.share).toBe(0);
  });

  it('learns from a published edition (picks positive, the rest and skips negative) and forgets on reset', async () => {
    const week = '2026-05-04';
    const items = [
      ...liked.map((title, index) =>
        paperItem(`2605.0000${index}`, { title, publishedAt: '2026-05-01T00:00:00Z' }),
      ),
      ...passed.map((title, index) =>
        paperItem(`2605.0010${index}`, { title, publishedAt: '2026-05-02T00:00:00Z' }),
      ),
    ];
    await store().items.upsert(items);
    await store().editions.save(edition(week, items.slice(0, 3)));
    await store().decisions.set({ week, itemKey: 'arxiv:2605.00100', decision: 'skip' });
    // Built but not published: not the editor's choice yet.
    expect((await loadTaste(store(), '2026-05-11')).model).toBeNull();
    await store().editions.markPublished(week, '2026-05-04T12:00:00.000Z');

    const { model, history } = await loadTaste(store(), '2026-05-11');
    expect(history.editions).toBe(1);
    expect(history.skips).toBe(1);
    expect(model?.positives).toBe(3);
    expect(model?.negatives).toBe(6);
    const report = await tasteReport(store(), '2026-05-11');
    expect(report.positiveTerms.length).toBeGreaterThan(0);
    // Terms read as words of the history, not as stems: each one is a word of some example's text.
    const words = new Set(
      history.examples.flatMap((example) =>
        `${example.title} ${example.text}`.toLowerCase().split(/[^a-z0-9]+/),
      ),
    );
    for (const [term] of [...report.positiveTerms, ...report.negativeTerms])
      for (const word of term.split(' ')) expect(words, term).toContain(word);
    // The week itself never learns from its own edition.
    expect((await loadTaste(store(), week)).model).toBeNull();

    await resetTasteNow(store(), new Date('2026-05-05T00:00:00.000Z'));
    const after = await loadTaste(store(), '2026-05-11');
    expect(after.model).toBeNull();
    expect(after.history.resetAt).toBe('2026-05-05T00:00:00.000Z');
  });
});
