// The reader part of a per-reader counted link: which subscriber was mailed it, sealed so the link shows nothing of
// them. One AES block holds the subscriber's id, the edition's day and a tag of both; only the digest's secret opens
// it, and a block altered or moved to another edition's link fails its tag. The links mailed before it was sealed
// (`.<id>.<signature>`, the id readable) are still read: a link once mailed works for good.
import { createCipheriv, createDecipheriv, createHmac } from 'node:crypto';

export interface ReaderParts {
  /** `.<22 characters>`, one per reader and edition. */
  seal(day: string, subscriberId: number): string;
  /** The subscriber id a sealed part holds for this edition's day, or null. */
  open(day: string, sealed: string): number | null;
}

const TAG_BYTES = 8;

export function createReaderParts(secret: Buffer): ReaderParts {
  const derive = (label: string) => createHmac('sha256', secret).update(label).digest();
  const key = derive('digest-click-reader-key-v2').subarray(0, 16);
  const tagKey = derive('digest-click-reader-tag-v2');
  const tag = (day: string, id: number) =>
    createHmac('sha256', tagKey).update(`${day}\n${id}`).digest().subarray(0, TAG_BYTES);
  const block = (
    cipher: ReturnType<typeof createCipheriv> | ReturnType<typeof createDecipheriv>,
    data: Buffer,
  ) => {
    cipher.setAutoPadding(false);
    return Buffer.concat([cipher.update(data), cipher.final()]);
  };
  return {
    seal(day, subscriberId) {
      const plain = Buffer.alloc(16);
      plain.writeUInt32BE(subscriberId, 0);
      plain.writeUInt32BE(Number(day), 4);
      tag(day, subscriberId).copy(plain, 8);
      return `.${block(createCipheriv('aes-128-ecb', key, null), plain).toString('base64url')}`;
    },
    open(day, sealed) {
      const bytes = Buffer.from(sealed, 'base64url');
      if (bytes.byteLength !== 16) return null;
      const plain = block(createDecipheriv('aes-128-ecb', key, null), bytes);
      const id = plain.readUInt32BE(0);
      if (plain.readUInt32BE(4) !== Number(day)) return null;
      return plain.subarray(8).equals(tag(day, id)) ? id : null;
    },
  };
}
