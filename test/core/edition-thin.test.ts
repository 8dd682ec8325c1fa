import { describe, expect, it } from 'vitest';
import { minItemsFor, refuseThin, ThinEditionError, thinReason } from '../../src/core/edition-thin.js';
import { referenceEdition } from '../support/reference-edition.js';

describe('thin editions', () => {
  it('takes selection.minItems, else half of itemsPerEdition (at least 1)', () => {
    expect(minItemsFor(undefined, 12)).toBe(6);
    expect(minItemsFor(undefined, 3)).toBe(1);
    expect(minItemsFor(undefined, 1)).toBe(1);
    expect(minItemsFor(4, 12)).toBe(4);
    expect(minItemsFor(0, 12)).toBe(0);
  });

  it('says why an edition is thin, and refuses it unless allowed', () => {
    const edition = referenceEdition();
    edition.items = edition.items.slice(0, 1);
    expect(thinReason(edition, 6)).toMatch(/^1 item; at least 6 expected \(selection\.minItems\)/);
    expect(thinReason(edition, 1)).toBeNull();
    expect(() => refuseThin(edition, 'send', { minItems: 6, allowThin: false })).toThrow(ThinEditionError);
    expect(() => refuseThin(edition, 'send', { minItems: 6, allowThin: true })).not.toThrow();
    expect(() => refuseThin(edition, 'publish', { minItems: 0, allowThin: false })).not.toThrow();
  });
});
