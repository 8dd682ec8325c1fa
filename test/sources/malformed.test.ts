// Every file of the malformed corpus, served as a feed source: parsed, or a clear error; never a throw.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SourceFetchResult, silentLogger } from '../../src/core/ports.js';
import { parseFeedBytes } from '../../src/sources/_feed-parse.js';
import { htmlToText } from '../../src/sources/_html-text.js';
import { createSource } from '../../src/sources/index.js';
import { fixturePath, readFixture } from '../support/fixtures.js';
import type { LoopbackServer } from '../support/loopback.js';
import { startFixtureFolderServer } from './_servers.js';
import { TAG, testHttp } from './contract.js';

const ROOT = fixturePath('real', 'malformed');
const WIDE = { start: '1970-01-01', end: '2100-12-31' };

/** A feed whose every entry is unusable is a failed source, not "✓ 0 items". */
const REJECTED = /^every entry of the feed was rejected \(\d+ (?:entry|entries): /;

/** Expected outcome per file: an item count, or an error pattern. */
const EXPECTED: Record<string, number | RegExp> = {
  'fastfeedparser/malformed_rss_namespaced.xml': 2,
  'feedparser/illformed_aaa_illformed.xml':
    /^not a feed \(XML that is not RSS, Atom or RDF, or is broken: .*Closing Tag is not closed/,
  'feedparser/illformed_always_strip_doctype.xml': 0,
  'feedparser/illformed_chardet_big5.xml': 0,
  'feedparser/illformed_chardet_eucjp.xml': REJECTED,
  'feedparser/illformed_chardet_koi8r.xml': REJECTED,
  'feedparser/illformed_chardet_shiftjis.xml': REJECTED,
  'feedparser/illformed_chardet_windows1255.xml': REJECTED,
  'feedparser/illformed_geo_gml_point.xml': REJECTED,
  'feedparser/illformed_http_high_bit_date.xml': 0,
  'feedparser/illformed_rdf_channel_empty_textinput.xml': REJECTED,
  'feedparser/illformed_rss_empty_document.xml': /^not a feed \(the document is empty\); check the URL$/,
  'feedparser/illformed_rss_incomplete_cdata.xml': REJECTED,
  'feedparser/illformed_undeclared_namespace.xml': 0,
  'feedparser/wellformed_amp_amp01.xml': REJECTED,
  'feedparser/wellformed_amp_amp05.xml': REJECTED,
  'feedparser/wellformed_atom10_entry_link_no_href.xml': REJECTED,
  'feedparser/wellformed_atom10_entry_title_type_empty-no-crash.xml': REJECTED,
  'feedparser/wellformed_atom10_missing_quote_in_attr.xml': 0,
  'feedparser/wellformed_atom10_relative_uri_inherit.xml': 0,
  'feedparser/wellformed_base_rel_uri_with_unicode_character.xml': REJECTED,
  'feedparser/wellformed_base_relative_xml_base.xml': REJECTED,
  'feedparser/wellformed_rss_entity_in_doctype.xml': REJECTED,
  'feedparser/wellformed_rss_item_xhtml_body.xml': REJECTED,
  'feedparser/wellformed_sanitize_entry_content_onclick.xml': REJECTED,
  'feedparser/wellformed_sanitize_entry_content_script.xml': REJECTED,
  'feedparser/wellformed_sanitize_entry_title_crazy.xml': REJECTED,
  'feedparser/wellformed_sgml_charref_uppercase_x.xml': REJECTED,
  'feedparser/wellformed_xml_empty_xmlns_uri.xml': 0,
  'miniflux/encoding_invalid-prolog.xml': REJECTED,
  'miniflux/encoding_iso-8859-1.xml': 0,
  'miniflux/encoding_windows-1252-incorrect-prolog.xml': 0,
  'miniflux/parser_encoding_WINDOWS-1251.xml': 50,
  'miniflux/parser_large_atom.xml': 25,
  'netnewswire/bio.rdf': 30,
  'netnewswire/donthitsave.xml': 10,
  'netnewswire/kc0011.rss': 20,
  'netnewswire/livemint.xml': 25,
  'netnewswire/phpxml.rss': 20,
  'netnewswire/qemu.atom': 10,
  'real-truncated/rss.arxiv.org_atom_cs.AI_2025-08-20_truncated_capture.xml': 87,
  'rss-parser/craigslist.rss': 25,
  'rss-parser/customfields.rss': 15,
  'rss-parser/encoding.rss': 40,
  'rss-parser/feedburner.atom': 25,
  'rss-parser/heraldsun.rss': REJECTED,
  'rss-parser/incomplete-fields.atom': 0,
  'rss-parser/narro.rss': 1,
  'rss-parser/unrecognized.rss':
    /^not a feed \(got an HTML page "Document Moved", not RSS\/Atom\/JSON Feed\); check the URL$/,
  'rss-parser/uolNoticias.rss': 15,
};

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [relative(ROOT, path)];
  });
}

const FILES = walk(ROOT).sort();
const results = new Map<string, SourceFetchResult>();
let server: LoopbackServer;

beforeAll(async () => {
  server = await startFixtureFolderServer('malformed', 'application/xml');
  for (const file of FILES) {
    const source = createSource({
      id: 'rss-x',
      type: 'feed',
      url: server.url(`/${file}`),
      weight: 1,
      enabled: true,
    });
    results.set(file, await source.fetch({ window: WIDE, http: testHttp(), state: {}, log: silentLogger }));
  }
  if (process.env.DIGEST_PRINT_MALFORMED) {
    for (const [file, result] of results) {
      process.stdout.write(
        `${file}: ${result.error ? `error: ${result.error}` : `parsed ${result.items.length} items`}${result.warnings.length ? ` (${result.warnings.join('; ')})` : ''}\n`,
      );
    }
  }
});
afterAll(() => server.close());

