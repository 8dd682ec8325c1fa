// The LLM writer on a paper read in full (a real recorded arXiv page): the prompt carries the chosen sections with
// their ids, each takeaway comes back with its quote and section, and the faithfulness check judges a takeaway
// against the section it names. The model is the fake LLM's brain on the real LLM client (MockLanguageModelV3).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/ports.js';
import { parsePaperHtml } from '../../src/enrich/paper-html.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/types.js';
import { writeItemExtractively } from '../../src/write/extractive-item.js';
import { type ItemChecks, judgeClaims } from '../../src/write/faithfulness.js';
import { createLlmWriter } from '../../src/write/llm-writer.js';
import { paperForWriting } from '../../src/write/paper-input.js';
import { traceSupport } from '../../src/write/takeaway-sources.js';
import type { ItemForWriting } from '../../src/write/types.js';
import { mockClient } from '../support/fake-llm-client.js';
import { readFixture } from '../support/fixtures.js';

let store: Store;
beforeAll(async () => {
  store = await openStore({ dataDir: 'memory://' });
});
afterAll(async () => {
  await store?.close();
});

const PAGE_URL = 'https://arxiv.org/html/2310.06825v1';
const paper = parsePaperHtml(
  readFixture('real', 'arxiv-html', '2310.06825v1_arxiv-html.html').toString('utf8'),
  {
    arxivId: '2310.06825',
    url: PAGE_URL,
  },
)!;
const item: ItemForWriting = {
  key: 'arxiv:2310.06825',
  title: paper.title,
  url: 'https://arxiv.org/abs/2310.06825',
  authors: ['Albert Q. Jiang'],
  text: paper.sections[0]!.text,
  source: 'api-hf',
  arxivId: '2310.06825',
  publishedAt: '2023-10-10T00:00:00.000Z',
  paper: paperForWriting(paper, 3000),
};
const context = {
  name: 'LLM News Digest',
  audience: 'engineers building production AI systems',
  log: silentLogger,
};

describe('the LLM writer on a paper read in full', () => {
  it('sends the sections with their ids and gets each takeaway back with its section, checked against it', async () => {
    const { llmClient, calls } = mockClient(store, undefined, {
      modelId: 'openai:mock-fulltext',
      llm: { checkEnabled: true },
    });
    const [written] = await createLlmWriter({ llmClient }).writeItems([item], context);
    const prompt = calls.find((call) => call.kind === 'item')!.user;
    expect(prompt).toContain('<section id="abstract">');
    expect(prompt).toContain('<section id="S3">\n§3 Results');
    expect(prompt).not.toContain('<section id="S7">');
    expect(written?.support).toHaveLength(3);
    for (const source of written!.support!) {
      expect(source).not.toBeNull();
      const part = item.paper!.parts.find((candidate) => candidate.id === source!.section)!;
      expect(source!.url).toBe(source!.section === 'abstract' ? PAGE_URL : `${PAGE_URL}#${source!.section}`);
      expect(part.text.replace(/\s+/g, ' ')).toContain(source!.quote.replace(/\s+/g, ' '));
    }
    const checks = written!.checks as ItemChecks;
    expect(checks.status).toBe('passed');
    const takeaways = checks.claims.filter((claim) => claim.kind === 'takeaway');
    expect(takeaways.map((claim) => claim.section)).toEqual(
      written!.support!.map((source) => source!.section),
    );
    const check = calls.find((call) => call.kind === 'check')!.user;
    expect(check).toMatch(/^1\. \[section (?:abstract|S\d)\] /m);
  });

  it('a takeaway whose quote is only in another section is unsupported, naming the section', () => {
    const sections = new Map(item.paper!.parts.map((part) => [part.id, part.text]));
    const introQuote = item.paper!.parts.find((part) => part.id === 'S1')!.text.split('. ')[0]!;
    const verdicts = judgeClaims({
      claims: [{ kind: 'takeaway', claim: 'Mistral 7B is fast.', section: 'S3' }],
      answer: { claims: [{ id: 1, factual: true, verdict: 'supported', quote: introQuote }] },
      source: [...sections.values()].join('\n'),
      sections,
    });
    expect(verdicts[0]).toMatchObject({
      verdict: 'unsupported',
      reason: 'supporting quote not found in section S3, which the takeaway names',
    });
  });

  it('traces a quote to the part that holds it, and traces nothing the text does not say', () => {
    const results = item.paper!.parts.find((part) => part.id === 'S3')!;
    const quote = results.text.split('. ')[0]!;
    const [moved, invented] = traceSupport(
      [
        { quote, section: 'S1' },
        { quote: 'Mistral 7B cures every known disease within three days', section: 'S3' },
      ],
      item,
      2,
    );
    expect(moved).toMatchObject({ section: 'S3', label: '§3', url: `${PAGE_URL}#S3` });
    expect(invented).toBeNull();
  });
});

describe('the extractive writer on a paper read in full', () => {
  it('takes result sentences from the results section over background sentences of the abstract', () => {
    const background =
      'Large language models are increasingly used in production systems across many industries.';
    const abstract = `${background} We introduce a compact model for efficient inference.`;
    const results =
      'On MMLU the 7B model scores 60.1%, ahead of the 13B baseline by 4.2 points. ' +
      'On GSM8K it reaches 52.2% accuracy, 6 points above the baseline. ' +
      'Inference runs 2.1 times faster with sliding window attention on long sequences.';
    const written = writeItemExtractively({
      ...item,
      text: abstract,
      paper: {
        url: PAGE_URL,
        parts: [
          { id: 'abstract', label: 'Abstract', title: 'Abstract', role: 'abstract', text: abstract },
          { id: 'S3', label: '§3', title: 'Results', role: 'results', text: results },
        ],
      },
    });
    expect(`${written.summary} ${written.takeaways.join(' ')}`).toContain('60.1%');
    expect(written.takeaways.join(' ')).not.toContain('increasingly used');
    // The takeaways from the results part link there, quoting the sentence as the paper has it.
    const fromResults = written.support?.filter((source) => source?.section === 'S3') ?? [];
    expect(fromResults.length).toBeGreaterThanOrEqual(2);
    for (const source of fromResults) {
      expect(source).toMatchObject({ label: '§3', url: `${PAGE_URL}#S3` });
      expect(results).toContain(source!.quote);
    }
  });
});
