// What enrichment changes on an item. The rule is "fill the gaps": what a source gave is kept, what it left
// empty or too thin is filled from the paper's metadata, so a re-run never churns good data.
import type { StoredItem } from '../core/types.js';
import type { ArxivEntry } from '../sources/arxiv-api.js';
import type { PageDetails } from './page-details.js';

export type ItemPatch = Partial<Pick<StoredItem, 'citations' | 'authors' | 'text' | 'image' | 'title'>>;

/** Below this many characters an item's text is replaced by the paper's abstract (when that is longer). */
export const THIN_TEXT_CHARS = 200;

export function patchFromArxiv(item: StoredItem, entry: ArxivEntry): ItemPatch {
  const patch: ItemPatch = {};
  if (item.authors.length === 0 && entry.authors.length > 0) patch.authors = entry.authors;
  const text = item.text.trim();
  if (text.length < THIN_TEXT_CHARS && entry.abstract.length > text.length) patch.text = entry.abstract;
  if (!item.title.trim() && entry.title) patch.title = entry.title;
  return patch;
}

export function hfThumbnailUrl(arxivId: string): string {
  return `https://cdn-thumbnails.huggingface.co/social-thumbnails/papers/${encodeURIComponent(arxivId)}.png`;
}

/** HF renders a social thumbnail for every paper on its daily lists (those carry upvotes); others get none. */
function listedOnHf(item: StoredItem): boolean {
  if (item.upvotes !== null) return true;
  return [item.url, ...item.sources.map((ref) => ref.url)].some((url) =>
    /^https?:\/\/(?:www\.)?huggingface\.co\/papers\//i.test(url),
  );
}

export function patchThumbnail(item: StoredItem): ItemPatch {
  if (item.image || !item.arxivId || !listedOnHf(item)) return {};
  return { image: hfThumbnailUrl(item.arxivId) };
}

/** A post's page gives the card image when the feed had none, and its readable text when that is longer. */
export function patchFromPage(item: StoredItem, page: PageDetails): ItemPatch {
  const patch: ItemPatch = {};
  if (!item.image && page.image) patch.image = page.image;
  if (page.text.length > item.text.trim().length) patch.text = page.text;
  return patch;
}
