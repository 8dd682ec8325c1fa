// Stable item anchors: the site page, feeds, email and API agree on them.

/** A stable, readable anchor for an item; `taken` keeps anchors unique within one page. */
export function itemAnchor(title: string, index: number, taken: Set<string>): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/g, '');
  let anchor = slug ? `item-${slug}` : `item-${index + 1}`;
  for (let suffix = 2; taken.has(anchor); suffix++)
    anchor = `${slug ? `item-${slug}` : `item-${index + 1}`}-${suffix}`;
  taken.add(anchor);
  return anchor;
}

/**
 * Anchors for every item of an edition, in order; the page, feeds and email agree on them. An item's kept anchor
 * (set when a correction changed its title) wins over its title's, so links shared before the correction still land.
 */
export function itemAnchors(items: readonly { title: string; anchor?: string | undefined }[]): string[] {
  const taken = new Set(items.flatMap((item) => (item.anchor ? [item.anchor] : [])));
  return items.map((item, index) => item.anchor ?? itemAnchor(item.title, index, taken));
}
