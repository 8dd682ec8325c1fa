// The reference edition made as large as real data gets: hundreds of authors per paper (as HF lists some),
// 100-word summaries and long takeaways, for the size limits (synthetic, derived from the reference text).
import type { Edition } from '../../src/core/types.js';
import { referenceEdition } from '../support/reference-edition.js';

export function largeEdition(): Edition {
  const edition = referenceEdition();
  edition.items = edition.items.map((item, index) => {
    const words = `${item.summary} ${item.takeaways.join(' ')}`.split(' ');
    return {
      ...item,
      title: `${item.title}: ${item.takeaways[0]}`.slice(0, 200),
      authors: Array.from({ length: 250 }, (_, author) => `Author${author} Surname-${index}`),
      summary: words.slice(0, 100).join(' '),
      takeaways: item.takeaways.map((line) => `${line} ${line}`.slice(0, 220)) as [string, string, string],
      citations: 1234,
    };
  });
  return edition;
}
