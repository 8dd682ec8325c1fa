// A synthetic editor's history for taste tests (built here, not recorded): an editor who picks prompt-injection and
// red-teaming work and passes over image generation.
import type { Edition, SourceItem } from '../../src/core/types.js';

export const liked = [
  'Prompt injection attacks against tool-using agents',
  'Red-teaming long-context models for prompt injection',
  'Defending retrieval agents from indirect prompt injection',
  'A benchmark of jailbreak and injection defenses',
];
export const passed = [
  'Diffusion transformers for high resolution image generation',
  'Video generation with temporal consistency',
  'Text-to-image editing with attention control',
  'Gaussian splatting for novel view synthesis',
  'Image generation at scale with flow matching',
];
export const examples = [
  ...liked.map((title) => ({ title, text: `${title}. We study attacks and defenses.`, positive: true })),
  ...passed.map((title) => ({ title, text: `${title}. We study pixels and frames.`, positive: false })),
];

export function edition(date: string, items: SourceItem[]): Edition {
  return {
    date,
    name: 'LLM News Digest',
    title: 'A week',
    intro: 'Intro.',
    writer: 'extractive',
    sources: [],
    items: items.map((item) => ({
      key: `arxiv:${item.arxivId}`,
      title: item.title,
      url: item.url,
      level: 'Intermediate',
      authors: [],
      summary: 'A summary.',
      takeaways: ['One.', 'Two.', 'Three.'],
      source: 'api-hf',
      sources: ['api-hf'],
      arxivId: item.arxivId,
      citations: null,
      image: null,
      publishedAt: item.publishedAt,
      writer: 'extractive',
      why: { score: 1 },
    })),
  };
}
