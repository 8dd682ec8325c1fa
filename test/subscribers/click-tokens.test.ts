// Click tokens: an item part verified once is remembered by its exact text, so a per-reader link costs one HMAC of
// its reader part, while a forged signature next to a remembered item, or a forged reader part, still fails.
import { describe, expect, it } from 'vitest';
import { digestClickTokens } from '../../src/subscribers/click-tokens.js';

const env = { DIGEST_SECRET: 'click-tokens-test-secret-0123456789abcdef' };
const item = {
  edition: '2026-05-25',
  revision: 1,
  channel: 'mail' as const,
  itemKey: 'url:https://example.com/a',
};

/** The token with one character of its signature (the field at `field`) changed. */
function altered(token: string, field: number): string {
  const parts = token.split('.');
  const text = parts[field]!;
  parts[field] = `${text.slice(0, 3)}${text[3] === 'A' ? 'B' : 'A'}${text.slice(4)}`;
  return parts.join('.');
}

describe('click tokens', () => {
  it('reads every reader of an item, and refuses a forged item signature after a good one was read', () => {
    const tokens = digestClickTokens({ env });
    const itemToken = tokens.item(item);
    for (const id of [1, 2, 99_999])
      expect(tokens.read(`${itemToken}${tokens.reader(item.edition, id)}`)).toEqual({
        edition: '2026-05-25',
        revision: 1,
        channel: 'mail',
        keyTag: itemToken.split('.')[4],
        subscriberId: id,
      });
    const forged = altered(itemToken, 5);
    expect(forged).not.toBe(itemToken);
    expect(tokens.read(forged)).toBeNull();
    expect(tokens.read(`${forged}${tokens.reader(item.edition, 1)}`)).toBeNull();
    // The good one still reads after the forged one was refused.
    expect(tokens.read(itemToken)?.subscriberId).toBeNull();
  });

  it('a forged reader part on a remembered item is dropped, not the click', () => {
    const tokens = digestClickTokens({ env });
    const itemToken = tokens.item(item);
    expect(tokens.read(`${itemToken}${tokens.reader(item.edition, 7)}`)?.subscriberId).toBe(7);
    const sealed = tokens.reader(item.edition, 8);
    const forgedReader = altered(`${itemToken}${sealed}`, 6);
    expect(tokens.read(forgedReader)).toMatchObject({ edition: '2026-05-25', subscriberId: null });
    // Another edition's reader part does not open on this edition's link.
    expect(tokens.read(`${itemToken}${tokens.reader('2026-05-18', 8)}`)?.subscriberId).toBeNull();
  });
});
