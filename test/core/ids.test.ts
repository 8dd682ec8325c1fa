import { describe, expect, it } from 'vitest';
import {
  arxivIdFromText,
  arxivIdFromUrl,
  canonicalUrl,
  itemKey,
  normaliseArxivId,
} from '../../src/core/ids.js';

describe('arXiv ids', () => {
  it('reads every arXiv link variant and HF paper pages', () => {
    for (const url of [
      'https://arxiv.org/abs/2604.24819',
      'http://arxiv.org/abs/2604.24819v2',
      'https://arxiv.org/pdf/2604.24819v1.pdf',
      'https://arxiv.org/pdf/2604.24819',
      'https://www.arxiv.org/html/2604.24819v3',
      'https://export.arxiv.org/abs/2604.24819',
      'https://huggingface.co/papers/2604.24819',
      'https://tldr.takara.ai/p/2604.24819',
    ]) {
      expect(arxivIdFromUrl(url), url).toBe('2604.24819');
    }
    expect(arxivIdFromUrl('https://arxiv.org/abs/cs/0112017v1')).toBe('cs/0112017');
  });
  it('does not take version numbers or non-paper paths for ids', () => {
    expect(arxivIdFromUrl('https://example.com/releases/2613.1234')).toBeNull();
    expect(arxivIdFromUrl('https://example.org/x/2604.12345')).toBeNull();
    expect(arxivIdFromUrl('https://openai.com/index/where-the-goblins-came-from/')).toBeNull();
    expect(arxivIdFromUrl('not a url')).toBeNull();
  });
  it('finds ids in text', () => {
    expect(arxivIdFromText('See arXiv:2605.00754 for details')).toBe('2605.00754');
    expect(arxivIdFromText('paper at https://arxiv.org/pdf/2604.28157v2.pdf.')).toBe('2604.28157');
    expect(arxivIdFromText('version 2024.1 shipped')).toBeNull();
    expect(normaliseArxivId('arXiv:2604.24819v3')).toBe('2604.24819');
  });
});

describe('canonical URLs', () => {
  it('drops tracking, fragments, www, default ports and trailing slashes, keeps real parameters sorted', () => {
    expect(canonicalUrl('http://WWW.Example.com:80/post/?utm_source=x&b=2&a=1#top')).toBe(
      'https://example.com/post?a=1&b=2',
    );
    expect(canonicalUrl('https://example.com/')).toBe('https://example.com/');
  });
  it('collapses paper links to one key', () => {
    expect(itemKey(null, 'https://arxiv.org/pdf/2604.24819v2.pdf')).toBe(
      'url:https://arxiv.org/abs/2604.24819',
    );
    expect(itemKey('2604.24819', 'https://example.com')).toBe('arxiv:2604.24819');
  });
});
