import { describe, expect, it } from 'vitest';
import { writeItemExtractively } from '../../src/write/extractive-item.js';
import { normaliseText, rejectReason, splitSentences } from '../../src/write/sentences.js';
import { hfItems } from './real-items.js';

const papers = [...hfItems('daily_papers_2026-07-31.json'), ...hfItems('daily_papers_2026-06-12.json')];

describe('splitSentences', () => {
  it('keeps abbreviations, initials and decimals inside sentences', () => {
    const text =
      'Prior work (Smith et al. 2024) uses e.g. retrieval vs. fine-tuning. Accuracy rises to 4.51 points, cf. Fig. 3 for details. T. J. Barton ran it. Done!';
    expect(splitSentences(text)).toEqual([
      'Prior work (Smith et al. 2024) uses e.g. retrieval vs. fine-tuning.',
      'Accuracy rises to 4.51 points, cf. Fig. 3 for details.',
      'T. J. Barton ran it.',
      'Done!',
    ]);
  });

  it('splits after question marks, closing quotes and brackets, and every piece is a substring', () => {
    const text = 'Does it scale?  We say "yes." (Mostly.) The U.S. team agrees.\nThe end';
    const sentences = splitSentences(text);
    expect(sentences).toEqual([
      'Does it scale?',
      'We say "yes."',
      '(Mostly.)',
      'The U.S. team agrees.',
      'The end',
    ]);
    for (const sentence of sentences) expect(normaliseText(text)).toContain(sentence);
  });
});

describe('rejectReason', () => {
  it('drops URLs, boilerplate and fragments', () => {
    expect(rejectReason('The code is available at https://github.com/x/y.')).toBe('contains a URL');
    expect(
      rejectReason('Our code and trained models are publicly available at github.com/example/project now.'),
    ).toBe('contains a URL');
    expect(
      rejectReason('The code and the models will be made publicly available upon acceptance of this work.'),
    ).toBe('boilerplate');
    expect(rejectReason('The post Where the goblins came from appeared first on OpenAI News today.')).toBe(
      'boilerplate',
    );
    expect(rejectReason('Short one.')).toBe('too short');
    expect(rejectReason('We show that agents fail under long multi-day tasks.')).toBeNull();
  });
});

describe('LaTeX debris in real abstracts', () => {
  const byId = (id: string) => papers.find((paper) => paper.arxivId === id)!;

  it('unescapes \\% and LaTeX ties, and writes HF-mangled ×/≈ macros as symbols', () => {
    expect(normaliseText(byId('2607.26056').text)).toContain('reaches 96.86% macro success');
    expect(normaliseText(byId('2606.08039').text)).toContain('selecting (i) the physics model');
    expect(normaliseText(byId('2606.11409').text)).toContain('up to ~5× across harm');
    expect(normaliseText('a 1.2times-2.4times speedup, 5 times faster')).toBe(
      'a 1.2×-2.4× speedup, 5 times faster',
    );
    expect(normaliseText('see https://example.org/~user/x (~47k tools)')).toBe(
      'see https://example.org/~user/x (~47k tools)',
    );
  });

  it('rejects sentences that still carry markup the reader cannot read', () => {
    expect(rejectReason('The action supplies physical intent z_{t+1}-z_t to the policy head.')).toBe(
      'markup',
    );
    expect(rejectReason('We bound the error by $\\epsilon$ in every one of the settings.')).toBe('markup');
    expect(rejectReason('We bound the error by \\epsilon in every one of the settings.')).toBe('markup');
    expect(rejectReason('We bound the error by $k$ in every one of the settings.')).toBe('markup');
    expect(rejectReason('The agents moved $20M-$30M of real capital in three weeks.')).toBeNull();
  });

  it('leaves no LaTeX escape in what the extractive writer writes', () => {
    for (const paper of papers) {
      const written = writeItemExtractively(paper);
      for (const text of [written.summary, ...written.takeaways]) expect(text).not.toMatch(/\\|\$|[_^]\{/);
    }
  });
});
