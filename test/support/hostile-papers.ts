// Paper pages shaped to make a parser slow: built here, not recorded, so each can be grown to any size.
// Every one is otherwise a valid LaTeXML page (a title, an abstract, a numbered section), so a parser that reads
// them in time also has to read them right.

function paper(body: string, head = ''): string {
  return (
    `<!DOCTYPE html><html><head><title>Hostile</title></head><body>${head}` +
    '<article class="ltx_document"><h1 class="ltx_title ltx_title_document">A Hostile Paper</h1>' +
    '<div class="ltx_abstract"><h6 class="ltx_title">Abstract</h6><p class="ltx_p">We study parsers.</p></div>' +
    `${body}</article></body></html>`
  );
}

function section(id: string, number: string, title: string, inner: string): string {
  return (
    `<section class="ltx_section" id="${id}"><h2 class="ltx_title ltx_title_section">` +
    `<span class="ltx_tag ltx_tag_section">${number} </span>${title}</h2>${inner}</section>`
  );
}

/** One paragraph holding `count` links (a survey's link table, or an attack: 4,000 is a 170 KB page). */
export function manyLinksPage(count: number): string {
  const links = Array.from(
    { length: count },
    (_, index) => `see <a class="ltx_ref" href="https://example.org/repo/${index}">repo ${index}</a>`,
  );
  return paper(
    section('S1', '1', 'Links', `<div class="ltx_para"><p class="ltx_p">${links.join(', ')}.</p></div>`),
  );
}

/** A `#watermark-tr` holding "arXiv:" `count` times and no version (80,000 is 0.48 MB). */
export function watermarkPage(count: number, tail = ''): string {
  return paper(
    section('S1', '1', 'Introduction', '<p class="ltx_p">Text.</p>'),
    `<div id="watermark-tr">${'arXiv:'.repeat(count)}${tail}</div>`,
  );
}

/** `count` numbered sections of a few words each (50,000 is 5 MB). */
export function manySectionsPage(count: number): string {
  const sections = Array.from({ length: count }, (_, index) =>
    section(
      `S${index + 1}`,
      String(index + 1),
      `Part ${index + 1}`,
      '<p class="ltx_p">A short paragraph of text.</p>',
    ),
  );
  return paper(sections.join(''));
}

/** `repeats` paragraphs each nested `depth` divs deep. */
export function deepNestingPage(depth: number, repeats: number): string {
  const one = `${'<div>'.repeat(depth)}<p class="ltx_p">deep</p>${'</div>'.repeat(depth)}`;
  return paper(section('S1', '1', 'Deep', one.repeat(repeats)));
}

/** `count` inline formulas whose TeX is as hard for the maths rewrites as a formula kept whole can be. */
export function mathPage(count: number): string {
  const tex = `\\text ${'{'.repeat(40)}${'\\text  '.repeat(40)}`;
  const formula = `<math alttext="${tex}"><mi>x</mi></math>`;
  return paper(section('S1', '1', 'Maths', `<p class="ltx_p">${`${formula} and `.repeat(count)}</p>`));
}

/**
 * A blog post (for sources/page.ts: Readability on linkedom) grown to about `bytes` of one hostile shape: `links`
 * in one paragraph, `paragraphs` of a few words, or `nesting` (paragraphs each 200 divs deep).
 */
export function hostilePost(shape: 'links' | 'paragraphs' | 'nesting', bytes: number): string {
  const one = {
    links: (index: number) => `see <a href="https://example.org/${index}">link ${index}</a>, `,
    paragraphs: (index: number) => `<p>Paragraph ${index} has a few words of text, a comma, and more.</p>`,
    nesting: (index: number) =>
      `${'<div>'.repeat(200)}<p>Deep paragraph ${index}.</p>${'</div>'.repeat(200)}`,
  }[shape];
  const parts: string[] = [];
  let size = 0;
  for (let index = 0; size < bytes; index += 1) {
    const part = one(index);
    parts.push(part);
    size += part.length;
  }
  const body = shape === 'links' ? `<p>${parts.join('')}</p>` : parts.join('');
  return (
    '<!DOCTYPE html><html><head><title>A post</title><meta property="og:title" content="A hostile post">' +
    `</head><body><article><h1>A hostile post</h1>${body}</article></body></html>`
  );
}
