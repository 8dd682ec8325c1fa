// edition.md: the edition as Markdown to paste into Substack, Buttondown or GitHub.
// Every interpolation goes through the md`…` template, which backslash-escapes source text.
import type { Edition } from '../core/types.js';
import { absoluteUrl, safeUrl } from '../core/urls.js';
import type { ImageMap } from './item-images.js';
import { type ItemView, toEditionView } from './item-view.js';
import { type Fragment, join, markdownUrl, md } from './template.js';

export interface MarkdownOptions {
  /** Absolute URL of the edition page: "Read this edition on the web". */
  pageUrl?: string | null;
  /** The site's absolute URL: images are shown from their published copies under it, else none. */
  siteUrl?: string | null;
  images?: ImageMap;
}

/** URLs go inside <…>: the WHATWG form has no spaces, "<" or ">" left, and only http(s) gets through. */
function link(text: string, url: string | null): Fragment {
  return url ? md`[${text}](${markdownUrl(url)})` : md`${text}`;
}

export function renderEditionMarkdown(edition: Edition, options: MarkdownOptions = {}): string {
  const view = toEditionView(edition, {
    imageRoot: absoluteUrl(options.siteUrl ?? undefined, ''),
    ...(options.images ? { images: options.images } : {}),
  });
  const pageUrl = safeUrl(options.pageUrl);
  const blocks = [
    md`# ${view.title}`,
    md`*${view.name} · ${view.longDate} · ${view.count}*`,
    md`${view.intro}`,
    ...view.items.map(renderItem),
    ...(pageUrl ? [md`[Read this edition on the web](${markdownUrl(pageUrl)})`] : []),
  ];
  return `${join(blocks, '\n\n', 'markdown').toString().trimEnd()}\n`;
}

function renderItem(item: ItemView): Fragment {
  const footer = [
    item.citations ? md`${item.citations}` : null,
    md`via ${item.source}`,
    item.arxiv ? link(`arXiv:${item.arxiv.id}`, item.arxiv.url) : null,
  ].filter((part): part is Fragment => part !== null);
  return md`## ${link(item.title, item.url)}

${item.image ? md`![${item.image.alt}](${markdownUrl(item.image.src)})\n\n` : null}**${item.level}**${item.authorLine ? md` · ${item.authorLine}` : null}

${item.summary}

**Takeaways**

${join(
  item.takeaways.map((line) => md`- ${line}`),
  '\n',
  'markdown',
)}

*${join(footer, ' · ', 'markdown')}*`;
}
