// Real item texts for writer tests, read from recorded responses in test/fixtures/real (never edited).

import type { ItemForWriting } from '../../src/write/types.js';
import { readFixture } from './fixtures.js';

interface HfEntry {
  publishedAt: string;
  paper: { id: string; title: string; summary: string; authors: { name: string }[] };
}

/** Every paper of a recorded HF daily_papers answer, as the writer sees it. */
export function hfItems(file = 'daily_papers_2026-07-31.json'): ItemForWriting[] {
  const entries = JSON.parse(readFixture('real', 'hf-daily-papers', file).toString('utf8')) as HfEntry[];
  return entries.map((entry) => ({
    key: `arxiv:${entry.paper.id}`,
    title: entry.paper.title,
    url: `https://arxiv.org/abs/${entry.paper.id}`,
    authors: entry.paper.authors.map((author) => author.name),
    text: entry.paper.summary,
    source: 'api-hf',
    arxivId: entry.paper.id,
    publishedAt: entry.publishedAt,
  }));
}

function cdata(value: string): string {
  return value
    .replace(/^\s*<!\[CDATA\[/, '')
    .replace(/\]\]>\s*$/, '')
    .trim();
}

/** Items of the recorded OpenAI news feed (short product/announcement descriptions). */
export function openAiNewsItems(): ItemForWriting[] {
  const xml = readFixture('real', 'openai', 'openai_news_rss_2026-08-20_first6.xml').toString('utf8');
  return [...xml.matchAll(/<item>([\s\S]*?)<\/item>/g)].map((match, index) => {
    const body = match[1] ?? '';
    const field = (name: string) =>
      cdata(new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(body)?.[1] ?? '');
    return {
      key: `url:openai-${index}`,
      title: field('title'),
      url: field('link'),
      authors: [],
      text: field('description'),
      source: 'rss-openai',
      arxivId: null,
      publishedAt: new Date(field('pubDate')).toISOString(),
    };
  });
}

/** One paper of a recorded HF daily-papers RSS mirror (seed week), by title: its "Summary:" paragraph as text. */
export function seedWeekItem(file: string, title: string): ItemForWriting {
  const xml = readFixture('real', 'seed-week-2026-05-04', file).toString('utf8');
  const item = [...xml.matchAll(/<item>([\s\S]*?)<\/item>/g)]
    .map((match) => match[1] ?? '')
    .find((body) => body.includes(`<title>${title}</title>`));
  if (!item) throw new Error(`${title} is not in ${file}`);
  const description = (/<description>([\s\S]*?)<\/description>/.exec(item)?.[1] ?? '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
  const summary = /<b>Summary:<\/b>\s*([\s\S]*?)<\/p>/.exec(description)?.[1] ?? '';
  const id = /arxiv\.org\/abs\/([\d.]+)/.exec(item)?.[1] ?? '';
  return {
    key: `arxiv:${id}`,
    title,
    url: `https://arxiv.org/abs/${id}`,
    authors: [],
    text: summary.trim(),
    source: 'api-hf',
    arxivId: id,
    publishedAt: '2026-04-30T00:00:00.000Z',
  };
}

const SEED_WEEK_FILES = [
  'hf-daily-rss-huangboming_2026-04-29.xml',
  'hf-daily-rss-huangboming_2026-04-30.xml',
  'hf-daily-rss-huangboming_2026-05-01.xml',
  'hf-daily-rss-huangboming_2026-05-02.xml',
  'hf-daily-rss-huangboming_2026-05-05.xml',
];

/** A seed-week paper by arXiv id, from whichever daily capture lists it. */
export function seedWeekItemById(id: string): ItemForWriting {
  for (const file of SEED_WEEK_FILES) {
    const xml = readFixture('real', 'seed-week-2026-05-04', file).toString('utf8');
    const body = [...xml.matchAll(/<item>([\s\S]*?)<\/item>/g)]
      .map((match) => match[1] ?? '')
      .find((item) => item.includes(`arxiv.org/abs/${id}`));
    const title = body && /<title>([\s\S]*?)<\/title>/.exec(body)?.[1];
    if (title) return seedWeekItem(file, title);
  }
  throw new Error(`${id} is not in the seed week`);
}
