// The ranking's topic list as readers and filters see it: every group of select/default-topics.ts (the audience's
// topics and the out-of-scope ones), by name with a label, and the one rule for which topics an item is about.
import { DEFAULT_OFF_TOPICS, DEFAULT_TOPICS, type TopicGroup } from './default-topics.js';

const escapePattern = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A group's terms as one pattern: "tool use" also matches "tool-use", "agent" also "agents" and "agentic". */
export function termPattern(terms: string[]): RegExp {
  const alternatives = terms
    .map((term) =>
      term
        .toLowerCase()
        .split(/[\s-]+/)
        .filter(Boolean)
        .map(escapePattern)
        .join('[\\s-]?'),
    )
    .sort((a, b) => b.length - a.length);
  return new RegExp(`\\b(?:${alternatives.join('|')})(?:s|es|ed|ing|ic|al|ations?)?\\b`, 'gi');
}

/**
 * The first word of each term, lower-case: a text in which none of them occurs cannot match termPattern(terms), so
 * a plain `includes` spares the pattern most texts (a regular expression's first runs on a long text are slow).
 */
export function termFirstWords(terms: string[]): string[] {
  const words = terms.map(
    (term) =>
      term
        .toLowerCase()
        .split(/[\s-]+/)
        .find(Boolean) ?? '',
  );
  return [...new Set(words.filter(Boolean))];
}

/** Whether `lowerText` (lower-cased) holds one of `words` (termFirstWords), so that the pattern may match it. */
export function mayMatch(words: readonly string[], lowerText: string): boolean {
  return words.some((word) => lowerText.includes(word));
}

export interface TopicChoice {
  /** The group's name: what preferences store and what `?topic=` takes. */
  name: string;
  label: string;
}

const ALL_GROUPS: readonly TopicGroup[] = [...DEFAULT_TOPICS, ...DEFAULT_OFF_TOPICS];

const titleCase = (name: string) =>
  name
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');

/** Every topic the ranking knows, in table order. */
export const TOPIC_CHOICES: readonly TopicChoice[] = ALL_GROUPS.map((group) => ({
  name: group.name,
  label: group.label ?? titleCase(group.name),
}));

export const TOPIC_NAMES = TOPIC_CHOICES.map((choice) => choice.name) as [string, ...string[]];

const MATCHERS = ALL_GROUPS.map((group) => ({
  name: group.name,
  pattern: termPattern(group.terms),
  words: termFirstWords(group.terms),
}));

/** The terms of a topic (for a full-text filter), or undefined for an unknown name. */
export function topicTerms(name: string): string[] | undefined {
  return ALL_GROUPS.find((group) => group.name === name)?.terms;
}

/**
 * Topic names a written item is about, in table order: one of the group's terms in its title, or two mentions in
 * its summary and takeaways (one passing word in three sentences says little; the same rule as edition themes).
 */
export function itemTopics(item: { title: string; summary: string; takeaways: readonly string[] }): string[] {
  const text = `${item.summary}\n${item.takeaways.join('\n')}`;
  const [title, body] = [item.title.toLowerCase(), text.toLowerCase()];
  return MATCHERS.filter(
    ({ pattern, words }) =>
      (mayMatch(words, title) && (item.title.match(pattern)?.length ?? 0) > 0) ||
      (mayMatch(words, body) && (text.match(pattern)?.length ?? 0) >= 2),
  ).map(({ name }) => name);
}
