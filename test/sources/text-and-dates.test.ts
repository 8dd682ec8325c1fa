import { describe, expect, it } from 'vitest';
import { httpUrl } from '../../src/core/urls.js';
import { decodeFeedBytes } from '../../src/sources/_decode.js';
import { parseFeedDate } from '../../src/sources/_feed-dates.js';
import { firstImageSrc, htmlToText } from '../../src/sources/_html-text.js';

describe('htmlToText', () => {
  it('drops tags, scripts, styles and comments, decodes entities, collapses whitespace', () => {
    const html =
      '<p>One&nbsp;&amp; <b>two</b></p>\n<script>alert("x")</script><style>p{}</style><!-- hidden --><div>three &#8212; &eacute;</div>';
    expect(htmlToText(html)).toBe('One & two three — é');
  });

  it('separates block elements and keeps inline ones together', () => {
    expect(htmlToText('<p>a</p><p>b</p><br>c<span>d</span>')).toBe('a b cd');
  });

  it('survives broken markup', () => {
    expect(htmlToText('<p>open <b>bold <a href="x>y">link')).toBe('open bold link');
    expect(htmlToText('a < b and c > d')).toBe('a < b and c > d');
    expect(htmlToText('<script>never closed <p>text')).toBe('');
    expect(htmlToText('<!-- unclosed comment <p>x')).toBe('');
    expect(htmlToText('<body onload="evil()"\n>Hi</body>')).toBe('Hi');
  });

  it('keeps escaped markup as the text it is', () => {
    expect(htmlToText('Use &lt;div&gt; here')).toBe('Use <div> here');
  });
});

describe('firstImageSrc', () => {
  it('resolves relative sources and refuses non-http(s) ones', () => {
    expect(firstImageSrc('<p><img alt="x" src="/a.png?x=1&amp;y=2"></p>', 'https://s.example/post/')).toBe(
      'https://s.example/a.png?x=1&y=2',
    );
    expect(
      firstImageSrc(
        '<img src="javascript:alert(1)"><img src=\'data:image/png;base64,AA\'><img src=ok.jpg>',
        'https://s.example/p/',
      ),
    ).toBe('https://s.example/p/ok.jpg');
    expect(firstImageSrc('<!-- <img src="/hidden.png"> -->', 'https://s.example/')).toBeNull();
  });
});

describe('httpUrl', () => {
  it('keeps only http(s)', () => {
    expect(httpUrl('JavaScript:alert(1)', 'https://a.example/')).toBeNull();
    expect(httpUrl(' /x ', 'https://a.example/b/')).toBe('https://a.example/x');
    expect(httpUrl('mailto:a@b.c')).toBeNull();
    expect(httpUrl('x', null)).toBeNull();
  });
});

describe('parseFeedDate', () => {
  it.each([
    ['Mon, 04 May 2026 10:00:00 GMT', '2026-05-04T10:00:00.000Z'],
    ['Mon, 4 May 2026 10:00:00 +0200', '2026-05-04T08:00:00.000Z'],
    ['Mon, 04 May 2026 10:00:00 EDT', '2026-05-04T14:00:00.000Z'],
    ['03 Apr 02 1500 GMT', '2002-04-03T15:00:00.000Z'],
    ['Seg, 24 Set 2018 19:48:00 -0300', '2018-09-24T22:48:00.000Z'],
    ['Τρι, 29 Ιούν 2004 12:53:00 GMT', '2004-06-29T12:53:00.000Z'],
    ['Fri, 20 Feb 2015 09:51:15 UTC', '2015-02-20T09:51:15.000Z'],
    ['2026-05-04T10:00:00Z', '2026-05-04T10:00:00.000Z'],
    ['2026-05-04T10:00:00', '2026-05-04T10:00:00.000Z'],
    ['2026-05-04T10:00:00.123+05:30', '2026-05-04T04:30:00.123Z'],
    ['2026-05-04', '2026-05-04T00:00:00.000Z'],
    ['2020/1/10 14:33:00', '2020-01-10T14:33:00.000Z'],
  ])('%s', (raw, iso) => {
    expect(parseFeedDate(raw)).toBe(iso);
  });

  it('gives up on nonsense', () => {
    expect(parseFeedDate('')).toBeNull();
    expect(parseFeedDate('soon')).toBeNull();
    expect(parseFeedDate('32 Foo 2020')).toBeNull();
  });
});

describe('decodeFeedBytes', () => {
  it('honours a BOM and UTF-16', () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<rss>é</rss>', 'utf16le')]);
    expect(decodeFeedBytes(utf16)).toMatchObject({ text: '<rss>é</rss>', via: 'bom' });
    expect(decodeFeedBytes(Buffer.from('\uFEFF<rss/>'))).toMatchObject({ text: '<rss/>', encoding: 'utf-8' });
  });

  it('prefers valid UTF-8 bytes over a legacy declaration', () => {
    const bytes = Buffer.from('<?xml version="1.0" encoding="windows-1252"?><t>€</t>');
    expect(decodeFeedBytes(bytes)).toMatchObject({
      text: '<?xml version="1.0" encoding="windows-1252"?><t>€</t>',
      via: 'utf-8',
    });
  });
});

describe('htmlToText sentence ends', () => {
  it('ends list items, headings and cells that have no punctuation, so changelogs split into sentences', () => {
    expect(
      htmlToText(
        '<h2>What changed</h2><ul><li>Fixed a <code>crash</code> on start</li><li>Added <a href="x">a flag</a>.</li><li>Faster: 2x</li></ul><p>Thanks</p>',
      ),
    ).toBe('What changed. Fixed a crash on start. Added a flag. Faster: 2x. Thanks');
  });
  it('leaves punctuated items and running prose alone', () => {
    expect(htmlToText('<ul><li>One, two?</li><li>Three!</li></ul>')).toBe('One, two? Three!');
    expect(htmlToText('<p>We support <b>many</b> feeds</p>')).toBe('We support many feeds');
  });
});
