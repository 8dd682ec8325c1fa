// sources/page.ts on hostile posts: Readability on linkedom is quadratic in the nesting depth and steep in
// the number of elements, so a post too deep or too large is read by the linear tokenizer, scripts are stripped
// first and the DOM holds at most MAX_DOM_CHARS. Each shape at the 12 MB cap is read within a generous deadline (the
// bench holds the 3 s target), in time that grows linearly, and still gives the post's title and text. Every regex
// that runs over page text here and in the tokenizer (_html-text.ts) runs on its worst input the same way.
import { describe, expect, it } from 'vitest';
import { htmlToText } from '../../src/sources/_html-text.js';
import { MAX_READABLE_DEPTH, readPage } from '../../src/sources/page.js';
import { GROWTH_BOUND, growth } from '../support/growth.js';
import { hostilePost } from '../support/hostile-papers.js';

const CAP = 12 * 1024 * 1024;
const read = (html: string) => readPage(html, 'https://blog.example.org/post');

describe('readPage on hostile posts: bounded, linear, and still right', () => {
  it.each(['links', 'paragraphs', 'nesting'] as const)(
    'reads a 12 MB post of %s in bounded time',
    (shape) => {
      const html = hostilePost(shape, CAP);
      const started = performance.now();
      const page = read(html);
      // Generous (the bench holds 3 s): before the caps, 1 MB of links took 3 s and 1,000 nested divs 88 s.
      expect(performance.now() - started).toBeLessThan(20_000);
      expect(page.title).toBe('A hostile post');
      expect(page.text).toContain(
        { links: 'see link 0, see link 1', paragraphs: 'Paragraph 0 has', nesting: 'Deep paragraph 0.' }[
          shape
        ],
      );
    },
    60_000,
  );

  it('past what Readability is given, still reads the head and the text after a script, and never the script', () => {
    const filler = '<p>Filler words of a long post.</p>'.repeat(20_000);
    const html = `<html><head><title>Long</title><meta property="og:description" content="The summary."></head><body>${filler}<script>var secret = "script text";</script><p>After the script.</p>${filler}</body></html>`;
    const page = read(html);
    expect(page.title).toBe('Long');
    expect(page.description).toBe('The summary.');
    expect(page.text).toContain('Filler words of a long post.');
    expect(page.text).toContain('After the script.');
    expect(page.text).not.toContain('script text');
  });

  it('reads posts deeper than Readability can bear by the tokenizer, in linear time', () => {
    const deep = `<html><head><title>Deep</title></head><body>${'<div>'.repeat(1_000)}<p>The text.</p></body></html>`;
    expect(read(deep).text).toBe('The text.');
    const nested = (size: number) => hostilePost('nesting', size);
    expect(growth(read, nested, 100_000)).toBeLessThan(GROWTH_BOUND);
    expect(MAX_READABLE_DEPTH).toBeLessThan(200);
  });

  it('reads any depth of nesting in linear time: 1 MB of nested inline tags, 100,000 nested blocks', () => {
    const inline = (size: number) =>
      `<html><head><title>Bold</title></head><body><p>Start.</p>${'<b>x'.repeat(size / 4)}${'</b>'.repeat(size / 4)}</body></html>`;
    const blocks = (count: number) =>
      `<html><head><title>Blocks</title></head><body><p>Start.</p>${'<div>'.repeat(count)}Deep.${'</div>'.repeat(count)}</body></html>`;
    const timed = (html: string) => {
      const started = performance.now();
      const page = read(html);
      return { page, ms: performance.now() - started };
    };
    // Growth first: the timed megabyte reads below leave the collector busy for a while.
    expect(growth(read, inline, 100_000)).toBeLessThan(GROWTH_BOUND);
    expect(growth(read, (size) => blocks(size / 5), 100_000)).toBeLessThan(GROWTH_BOUND);
    const bold = timed(inline(1_000_000));
    expect(bold.page.title).toBe('Bold');
    expect(bold.page.text).toMatch(/^Start\. x+$/);
    // The targets are 1 s and 2 s; twice that here, for a machine shared with other work (the bench holds them).
    expect(bold.ms).toBeLessThan(2_000);
    const deep = timed(blocks(100_000));
    expect(deep.page.title).toBe('Blocks');
    expect(deep.page.text).toBe('Start. Deep.');
    expect(deep.ms).toBeLessThan(4_000);
  }, 60_000);

  it('grows linearly with links and paragraphs', () => {
    expect(growth(read, (size) => hostilePost('links', size), 100_000)).toBeLessThan(GROWTH_BOUND);
    expect(growth(read, (size) => hostilePost('paragraphs', size), 100_000)).toBeLessThan(GROWTH_BOUND);
  });

  // Each regex over page text on the input that made it (or would make it) backtrack: a tag or quote never closed,
  // repeated; comments, declarations and block ends by the thousand. Each input is 1–3 MB, past the DOM cap.
  const worst: Record<string, (count: number) => string> = {
    'hidden block never closed (<iframe )': (count) => '<iframe '.repeat(count),
    'script with a quote never closed': (count) => '<script "'.repeat(count),
    'tag with a quote never closed': (count) => `<a "x${'<a '.repeat(count)}`,
    'comments never closed': (count) => '<!--'.repeat(count),
    'declarations never closed': (count) => '<!<?'.repeat(count),
    'block ends after inline closers': (count) => `${'</a>'.repeat(60)}x</li>`.repeat(count / 50),
  };
  it.each(Object.keys(worst))(
    'strips %s in linear time',
    (name) => {
      const make = (count: number) =>
        `<html><head><title>T</title></head><body>${worst[name]!(count)}</body></html>`;
      // Deadlines far above linear (tens of ms a MB) and far below quadratic: before, 64 KB of `<iframe ` took 4 s.
      const text = performance.now();
      htmlToText(make(400_000));
      expect(performance.now() - text).toBeLessThan(5_000);
      const page = performance.now();
      read(make(400_000));
      expect(performance.now() - page).toBeLessThan(20_000);
    },
    60_000,
  );

  it('keeps what the tokenizer did on ordinary markup', () => {
    expect(htmlToText('<p>One <a href="x">link</a></p><script>var a = "<p>";</script><li>Item</li>')).toBe(
      'One link Item.',
    );
    expect(htmlToText('<iframe src="x">hidden</iframe>shown')).toBe('shown');
  });
});
