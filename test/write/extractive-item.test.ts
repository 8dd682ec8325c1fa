// The extractive writer's reader rules, on a recorded real week (test/fixtures/real/hf-daily-papers, see PROVENANCE.md):
// "the authors" at most once per item, and takeaways are findings, never background (the field's state, the gap).
import { describe, expect, it } from 'vitest';
import { scoreSentences, writeItemExtractively } from '../../src/write/extractive-item.js';
import { nameAuthorsOnce } from '../../src/write/extractive-voice.js';
import { readFixture } from '../support/fixtures.js';

interface HfEntry {
  paper: { id: string; title: string; summary: string; publishedAt: string; authors: { name: string }[] };
}

const week = (
  JSON.parse(
    readFixture('real', 'hf-daily-papers', 'daily_papers_2026-06-12.json').toString('utf8'),
  ) as HfEntry[]
).map(({ paper }) => ({
  title: paper.title,
  abstract: paper.summary,
  written: writeItemExtractively({
    key: `arxiv:${paper.id}`,
    title: paper.title,
    url: `https://arxiv.org/abs/${paper.id}`,
    authors: paper.authors.map((author) => author.name),
    text: paper.summary,
    source: 'Hugging Face Daily Papers',
    arxivId: paper.id,
    publishedAt: paper.publishedAt,
  }),
}));

const mentions = (text: string) => (text.match(/\bthe authors\b/gi) ?? []).length;

describe('the extractive writer on the week of 2026-06-12 (30 papers)', () => {
  it('names "the authors" at most once per item', () => {
    expect(week).toHaveLength(30);
    for (const { title, written } of week)
      expect(mentions([written.summary, ...written.takeaways].join(' ')), title).toBeLessThanOrEqual(1);
  });

  it('never takes a background sentence of the abstract as a takeaway', () => {
    for (const { title, abstract, written } of week) {
      const background = scoreSentences(title, abstract)
        .filter((sentence) => sentence.role === 'background')
        .flatMap((sentence) => [sentence.text, sentence.standalone]);
      for (const takeaway of written.takeaways) expect(background, title).not.toContain(takeaway);
    }
  });
});

describe('nameAuthorsOnce', () => {
  it('keeps the first mention and turns later ones into they / their / them, in reading order', () => {
    expect(
      nameAuthorsOnce([
        "To optimise the authors' framework, the authors develop a planner.",
        'The authors report 12% gains, confirmed by the authors on two tasks.',
        "The authors' code is public.",
      ]),
    ).toEqual([
      "To optimise the authors' framework, they develop a planner.",
      'They report 12% gains, confirmed by them on two tasks.',
      'Their code is public.',
    ]);
  });

  it('leaves text without the phrase alone', () => {
    expect(nameAuthorsOnce(['The team built it.', 'Authors: A, B.'])).toEqual([
      'The team built it.',
      'Authors: A, B.',
    ]);
  });
});
