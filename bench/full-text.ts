// Full text for papers: the recorded arXiv pages parsed (ms per page), then each paper written by the LLM
// writer through the real LLM client against the loopback fake LLM, once from its abstract and once from its sections:
// input tokens per item both ways (write + check calls), at the default llm.maxInputTokens.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { silentLogger } from '../src/core/ports.js';
import type { PaperText } from '../src/core/types.js';
import { parsePaperHtml } from '../src/enrich/paper-html.js';
import { openStore } from '../src/store/open-store.js';
import { createWriter } from '../src/write/index.js';
import { paperForWriting } from '../src/write/paper-input.js';
import type { ItemForWriting, WriterContext } from '../src/write/types.js';
import { startFakeLlm } from '../test/support/fake-llm.js';
import { FIXTURES } from '../test/support/fixtures.js';

const PAGES = ['2310.06825v1_arxiv-html.html', '2508.08468v6_arxiv-html.html', '2303.17564_ar5iv.html'];
const MAX_INPUT_TOKENS = 3_000;

function parsePages(): { papers: PaperText[]; msPerPage: number } {
  const pages = PAGES.map((file) => readFileSync(join(FIXTURES, 'real', 'arxiv-html', file), 'utf8'));
  const started = performance.now();
  const papers = pages.map(
    (html, index) =>
      parsePaperHtml(html, { arxivId: PAGES[index]!.split(/v\d|_/)[0]!, url: 'https://arxiv.org/html/x' })!,
  );
  return { papers, msPerPage: (performance.now() - started) / pages.length };
}

function asItem(paper: PaperText, withText: boolean): ItemForWriting {
  return {
    key: `arxiv:${paper.arxivId}`,
    title: paper.title,
    url: `https://arxiv.org/abs/${paper.arxivId}`,
    authors: [],
    text: paper.sections[0]?.text ?? '',
    source: 'bench',
    arxivId: paper.arxivId,
    publishedAt: '2026-05-01T00:00:00.000Z',
    ...(withText ? { paper: paperForWriting(paper, MAX_INPUT_TOKENS) } : {}),
  };
}

export async function benchFullText(): Promise<Record<string, number | string>> {
  const { papers, msPerPage } = parsePages();
  const fake = await startFakeLlm({ latencyMs: 0 });
  const store = await openStore({ dataDir: 'memory://' });
  const context: WriterContext = { name: 'Digest', audience: 'engineers', log: silentLogger };
  const tokensPerItem = async (withText: boolean, model: string) => {
    const setup = createWriter({
      llm: { write: model, maxInputTokens: MAX_INPUT_TOKENS },
      store,
      log: silentLogger,
      env: { OPENAI_API_KEY: 'bench', OPENAI_BASE_URL: fake.baseURL },
    });
    await setup.writer.writeItems(
      papers.map((paper) => asItem(paper, withText)),
      context,
    );
    return Math.round(setup.usage().tokensIn / papers.length);
  };
  try {
    const abstract = await tokensPerItem(false, 'openai:bench-abstract');
    const full = await tokensPerItem(true, 'openai:bench-full');
    return {
      'papers parsed': papers.length,
      'parse ms per page (mean of 3, one 1.3 MB)': Math.round(msPerPage),
      'input tokens per item, abstract only (write + check)': abstract,
      'input tokens per item, full text (write + check)': full,
      'full text / abstract input tokens': Math.round((full / abstract) * 10) / 10,
    };
  } finally {
    await store.close();
    await fake.close();
  }
}
