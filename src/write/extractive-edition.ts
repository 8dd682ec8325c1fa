// Edition title and intro from the themes the chosen items actually carry (see themes.ts). No claim beyond counts.

import { rankThemes, type ThemeCount } from './themes.js';
import type { EditionHeader } from './types.js';

interface HeaderInput {
  title: string;
  text: string;
  arxivId: string | null;
}

/** "Agents in Practice, Safety and Security": the two themes most items carry. */
export function editionTitle(ranked: ThemeCount[], itemCount: number): string {
  const [first, second] = ranked;
  if (!first) return "This Week's Picks, In Brief";
  if (second) return `${first.theme.label}, ${second.theme.label}`;
  const others = itemCount - first.items;
  return others > 0 ? `${first.theme.label}, Plus ${others} More` : `${first.theme.label}, In Depth`;
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

function listPhrases(parts: string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

export function editionIntro(ranked: ThemeCount[], items: HeaderInput[]): string {
  const total = items.length;
  const opening = total === 1 ? "This week's pick" : `This week's ${total} picks`;
  const sentences: string[] = [];
  const lead = ranked.slice(0, 2);
  if (lead.length === 0) {
    sentences.push(`${opening} ${total === 1 ? 'spans' : 'span'} a mix of topics.`);
  } else {
    const described = lead.map(
      ({ theme, items: count }) => `${theme.phrase} (${plural(count, 'item', 'items')})`,
    );
    sentences.push(`${opening} ${total === 1 ? 'centres' : 'centre'} on ${listPhrases(described)}.`);
  }
  const also = ranked.slice(2, 5).map(({ theme, items: count }) => `${theme.phrase} (${count})`);
  if (also.length > 0) sentences.push(`Also in the mix: ${listPhrases(also)}.`);
  const papers = items.filter((item) => item.arxivId).length;
  const posts = total - papers;
  const mix =
    papers && posts
      ? `${plural(papers, 'paper', 'papers')} and ${plural(posts, 'post', 'posts')}`
      : papers
        ? plural(papers, 'paper', 'papers')
        : plural(posts, 'post', 'posts');
  sentences.push(
    total === 1
      ? `There is ${mix}, summarised from its own text.`
      : `There are ${mix}, each summarised from its own text.`,
  );
  return sentences.join(' ');
}

export function writeEditionExtractively(items: HeaderInput[]): EditionHeader {
  const ranked = rankThemes(items);
  return {
    title: editionTitle(ranked, items.length),
    intro: editionIntro(ranked, items),
    writer: 'extractive',
  };
}
