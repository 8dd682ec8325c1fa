// The prefilter of topic patterns (termFirstWords, mayMatch): a text it turns away can never match the group's
// pattern, on the topic list's own terms written every way the pattern accepts and on the real sample week's feeds.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_OFF_TOPICS, DEFAULT_TOPICS } from '../../src/select/default-topics.js';
import { mayMatch, termFirstWords, termPattern } from '../../src/select/topic-match.js';

const GROUPS = [...DEFAULT_TOPICS, ...DEFAULT_OFF_TOPICS];
const WEEK = join(import.meta.dirname, '..', '..', 'sample', 'week-2026-05-04');

/** Every feed of the sample week, cut into 2,000-character texts. */
function sampleTexts(): string[] {
  const files = ['feeds', 'hf-daily'].flatMap((folder) =>
    readdirSync(join(WEEK, folder)).map((name) => join(WEEK, folder, name)),
  );
  return files.flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    return Array.from({ length: Math.ceil(text.length / 2000) }, (_, index) =>
      text.slice(index * 2000, (index + 1) * 2000),
    );
  });
}

const matches = (pattern: RegExp, text: string) => {
  pattern.lastIndex = 0;
  return pattern.test(text);
};

describe('the prefilter of a topic pattern', () => {
  it('lets through every way the pattern accepts a term: any case, hyphen or space, a suffix', () => {
    for (const group of GROUPS) {
      const [pattern, words] = [termPattern(group.terms), termFirstWords(group.terms)];
      for (const term of group.terms) {
        for (const text of [
          term,
          term.toUpperCase(),
          `${term.replace(/ /g, '-')}s`,
          `The ${term}ing works.`,
        ]) {
          if (matches(pattern, text))
            expect(mayMatch(words, text.toLowerCase()), `${group.name}: ${text}`).toBe(true);
        }
        expect(matches(pattern, `about ${term} here`), `${group.name}: ${term}`).toBe(true);
      }
    }
  });

  it('never turns away a text of the sample week that the pattern matches, and does turn some away', () => {
    const texts = sampleTexts();
    expect(texts.length).toBeGreaterThan(100);
    let matched = 0;
    let skipped = 0;
    for (const group of GROUPS) {
      const [pattern, words] = [termPattern(group.terms), termFirstWords(group.terms)];
      for (const text of texts) {
        const through = mayMatch(words, text.toLowerCase());
        if (matches(pattern, text)) {
          matched++;
          expect(through, `${group.name} in ${text.slice(0, 80)}`).toBe(true);
        } else if (!through) skipped++;
      }
    }
    expect(matched).toBeGreaterThan(50);
    expect(skipped).toBeGreaterThan(50);
  });
});
