// Editions for the delivery tests, derived from the reference edition (synthetic text, not recorded).
import type { Edition, EditionItem } from '../../src/core/types.js';
import { referenceEdition } from './reference-edition.js';

export const WEEK = '2026-05-04';
export const PAGE_URL = `https://digest.example.com/${WEEK}/`;

/** 100 items (the config's maximum) with 1,500-character summaries: more than any platform takes in one message. */
export function longEdition(): Edition {
  const base = referenceEdition();
  const items: EditionItem[] = Array.from({ length: 100 }, (_, index) => {
    const item = base.items[index % base.items.length] as EditionItem;
    const summary = `${item.summary} ${item.takeaways.join(' ')} `.repeat(4).slice(0, 1500);
    return {
      ...item,
      key: `${item.key}#${index}`,
      title: `${index + 1}. ${item.title} — ${item.takeaways[0]}`.slice(0, 300),
      summary,
    };
  });
  return { ...base, intro: base.intro.repeat(4), items };
}

/** What a feed could put in a title or summary to ping a channel, fake a link or inject markup. */
export const HOSTILE = [
  '<!channel>',
  '<!here|here>',
  '@everyone',
  '@here',
  '<@U024BE7LH>',
  '<@&123456789012345678>',
  '**bold** __underline__ ~~strike~~ ||spoiler||',
  '[click me](https://evil.example/phish)',
  '<https://evil.example/phish|Official notice>',
  '<script>alert(1)</script>',
  '<a href="https://evil.example">x</a>',
  '&amp; &lt; & AT&T',
  '`code` ```block```',
  '# Heading',
] as const;

export function hostileEdition(): Edition {
  const base = referenceEdition();
  const text = HOSTILE.join(' ');
  return {
    ...base,
    name: 'Digest <!channel>',
    title: `Week @everyone ${HOSTILE[6]}`,
    intro: `Intro ${text}`,
    items: base.items.slice(0, 3).map((item, index) => ({
      ...item,
      title: `${HOSTILE[index]} ${text}`,
      url: index === 0 ? 'javascript:alert(1)' : item.url,
      summary: `- ${text}`,
      source: `src @everyone <@U024BE7LH>`,
    })),
  };
}
