// The themes of edition titles and intros, derived from the product's one topic list (select/default-topics.ts):
// every labelled group is a theme. An item carries a theme when one of the group's terms appears in its title, or
// at least twice in its text (boilerplate and link sentences left out). Themes are ranked by how many items carry
// them (ties: table order).

import { DEFAULT_OFF_TOPICS, DEFAULT_TOPICS, type TopicGroup } from '../select/default-topics.js';
import { mayMatch, termFirstWords, termPattern } from '../select/topic-match.js';
import { rejectReason, splitSentences } from './sentences.js';

export interface Theme {
  id: string;
  /** Short title-case label used in edition titles ("Agents in Practice"). */
  label: string;
  /** Lower-case phrase used in intro prose ("agents"). */
  phrase: string;
  keywords: RegExp;
  /** termFirstWords of the terms: a text holding none of them cannot match `keywords`. */
  words: string[];
}

function toTheme(group: TopicGroup): Theme | null {
  if (!group.label || !group.phrase || group.broad) return null;
  return {
    id: group.name,
    label: group.label,
    phrase: group.phrase,
    keywords: termPattern(group.terms),
    words: termFirstWords(group.terms),
  };
}

export const THEMES: readonly Theme[] = [...DEFAULT_TOPICS, ...DEFAULT_OFF_TOPICS]
  .map(toTheme)
  .filter((theme): theme is Theme => theme !== null);

/** Whether `pattern` (global) matches `text` at least `wanted` times: it stops there instead of collecting all. */
function matchesAtLeast(pattern: RegExp, text: string, wanted: number): boolean {
  pattern.lastIndex = 0;
  let found = 0;
  while (found < wanted && pattern.exec(text) !== null) found += 1;
  pattern.lastIndex = 0;
  return found >= wanted;
}

/** Themes already found per item: the edition's title and its intro ask about the same picks. */
const found = new WeakMap<object, { title: string; text: string; themes: readonly string[] }>();

/** Theme ids an item carries, in table order. */
export function themesOf(item: { title: string; text: string }): string[] {
  const known = found.get(item);
  if (known && known.title === item.title && known.text === item.text) return [...known.themes];
  const themes = findThemes(item);
  found.set(item, { title: item.title, text: item.text, themes });
  return [...themes];
}

function findThemes(item: { title: string; text: string }): string[] {
  // "Code and data are available at https://…" says nothing about the item's topic.
  const text = splitSentences(item.text)
    .filter((sentence) => !['boilerplate', 'contains a URL'].includes(rejectReason(sentence) ?? ''))
    .join(' ');
  const [title, body] = [item.title.toLowerCase(), text.toLowerCase()];
  return THEMES.filter(
    (theme) =>
      (mayMatch(theme.words, title) && matchesAtLeast(theme.keywords, item.title, 1)) ||
      (mayMatch(theme.words, body) && matchesAtLeast(theme.keywords, text, 2)),
  ).map((theme) => theme.id);
}

export interface ThemeCount {
  theme: Theme;
  items: number;
}

/** Themes present in the items, most items first; ties keep table order. */
export function rankThemes(items: { title: string; text: string }[]): ThemeCount[] {
  const counts = new Map<string, number>();
  for (const item of items) for (const id of themesOf(item)) counts.set(id, (counts.get(id) ?? 0) + 1);
  return THEMES.filter((theme) => counts.has(theme.id))
    .map((theme) => ({ theme, items: counts.get(theme.id) ?? 0 }))
    .sort((a, b) => b.items - a.items);
}
