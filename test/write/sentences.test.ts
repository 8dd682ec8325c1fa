import { describe, expect, it } from 'vitest';
import { normaliseText, rejectReason, splitSentences } from '../../src/write/sentences.js';

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
