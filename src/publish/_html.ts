// Helpers the site's pages, feeds and email share: counts and author lines. (Safe URLs are in core/urls.ts,
// item anchors in core/anchors.ts: other layers use them too.)
// (Escaping is not here: the templates in template.ts do it for every interpolation.)

export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/** Author lists beyond this are cut ("and N more"): some papers list hundreds, and the page must stay small. */
export const MAX_AUTHORS = 50;

export function authorLine(authors: string[], max = MAX_AUTHORS): string {
  if (authors.length <= max) return authors.join(', ');
  return `${authors.slice(0, max).join(', ')} and ${authors.length - max} more`;
}
