// Hostile paper pages: the time parsePaperHtml takes on each shape that made the DOM-based parser slow
// (quadratic link context, a backtracking watermark regex, a DOM of 50,000 sections, deep nesting), at the size of
// the attack and at the 12 MB page cap. Each small page is the fastest of three runs; each 12 MB page runs once.
import { MAX_DEPTH, parsePaperHtml } from '../src/enrich/paper-html.js';
import {
  deepNestingPage,
  manyLinksPage,
  manySectionsPage,
  mathPage,
  watermarkPage,
} from '../test/support/hostile-papers.js';

const CAP_BYTES = 12 * 1024 * 1024;

function timed(html: string, runs: number): number {
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    parsePaperHtml(html, { arxivId: '2601.00001', url: 'https://arxiv.org/html/2601.00001v1' });
    best = Math.min(best, performance.now() - started);
  }
  return Math.round(best);
}

/** The shape grown until its page reaches the 12 MB cap. */
function atCap(page: (size: number) => string, sizeOfOne: number): string {
  return page(Math.floor(CAP_BYTES / sizeOfOne));
}

export async function benchPaperHtml(): Promise<Record<string, number | string>> {
  // Warm the JIT on a real-sized page first, as a long-running build would be.
  timed(manySectionsPage(200), 3);
  const figures: Record<string, number | string> = {
    'one <p> with 4,000 links (0.3 MB) ms': timed(manyLinksPage(4_000), 3),
    'watermark of 80,000 "arXiv:" (0.5 MB) ms': timed(watermarkPage(80_000), 3),
    '50,000 sections (5 MB) ms': timed(manySectionsPage(50_000), 1),
  };
  const deep = MAX_DEPTH - 6;
  const pages: [string, string][] = [
    ['12 MB page: links in one <p> ms', atCap(manyLinksPage, 75)],
    ['12 MB page: sections ms', atCap(manySectionsPage, 200)],
    [
      `12 MB page: paragraphs nested ${deep} deep ms`,
      atCap((size) => deepNestingPage(deep, size), deep * 11 + 30),
    ],
    ['12 MB page: inline formulas ms', atCap(mathPage, 370)],
    ['12 MB page: watermark ms', atCap(watermarkPage, 6)],
  ];
  for (const [name, html] of pages) figures[name] = timed(html, 1);
  return figures;
}
