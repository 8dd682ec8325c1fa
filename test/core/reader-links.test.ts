// What readers see of an item's origin: the source's name (not its id) and, for a paper, its arXiv page.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/index.js';
import { readerUrl } from '../../src/core/ids.js';
import { sourceName } from '../../src/core/source-names.js';
import { toItemView } from '../../src/publish/item-view.js';

describe('source names', () => {
  it('configured name, else the known name, else the host, else the id', () => {
    expect(sourceName('rss-x', { name: 'Interconnects', url: 'https://www.interconnects.ai/feed' })).toBe(
      'Interconnects',
    );
    expect(sourceName('rss-willison')).toBe('Simon Willison');
    expect(sourceName('api-hf', { url: 'http://127.0.0.1:4000/hf-daily/{date}.xml' })).toBe(
      'Hugging Face Daily Papers',
    );
    expect(sourceName('rss-x', { url: 'https://www.interconnects.ai/feed' })).toBe('interconnects.ai');
    expect(sourceName('rss-x', { url: 'http://127.0.0.1:4000/feed.xml' })).toBe('rss-x');
  });

  it('is a config field that names its errors', () => {
    const config = parseConfig({
      sources: [{ id: 'rss-x', name: 'Interconnects', type: 'feed', url: 'https://interconnects.ai/feed' }],
    });
    expect(config.sources[0]?.name).toBe('Interconnects');
    expect(() =>
      parseConfig({ sources: [{ id: 'a', name: '', type: 'feed', url: 'https://a.example/' }] }),
    ).toThrow(/sources\[0\]\.name/);
    expect(parseConfig({}).sources.map((source) => source.name)).toEqual([
      'Hugging Face Daily Papers',
      'OpenAI News',
      'Latent Space',
      'Simon Willison',
    ]);
  });
});

describe('reader links', () => {
  it('a paper mirror links to arXiv; a post about the paper keeps its own link', () => {
    expect(readerUrl('https://tldr.takara.ai/p/2604.26238', '2604.26238')).toBe(
      'https://arxiv.org/abs/2604.26238',
    );
    expect(readerUrl('https://huggingface.co/papers/2604.26238', '2604.26238')).toBe(
      'https://arxiv.org/abs/2604.26238',
    );
    expect(readerUrl('https://arxiv.org/pdf/2604.26238v2', '2604.26238')).toBe(
      'https://arxiv.org/abs/2604.26238',
    );
    const post = 'https://simonwillison.net/2026/May/1/agents-paper/';
    expect(readerUrl(post, '2604.26238')).toBe(post);
    expect(readerUrl(post, null)).toBe(post);
  });

  it('the item view shows the name and the arXiv link, for editions stored before names existed too', () => {
    const view = toItemView(
      {
        key: 'arxiv:2604.26238',
        title: 'A paper',
        url: 'https://tldr.takara.ai/p/2604.26238',
        level: 'Intermediate',
        authors: [],
        summary: 's',
        takeaways: ['a', 'b', 'c'],
        source: 'rss-takara',
        sources: ['rss-takara'],
        arxivId: '2604.26238',
        citations: null,
        image: null,
        publishedAt: '2026-05-01T00:00:00Z',
        writer: 'extractive',
      },
      { number: 1, anchor: 'a-paper' },
    );
    expect(view.source).toBe('Takara TLDR');
    expect(view.url).toBe('https://arxiv.org/abs/2604.26238');
  });
});