const entry = (file: string, index = 0) =>
  parseFeedBytes(readFixture('real', 'malformed', file)).feed.entries[index]!;
const feedTitle = (file: string) => parseFeedBytes(readFixture('real', 'malformed', file)).feed.title;

describe('malformed corpus as feed sources', () => {
  it('has an expectation for every file of the corpus', () => {
    expect(FILES).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.entries(EXPECTED))('%s', (file, expected) => {
    const result = results.get(file)!;
    if (typeof expected === 'number') {
      expect(result.error).toBeUndefined();
      expect(result.items).toHaveLength(expected);
    } else {
      expect(result.error).toMatch(expected);
      expect(result.items).toEqual([]);
    }
    for (const item of result.items) {
      expect(item.url).toMatch(/^https?:\/\//);
      expect(item.title).not.toBe('');
      expect(item.title).not.toContain('\uFFFD');
      // dustri.org's post shows HTML source as text (&lt;iframe…): faithful text, escaped when rendered
      if (file !== 'miniflux/parser_large_atom.xml') expect(item.text).not.toMatch(TAG);
    }
  });
});

describe('malformed corpus: what the items say', () => {
  it('sniffs legacy encodings without a declaration', () => {
    expect(feedTitle('feedparser/illformed_chardet_big5.xml')).toMatch(/^我希望/);
    expect(htmlToText(entry('feedparser/illformed_chardet_koi8r.xml').title)).toBe(
      'Как пережить новогоднюю ночь',
    );
    expect(htmlToText(entry('feedparser/illformed_chardet_eucjp.xml').title)).toBe('ゲーム三昧な正月');
    expect(htmlToText(entry('feedparser/illformed_chardet_shiftjis.xml').title)).toBe(
      'DrecomRSSに記事投稿が反映されない…',
    );
    expect(htmlToText(entry('feedparser/illformed_chardet_windows1255.xml').html)).toMatch(/^האם תדפיס נייר/);
  });

  it('trusts the bytes over a wrong or unknown prolog, and the prolog over nothing', () => {
    expect(feedTitle('miniflux/encoding_windows-1252-incorrect-prolog.xml')).toBe('Euro €');
    expect(feedTitle('miniflux/encoding_invalid-prolog.xml')).toBe('테스트 피드');
    expect(feedTitle('miniflux/encoding_iso-8859-1.xml')).toBe('Café');
    expect(results.get('miniflux/parser_encoding_WINDOWS-1251.xml')!.items[0]?.title).toBe('Цитата #17703');
    expect(results.get('rss-parser/encoding.rss')!.items[0]?.title).toBe(
      'Mãe de utente é a nova presidente da Raríssimas',
    );
    expect(results.get('netnewswire/kc0011.rss')!.items[0]?.title).toBe('建国35周年纪念，华表，和平鸽');
    expect(results.get('netnewswire/donthitsave.xml')!.items[0]?.title).toBe('Skipping Around');
  });

  it('reads odd dates: Portuguese names, "UTC", +0530, "2020/1/10 14:33:00"', () => {
    expect(results.get('rss-parser/uolNoticias.rss')!.items[0]?.publishedAt).toMatch(/^2018-09-2[45]T/);
    expect(results.get('rss-parser/narro.rss')!.items[0]?.publishedAt).toBe('2015-02-20T09:51:15.000Z');
    expect(
      results.get('netnewswire/kc0011.rss')!.items.every((item) => item.publishedAt.startsWith('2020-01-')),
    ).toBe(true);
    expect(
      results.get('rss-parser/customfields.rss')!.items.every((item) => item.title === item.title.trim()),
    ).toBe(true);
    expect(results.get('rss-parser/heraldsun.rss')!.error).toMatch(
      /rejected \(2 entries: no readable date\)/,
    );
  });

  it('resolves relative links against the feed URL', () => {
    const urls = results.get('netnewswire/qemu.atom')!.items.map((item) => item.url);
    expect(urls).toContain(server.url('/2025/08/26/qemu-10-1-0/'));
    expect(urls.every((url) => url.startsWith(server.origin))).toBe(true);
  });

  it('salvages what a broken document still holds', () => {
    const namespaced = results.get('fastfeedparser/malformed_rss_namespaced.xml')!;
    expect(namespaced.items.map((item) => item.title)).toEqual(['Test Entry 1', 'Test Entry 2']);
    expect(namespaced.warnings[0]).toMatch(/not a well-formed feed .* tolerant reader/);
    const truncated = results.get(
      'real-truncated/rss.arxiv.org_atom_cs.AI_2025-08-20_truncated_capture.xml',
    )!;
    expect(truncated.items.every((item) => item.arxivId !== null)).toBe(true);
  });

  it('never lets scripts or event handlers into text', () => {
    expect(htmlToText(entry('feedparser/wellformed_sanitize_entry_content_script.xml').html)).toBe(
      'safe description',
    );
    const crazy = htmlToText(entry('feedparser/wellformed_sanitize_entry_title_crazy.xml').title);
    expect(crazy).not.toMatch(/executeMe|alert\(|<script|onmouseover/);
    expect(htmlToText(entry('feedparser/wellformed_sanitize_entry_content_onclick.xml').html)).toBe('');
    expect(htmlToText(entry('feedparser/wellformed_amp_amp01.xml').title)).toBe('&');
  });
});
