// Counted links: the token of `/r/<token>`, signed with the digest's secret (DIGEST_SECRET, as the subscriber tokens
// of tokens.ts). It names an edition, its revision, the channel and an item — by a digest of the item's key, so the
// link stays short — and in per-reader mode a reader. It carries no URL: the redirect reads the item's URL from the
// stored revision, so /r/ can only ever send a reader to a link that edition published.
import { createHash, createHmac } from 'node:crypto';
import { MIN_SECRET_BYTES, readSecret } from '../config/secret.js';
import type { Edition } from '../core/types.js';
import { absoluteUrl } from '../core/urls.js';
import type { DigestDeps } from '../deps.js';
import type { ClickChannel } from '../store/clicks.js';
import { createReaderParts } from './click-reader-part.js';
import { sameBytes } from './tokens.js';

/** What a good token names. */
export interface ClickLink {
  edition: string;
  revision: number;
  channel: ClickChannel;
  /** The item's key digest (`itemKeyTag`): the redirect finds the item in the revision by it. */
  keyTag: string;
  /** Per-reader links only: the reader who was mailed this link. */
  subscriberId: number | null;
}

export interface ClickTokens {
  /** The token of one item's link, the same for every reader of an edition. */
  item(link: { edition: string; revision: number; channel: ClickChannel; itemKey: string }): string;
  /** The part a per-reader link appends to an item's token (sealed: it shows nothing of the reader), one per reader and edition. */
  reader(edition: string, subscriberId: number): string;
  /** What the token names, or null when it is malformed, truncated or not signed by this digest. */
  read(token: string): ClickLink | null;
}

const CHANNEL_CODE: Record<ClickChannel, string> = { mail: 'm', site: 's' };
/**
 * `k.<yyyymmdd>.<revision>.<m|s>.<key digest>.<signature>[.<sealed reader>]`, base 36 numbers; links mailed before
 * the reader part was sealed end `.<reader>.<reader signature>` instead.
 */
const TOKEN_SHAPE =
  /^k\.(\d{8})\.([1-9a-z][0-9a-z]{0,3})\.([ms])\.([A-Za-z0-9_-]{12})\.([A-Za-z0-9_-]{22})(?:\.([1-9a-z][0-9a-z]{0,6})\.([A-Za-z0-9_-]{16})|\.([A-Za-z0-9_-]{22}))?$/;
const MAX_ID = 2 ** 31 - 1;

/** An item key's digest in a link: 72 bits, unique among an edition's few items. */
export function itemKeyTag(itemKey: string): string {
  return createHash('sha256').update(itemKey).digest().subarray(0, 9).toString('base64url');
}

export function createClickTokens(secret: Buffer): ClickTokens {
  if (secret.byteLength < MIN_SECRET_BYTES)
    throw new Error(`the token secret needs ${MIN_SECRET_BYTES} bytes`);
  const mac = (label: string, fields: string[], bytes: number) =>
    createHmac('sha256', secret)
      .update(`${label}\n${fields.join('\n')}`)
      .digest()
      .subarray(0, bytes);
  const itemMac = (fields: string[]) => mac('digest-click-v1', fields, 16);
  const readerMac = (fields: string[]) => mac('digest-click-reader-v1', fields, 12);
  const readers = createReaderParts(secret);
  const itemParts = verifiedParts();
  return {
    item({ edition, revision, channel, itemKey }) {
      const fields = [
        edition.replaceAll('-', ''),
        revision.toString(36),
        CHANNEL_CODE[channel],
        itemKeyTag(itemKey),
      ];
      return `k.${fields.join('.')}.${itemMac(fields).toString('base64url')}`;
    },
    reader(edition, subscriberId) {
      return readers.seal(edition.replaceAll('-', ''), subscriberId);
    },
    read(token) {
      const match = TOKEN_SHAPE.exec(token);
      if (!match) return null;
      const [day, revision, channel, keyTag, signature, reader, readerSignature, sealed] = match.slice(1) as [
        string,
        string,
        string,
        string,
        string,
        string | undefined,
        string | undefined,
        string | undefined,
      ];
      if (
        !itemParts.verified(token.slice(0, itemPartLength(match)), () =>
          sameBytes(signature, itemMac([day, revision, channel, keyTag])),
        )
      )
        return null;
      const edition = `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6)}`;
      if (Number.isNaN(Date.parse(`${edition}T00:00:00Z`))) return null;
      let subscriberId: number | null = sealed === undefined ? null : readers.open(day, sealed);
      if (subscriberId !== null && subscriberId > MAX_ID) subscriberId = null;
      if (reader !== undefined && readerSignature !== undefined) {
        const id = Number.parseInt(reader, 36);
        // A bad reader part is dropped, not the click: the item's own signature is good.
        if (id <= MAX_ID && sameBytes(readerSignature, readerMac([day, reader]))) subscriberId = id;
      }
      return {
        edition,
        revision: Number.parseInt(revision, 36),
        channel: channel === 'm' ? 'mail' : 'site',
        keyTag,
        subscriberId,
      };
    },
  };
}

/** `k.<day>.<revision>.<channel>.<key digest>.<signature>`: the part every reader's link of an item shares. */
const itemPartLength = (match: RegExpExecArray) =>
  match.slice(1, 6).reduce((length, field) => length + 1 + (field?.length ?? 0), 1);

/** Item parts whose signature was good, by their exact text (signature included), oldest dropped first. */
const VERIFIED_PARTS = 4_096;

/**
 * In per-reader mode every reader's link of an item differs, but only in the reader part: the item part's HMAC is
 * computed once, not once a reader. A forged part is checked each time and never matches a kept one, which is the
 * same text a good signature made.
 */
function verifiedParts() {
  const parts = new Set<string>();
  return {
    verified(part: string, check: () => boolean): boolean {
      if (parts.has(part)) return true;
      if (!check()) return false;
      parts.add(part);
      if (parts.size > VERIFIED_PARTS) parts.delete(parts.values().next().value!);
      return true;
    },
  };
}

/** The digest's click tokens: signed with DIGEST_SECRET. */
export function digestClickTokens(deps: Pick<DigestDeps, 'env'>): ClickTokens {
  return createClickTokens(readSecret(deps.env));
}

/**
 * Each item's counted link for one edition as it stands now (its revision: corrections + 1) on one channel:
 * `<service>/r/<token>`, the same for everyone (no reader part). Used by `digest send` and `digest email`.
 */
export function countedItemLink(
  deps: Pick<DigestDeps, 'env'>,
  target: { edition: Edition; baseUrl: string; channel: ClickChannel },
): (itemKey: string) => string {
  const tokens = digestClickTokens(deps);
  const { edition, baseUrl, channel } = target;
  const revision = (edition.corrections?.length ?? 0) + 1;
  return (itemKey) => {
    const token = tokens.item({ edition: edition.date, revision, channel, itemKey });
    return absoluteUrl(baseUrl, `r/${token}`) ?? `${baseUrl}r/${token}`;
  };
}
