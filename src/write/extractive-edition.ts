// Edition title and intro from the themes the chosen items actually carry (see themes.ts), in plain prose.

import { titleName } from './clean-text.js';
import { rankThemes, type ThemeCount, themesOf } from './themes.js';
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

const NUMBERS = [
  'no',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
];

function counted(count: number, one: string, many: string): string {
  return `${NUMBERS[count] ?? String(count)} ${count === 1 ? one : many}`;
}

function listPhrases(parts: string[]): string {
  if (parts.length <= 1) return parts.join('');
  // Two themes, one with its own "and": "reliability in production as well as benchmarks and evaluation" (", and"
  // there reads as a slip).
  if (parts.length === 2 && parts.some((part) => part.includes(' and ')))
    return `${parts[0]} as well as ${parts[1]}`;
  // A serial comma keeps "retrieval and RAG, efficient inference, and agents" readable.
  const serial = parts.length > 2 ? ',' : '';
  return `${parts.slice(0, -1).join(', ')}${serial} and ${parts.at(-1)}`;
}

/** How an item is named in prose: the name of a "Name: subtitle" title, else the title itself. */
function shortTitle(title: string): string {
  const trimmed = title.trim().replace(/[.!?]$/, '');
  return titleName(trimmed) ?? trimmed;
}

/**
 * Plain prose naming the edition's main themes and, for the two leading ones, an item that carries each; then the
 * lesser themes and the mix of papers and posts. Nothing beyond what the items' titles and texts say.
 */
export function editionIntro(ranked: ThemeCount[], items: HeaderInput[]): string {
  const sentences: string[] = [];
  const lead = ranked.slice(0, 2);
  if (lead.length === 0) sentences.push("This week's edition brings together a mix of topics.");
  else
    sentences.push(`This week's edition centres on ${listPhrases(lead.map(({ theme }) => theme.phrase))}.`);
  const used = new Set<HeaderInput>();
  const examples = lead.flatMap(({ theme }) => {
    const item = items.find((candidate) => !used.has(candidate) && themesOf(candidate).includes(theme.id));
    if (!item) return [];
    used.add(item);
    return [`${shortTitle(item.title)} on ${theme.phrase}`];
  });
  if (examples.length > 0) sentences.push(`Among the picks: ${listPhrases(examples)}.`);
  const also = ranked.slice(2, 5).map(({ theme }) => theme.phrase);
  if (also.length > 0) sentences.push(`Further reading covers ${listPhrases(also)}.`);
  const papers = items.filter((item) => item.arxivId).length;
  const posts = items.length - papers;
  const mix =
    papers && posts
      ? `${counted(papers, 'paper', 'papers')} and ${counted(posts, 'post', 'posts')}`
      : papers
        ? counted(papers, 'paper', 'papers')
        : counted(posts, 'post', 'posts');
  // Nothing about how each was read: the cards say it (full text or abstract), the intro must not claim more.
  const each = items.length > 1 ? 'each with' : 'with';
  sentences.push(
    `${mix.charAt(0).toUpperCase()}${mix.slice(1)}, ${each} a short summary and three takeaways.`,
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
