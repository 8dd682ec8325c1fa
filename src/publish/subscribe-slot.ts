// `digest serve` puts the subscribe form into the slot a published page leaves for it (config server.subscribeForm
// unset): served pages carry the form once subscribing works, a static copy of the same files shows none.
import { decodeHTMLAttribute } from 'entities';
import { SUBSCRIBE_SLOT, type SubscribeFormOptions, subscribeForm } from './_layout.js';

/**
 * The page with its subscribe slot (if any) replaced by the form; the root was escaped when the slot was written.
 * With several configured languages the form offers the reader a choice of them; it says how clicks are counted.
 */
export function fillSubscribeSlot(
  page: string,
  siteName: string,
  options: SubscribeFormOptions = {},
): string {
  return page.replace(SUBSCRIBE_SLOT, (_slot, root: string) =>
    subscribeForm(siteName, decodeHTMLAttribute(root), options).toString(),
  );
}
