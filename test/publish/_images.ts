// Published-image maps and real image bytes for the publish tests (synthetic, made here).
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import type { Edition } from '../../src/core/types.js';
import type { ImageMap, LocalImage } from '../../src/publish/item-images.js';

/**
 * What fetchItemImages would return had every item image been published, at the HF thumbnails' size: lets the
 * renderer tests check image markup without a network.
 */
export function publishedImages(editions: Edition[], size = { width: 600, height: 324 }): ImageMap {
  const images = new Map<string, LocalImage>();
  for (const item of editions.flatMap((edition) => edition.items)) {
    if (!item.image) continue;
    const hash = createHash('sha256').update(item.image).digest('hex').slice(0, 24);
    images.set(item.image, { path: `img/${hash}.png`, ...size });
  }
  return images;
}

/** A real, valid PNG of `width`×`height` solid blue pixels (signature, IHDR, IDAT, IEND with CRCs). */
export function tinyPng(width = 3, height = 2): Buffer {
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, Buffer.from([0x0b, 0x57, 0xb0]))]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit, RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}
