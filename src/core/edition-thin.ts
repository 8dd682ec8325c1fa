// "Needs a look", the other kind: an edition with far fewer items than asked for (sources failed, the store is
// nearly empty). `build` exits 3 on one, and `publish` and `send` refuse one unless told (--allow-thin), so a
// scheduled `build && publish && send` never mails a near-empty edition nobody looked at.
import type { Edition } from './types.js';

/** The fewest items an edition may have without a look: selection.minItems, else half of the items asked for. */
export function minItemsFor(configured: number | undefined, itemsPerEdition: number): number {
  return configured ?? Math.max(1, Math.floor(itemsPerEdition / 2));
}

/** Why an edition is thin ("1 item; at least 6 expected (selection.minItems)"), or null when it is not. */
export function thinReason(edition: Pick<Edition, 'items'>, minItems: number): string | null {
  const items = edition.items.length;
  if (items >= minItems) return null;
  return (
    `${items} item${items === 1 ? '' : 's'}; at least ${minItems} expected (selection.minItems): ` +
    'did sources fail, or is the store nearly empty?'
  );
}

/** An edition refused because it is thin; the CLI exits 3 ("needs a look"). */
export class ThinEditionError extends Error {
  override name = 'ThinEditionError';
  constructor(
    readonly week: string,
    readonly action: 'publish' | 'send',
    readonly reason: string,
  ) {
    super(
      `Edition ${week} was not ${action === 'publish' ? 'published' : 'sent'}: it is thin — ${reason}\n` +
        `Look at the build's source report, rebuild, or pass --allow-thin to ${action} it as it is.`,
    );
  }
}

/** Throws ThinEditionError unless the edition has enough items or `allowThin`. */
export function refuseThin(
  edition: Edition,
  action: 'publish' | 'send',
  limits: { minItems: number; allowThin: boolean },
): void {
  if (limits.allowThin) return;
  const reason = thinReason(edition, limits.minItems);
  if (reason) throw new ThinEditionError(edition.date, action, reason);
}
