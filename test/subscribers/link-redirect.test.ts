// The /r/ use case on a real store: many fetches of a revision not yet in memory share one read of it (no
// thundering herd at a new edition's first minute), and a good token remembered does not let a forged one through.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/index.js';
import { silentLogger } from '../../src/core/ports.js';
import type { Store } from '../../src/store/types.js';
import { digestClickTokens } from '../../src/subscribers/click-tokens.js';
import { type ClickDeps, createLinkRedirect } from '../../src/subscribers/link-redirect.js';
import { useTestStore } from '../support/database.js';
import { manualTimer } from '../support/manual-timer.js';
import { referenceEdition } from '../support/reference-edition.js';

const env = { DIGEST_SECRET: 'link-redirect-test-secret-0123456789abcdef' };
const HOME = 'https://digest.example.org/';

describe('link redirect', () => {
  const store = useTestStore();

  /** The real store, with its revision and edition reads counted. */
  const countingStore = () => {
    const reads = { revisions: 0, editions: 0 };
    const real = store();
    const counted: ClickDeps['store'] = {
      clicks: real.clicks,
      revisions: {
        ...real.revisions,
        get: (...args: Parameters<Store['revisions']['get']>) => {
          reads.revisions++;
          return real.revisions.get(...args);
        },
      },
      editions: {
        ...real.editions,
        get: (...args: Parameters<Store['editions']['get']>) => {
          reads.editions++;
          return real.editions.get(...args);
        },
      },
    };
    return { counted, reads };
  };

  const redirectOn = (clicks: ClickDeps['store'], mode: 'off' | 'aggregate' | 'per-reader' = 'aggregate') => {
    const timer = manualTimer();
    return createLinkRedirect({
      config: parseConfig({ analytics: { mode, perMinute: 1_000 }, publish: { baseUrl: HOME } }),
      env,
      clock: { now: () => new Date(Date.UTC(2026, 4, 5, 8) + timer.now()), timer },
      log: silentLogger,
      store: clicks,
    });
  };

  const published = async () => {
    const edition = referenceEdition();
    await store().editions.save(edition);
    await store().editions.markPublished(edition.date, '2026-05-04T08:00:00.000Z');
    return edition;
  };

  it('a hundred fetches of a revision not in memory share one read of it, and all are counted', async () => {
    const edition = await published();
    const { counted, reads } = countingStore();
    const redirect = redirectOn(counted);
    const tokens = digestClickTokens({ env });
    const item = edition.items[3]!;
    const token = tokens.item({ edition: edition.date, revision: 1, channel: 'mail', itemKey: item.key });
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, index) =>
        redirect.follow({ token, method: 'GET', userAgent: 'Mozilla/5.0', source: `198.51.100.${index}` }),
      ),
    );
    expect(new Set(answers.map((answer) => answer.location))).toEqual(new Set([item.url]));
    expect(answers.every((answer) => answer.counted === 'click')).toBe(true);
    // One revision row asked for (none: the edition was never corrected), then the live edition once.
    expect(reads).toEqual({ revisions: 1, editions: 1 });
    await redirect.stop();
    const stored = await store().clicks.byItem(edition.date);
    expect(stored.find((row) => row.itemKey === item.key)?.clicks).toBe(100);
  });

  it('a remembered good token does not let a forged one through', async () => {
    const edition = await published();
    const redirect = redirectOn(store());
    const tokens = digestClickTokens({ env });
    const item = edition.items[0]!;
    const token = tokens.item({ edition: edition.date, revision: 1, channel: 'mail', itemKey: item.key });
    const follow = (text: string) =>
      redirect.follow({ token: text, method: 'GET', userAgent: 'Mozilla/5.0', source: '198.51.100.1' });
    expect((await follow(token)).location).toBe(item.url);
    expect((await follow(token)).location).toBe(item.url);
    // The same token with its last signature character changed, and the good one with a character more.
    const last = token.at(-1) === 'A' ? 'B' : 'A';
    expect(await follow(`${token.slice(0, -1)}${last}`)).toEqual({ location: HOME, counted: 'none' });
    expect(await follow(`${token}A`)).toEqual({ location: HOME, counted: 'none' });
    await redirect.stop();
  });

  it('a link mailed before analytics was switched off still answers its item, in every mode; only the modes that count count', async () => {
    const edition = await published();
    const tokens = digestClickTokens({ env });
    const item = edition.items[2]!;
    const token = tokens.item({ edition: edition.date, revision: 1, channel: 'mail', itemKey: item.key });
    const reader = `${token}${tokens.reader(edition.date, 3)}`;
    for (const [mode, counts] of [
      ['off', 'none'],
      ['aggregate', 'click'],
      ['per-reader', 'click'],
    ] as const) {
      const redirect = redirectOn(store(), mode);
      for (const text of [token, reader]) {
        const answer = await redirect.follow({
          token: text,
          method: 'GET',
          userAgent: 'Mozilla/5.0',
          source: '198.51.100.9',
        });
        expect(answer, `${mode} ${text}`).toEqual({ location: item.url, counted: counts });
      }
      await redirect.stop();
    }
  });

  it('a reader part shows nothing of the reader, opens only on its own edition, and links mailed before it was sealed still name theirs', async () => {
    const tokens = digestClickTokens({ env });
    const item = tokens.item({ edition: '2026-05-04', revision: 1, channel: 'mail', itemKey: 'arxiv:1' });
    const parts = [1, 2, 3, 36].map((id) => tokens.reader('2026-05-04', id));
    for (const part of parts) expect(part).toMatch(/^\.[A-Za-z0-9_-]{22}$/);
    expect(parts.some((part) => /\.(1|2|3|10)\./.test(`${part}.`))).toBe(false);
    expect(tokens.read(`${item}${parts[2]}`)?.subscriberId).toBe(3);
    // Moved to another edition's link, the part is no reader (the item's own signature still counts the click).
    const other = tokens.item({ edition: '2026-05-11', revision: 1, channel: 'mail', itemKey: 'arxiv:1' });
    expect(tokens.read(`${other}${parts[2]}`)).toMatchObject({ edition: '2026-05-11', subscriberId: null });
    // A link of the earlier form: `.<id in base 36>.<signature>`, signed as it was then.
    const { createHmac } = await import('node:crypto');
    const signature = createHmac('sha256', Buffer.from(env.DIGEST_SECRET))
      .update('digest-click-reader-v1\n20260504\n3')
      .digest()
      .subarray(0, 12)
      .toString('base64url');
    expect(tokens.read(`${item}.3.${signature}`)?.subscriberId).toBe(3);
    expect(tokens.read(`${item}.4.${signature}`)?.subscriberId).toBe(null);
  });
});
