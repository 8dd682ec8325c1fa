// The audit `digest eval` runs on every writer: lexical support, superlatives the source does not use, voice.
import { describe, expect, it } from 'vitest';
import type { WrittenItem } from '../../src/core/types.js';
import { auditItem } from '../../src/write/audit.js';
import type { ItemForWriting } from '../../src/write/types.js';

const source: ItemForWriting = {
  key: 'arxiv:2605.00001',
  title: 'Speculative decoding for long-context serving',
  url: 'https://arxiv.org/abs/2605.00001',
  authors: ['A. Author'],
  text:
    'We present a speculative decoding scheme for long-context serving. It cuts median latency by 38% on ' +
    'a production trace while keeping output quality. The largest gains come from requests over 32k tokens.',
  source: 'api-hf',
  arxivId: '2605.00001',
  publishedAt: '2026-05-01T00:00:00.000Z',
};

function written(summary: string, takeaways: [string, string, string]): WrittenItem {
  return { summary, takeaways, level: 'Intermediate', levelReason: '', writer: 'openai:test' };
}

describe('auditItem', () => {
  it('passes sentences whose content words come from the source', () => {
    const audit = auditItem(
      source,
      written(
        'The authors present speculative decoding for long-context serving. It cuts median latency by 38%.',
        [
          'Median latency falls 38% on a production trace.',
          'Output quality is kept.',
          'The largest gains come from requests over 32k tokens.',
        ],
      ),
    );
    expect(audit.unsupported).toEqual([]);
    expect(audit.superlatives).toEqual([]);
    expect(audit.firstPerson).toBe(false);
    expect(audit.sentences).toBe(5);
  });

  it('flags a sentence the source does not support, hype it never uses, and the authors\' "we"', () => {
    const audit = auditItem(
      source,
      written(
        'We show a revolutionary method that cures every known disease within three days of training.',
        [
          'It is the fastest decoder ever built for any hardware vendor.',
          'Median latency falls 38% on a production trace.',
          'The largest gains come from requests over 32k tokens.',
        ],
      ),
    );
    expect(audit.unsupported).toHaveLength(2);
    expect(audit.superlatives.sort()).toEqual(['fastest', 'revolutionary']);
    expect(audit.firstPerson).toBe(true);
  });

  it('counts the claims the faithfulness check left unsupported', () => {
    const item = written('The authors present speculative decoding.', ['a b c', 'd e f', 'g h i']);
    item.checks = {
      claims: [
        { kind: 'takeaway', claim: 'x', factual: true, verdict: 'unsupported', quote: null },
        { kind: 'summary', claim: 'y', factual: false, verdict: 'unsupported', quote: null },
        { kind: 'takeaway', claim: 'z', factual: true, verdict: 'supported', quote: 'q' },
      ],
    };
    expect(auditItem(source, item).flaggedClaims).toBe(1);
  });
});
