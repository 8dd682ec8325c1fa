// Where a takeaway comes from. The writer names a quote and the section it is in; here the quote is looked up in
// the text the writer was given (the paper's parts, or the abstract / post text): a quote found in the named part
// keeps it, one found in another part is moved there, and one found nowhere traces to nothing (never a guessed link).
import type { TakeawaySource } from '../core/types.js';
import type { PaperPart } from './paper-input.js';
import { quoteFound } from './sentences.js';
import type { ItemForWriting } from './types.js';

export interface SupportClaim {
  quote: string;
  section: string;
}

/** The parts of the item the writers read: the paper's chosen sections, or its one text (abstract or post). */
export function sourceParts(item: Pick<ItemForWriting, 'paper' | 'text' | 'arxivId'>): PaperPart[] {
  if (item.paper?.parts.length) return item.paper.parts;
  return item.arxivId
    ? [{ id: 'abstract', label: 'Abstract', title: 'Abstract', role: 'abstract', text: item.text }]
    : [{ id: 'text', label: 'Text', title: 'Text', role: 'section', text: item.text }];
}

/** The link to a part on the paper's page (the abstract: the page itself); null without a page. */
export function partUrl(pageUrl: string | null | undefined, id: string): string | null {
  if (!pageUrl) return null;
  return id === 'abstract' || id === 'text' ? pageUrl : `${pageUrl}#${encodeURIComponent(id)}`;
}

export function traceSupport(
  claims: readonly (SupportClaim | null | undefined)[],
  item: Pick<ItemForWriting, 'paper' | 'text' | 'arxivId'>,
  count: number,
): (TakeawaySource | null)[] {
  const parts = sourceParts(item);
  return Array.from({ length: count }, (_, index) => {
    const claim = claims[index];
    const quote = claim?.quote.trim() ?? '';
    if (!claim || !quote) return null;
    const named = parts.find((part) => part.id === claim.section.trim());
    const part =
      named && quoteFound(quote, named.text) ? named : parts.find((other) => quoteFound(quote, other.text));
    if (!part) return null;
    return { quote, section: part.id, label: part.label, url: partUrl(item.paper?.url, part.id) };
  });
}
