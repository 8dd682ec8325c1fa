// Archives of editions for the site tests, derived from the reference edition (synthetic dates and titles).
import { addDays } from '../../src/core/dates.js';
import type { Edition } from '../../src/core/types.js';
import { referenceEdition } from './reference-edition.js';

/** `count` weekly editions ending with the reference one (2026-05-04), oldest first, each published on its Monday. */
export function weeklyEditions(count: number): Edition[] {
  const editions: Edition[] = [];
  for (let week = count - 1; week >= 0; week--) {
    const edition = referenceEdition();
    const date = addDays(edition.date, -7 * week);
    edition.date = date;
    edition.publishedAt = `${date}T09:00:00.000Z`;
    if (week > 0) {
      edition.title = `${edition.title} (week of ${date})`;
      edition.items = edition.items.map((item, index) => ({
        ...item,
        title: index === 0 ? `${item.title} ${date}` : item.title,
      }));
    }
    editions.push(edition);
  }
  return editions;
}
