// A synthetic edition whose every source-controlled field carries an XSS vector (built here, not a recorded payload).
// A script that runs sets window.__pwned; a dialog fires alert(); the browser tests assert neither happens.
import type { Edition, EditionItem } from '../../src/core/types.js';
import { referenceEdition } from '../support/reference-edition.js';

const RUN = 'window.__pwned=1;alert(1)';

export const XSS_VECTORS = [
  `<script>${RUN}</script>`,
  `<img src=x onerror="${RUN}">`,
  `"><svg onload="${RUN}"><"`,
  `'><iframe srcdoc="<script>parent.${RUN}</script>"></iframe>`,
  `<svg><script>${RUN}</script></svg>`,
  `<a href="javascript:${RUN}">click</a>`,
  `</title></style></textarea><script>${RUN}</script>`,
  `<math><mtext><table><mglyph><style><img src=x onerror="${RUN}">`,
  '<!--',
  `<style>body{background:url("javascript:${RUN}")}</style>`,
  `<<script>${RUN}//<</script>`,
  `]]><script>${RUN}</script><![CDATA[`,
];

const URLS = [
  `javascript:${RUN}`,
  ` JaVaScRiPt:${RUN}`,
  `data:text/html;base64,${Buffer.from(`<script>${RUN}</script>`).toString('base64')}`,
  `data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg" onload="${RUN}"/>`,
  `vbscript:msgbox(1)`,
  `https://example.com/"><script>${RUN}</script>`,
  `java\nscript:${RUN}`,
  `//evil.example/x`,
];

/** Text that hides or reorders what a reader sees: NUL, BEL, an ANSI colour escape, a right-to-left override. */
export const CONTROL_TEXT = 'nul\u0000 bell\u0007 ansi\u001b[31mred\u001b[0m rlo\u202egnp.exe\u202c end';

/** Markdown that would become a link, an image, an autolink, a reference definition and raw HTML if not escaped. */
export const MARKDOWN_INJECTION =
  '[click me](javascript:alert(1)) ![pixel](https://evil.example/track.png) <https://evil.example/auto> ' +
  '[ref]: https://evil.example/ref <b>bold</b> *em* `code` # heading';

export function xssEdition(): Edition {
  const base = referenceEdition();
  const items: EditionItem[] = base.items.slice(0, URLS.length).map((item, index) => {
    const vector = XSS_VECTORS[index % XSS_VECTORS.length]!;
    const next = XSS_VECTORS[(index + 1) % XSS_VECTORS.length]!;
    return {
      ...item,
      title: `Item ${index + 1} ${vector}`,
      url: URLS[index]!,
      image: URLS[(index + 3) % URLS.length]!,
      authors: [vector, `Ada ${next}`],
      summary: `Summary ${index + 1} ${next} ${vector}`,
      takeaways: [`One ${vector}`, `Two ${next}`, `Three <b onmouseover="${RUN}">x</b>`],
      source: `src-${index} ${vector}`,
      arxivId: index % 2 ? `2604.0000${index}"><script>${RUN}</script>` : null,
      citations: index,
    };
  });
  items[0]!.summary = `${items[0]!.summary} ${MARKDOWN_INJECTION}`;
  items[1]!.summary = `${items[1]!.summary} ${CONTROL_TEXT}`;
  items[2]!.takeaways[0] = `${MARKDOWN_INJECTION}\n# injected heading\n- injected list`;
  return {
    ...base,
    name: `Digest ${XSS_VECTORS[0]}`,
    title: `Edition ${XSS_VECTORS[1]}`,
    intro: `Intro ${XSS_VECTORS[2]} ${XSS_VECTORS[6]} ${XSS_VECTORS[11]} ${CONTROL_TEXT}`,
    items,
  };
}

/**
 * What makes parsed markup live: script-ish elements, event-handler attributes, and links or images whose scheme is
 * not http(s). Runs on linkedom documents and, as a string, inside Chromium (see browser tests).
 */
export function liveMarkup(root: ParentNode): string[] {
  const problems: string[] = [];
  for (const element of Array.from(root.querySelectorAll('*'))) {
    const tag = element.tagName.toLowerCase();
    if (['script', 'iframe', 'object', 'embed', 'frame', 'svg', 'math', 'base'].includes(tag)) {
      if (!(tag === 'script' && element.getAttribute('src')?.endsWith('search.js')))
        problems.push(`<${tag}>`);
    }
    for (const attribute of Array.from(element.attributes)) {
      const name = attribute.name.toLowerCase();
      if (name.startsWith('on')) problems.push(`${tag}[${name}]`);
      if (['href', 'src', 'action', 'formaction', 'xlink:href', 'srcdoc'].includes(name)) {
        const value = attribute.value.trim();
        const relative = !/^[a-z][a-z0-9+.-]*:/i.test(value) && !value.startsWith('//');
        const allowed =
          /^https?:\/\//i.test(value) || relative || (/^data:image\/svg\+xml,/.test(value) && tag === 'link');
        if (!allowed || name === 'srcdoc') problems.push(`${tag}[${name}=${value.slice(0, 40)}]`);
      }
    }
  }
  return problems;
}
