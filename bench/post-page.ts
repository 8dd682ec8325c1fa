// Hostile blog posts: the time sources/page.ts (Readability on linkedom, within its caps) takes on each
// shape at the 12 MB page cap — 100,000+ links in one paragraph, paragraphs by the hundred thousand, paragraphs
// nested 200 deep — and at the attack's size (100,000 links, 5 MB). Each page runs once, after one warm-up read,
// and after a full collection: the peak is what reading a page holds, not the garbage of the pages made before it.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { readPage } from '../src/sources/page.js';
import { hostilePost } from '../test/support/hostile-papers.js';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

const CAP_BYTES = 12 * 1024 * 1024;

function timed(html: string): number {
  collect();
  const started = performance.now();
  readPage(html, 'https://blog.example.org/post');
  return Math.round(performance.now() - started);
}

export async function benchPostPage(): Promise<Record<string, number | string>> {
  timed(hostilePost('paragraphs', 200_000));
  return {
    '100,000 links in one <p> (5.3 MB) ms': timed(hostilePost('links', 5_300_000)),
    '12 MB post: links in one <p> ms': timed(hostilePost('links', CAP_BYTES)),
    '12 MB post: paragraphs ms': timed(hostilePost('paragraphs', CAP_BYTES)),
    '12 MB post: paragraphs nested 200 deep ms': timed(hostilePost('nesting', CAP_BYTES)),
  };
}
