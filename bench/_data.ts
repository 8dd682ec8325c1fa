// Benchmark inputs replicated from real recorded responses (test/fixtures/real), never invented text.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { addDays } from '../src/core/dates.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'fixtures', 'real');

/**
 * An Atom feed of `count` entries made by replicating the entries of a real capture of simonwillison.net's feed:
 * each copy gets its own id, link and title suffix and a date spread over the 7 days ending on `lastDay`.
 */
export function replicatedAtomFeed(count: number, lastDay: string, offset = 0): string {
  const xml = readFileSync(join(FIXTURES, 'simonwillison', 'atom_everything_2026-06-25.xml'), 'utf8');
  const first = xml.indexOf('<entry');
  const head = xml.slice(0, first);
  const entries =
    xml.slice(first, xml.lastIndexOf('</entry>') + '</entry>'.length).match(/<entry[\s\S]*?<\/entry>/g) ?? [];
  if (entries.length === 0) throw new Error('no entries in the recorded feed');
  const parts: string[] = [head];
  for (let index = offset; index < offset + count; index++) {
    const day = addDays(lastDay, -(index % 7));
    const entry = entries[index % entries.length]!.replace(
      /<id>([^<]*)<\/id>/,
      (_, id: string) => `<id>${id}#copy-${index}</id>`,
    )
      .replace(/(<link[^>]*href=")([^"]*)(")/, (_, before: string, href: string, after: string) => {
        // Before any #fragment, so each copy has its own canonical URL.
        const link = new URL(href.replace(/&amp;/g, '&'));
        link.pathname = `${link.pathname.replace(/\/?$/, '/')}copy-${index}/`;
        return `${before}${link.href.replace(/&/g, '&amp;')}${after}`;
      })
      .replace(/<title>([^<]*)<\/title>/, (_, title: string) => `<title>${title} (${index})</title>`)
      .replace(/<updated>[^<]*<\/updated>/, `<updated>${day}T12:00:00+00:00</updated>`)
      .replace(/<published>[^<]*<\/published>/, `<published>${day}T12:00:00+00:00</published>`);
    parts.push(entry);
  }
  parts.push('</feed>\n');
  return parts.join('\n');
}
