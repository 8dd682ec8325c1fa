// What an image really is, from its first bytes, never from its URL or Content-Type: PNG, JPEG, GIF or WebP with
// its pixel size. SVG (a document that can carry script) and everything else is refused.

export type ImageType = 'png' | 'jpeg' | 'gif' | 'webp';

export interface SniffedImage {
  type: ImageType;
  width: number | null;
  height: number | null;
}

/** Pixel sizes beyond this are treated as unknown (a corrupt header, or a decompression bomb we will not describe). */
const MAX_DIMENSION = 20_000;

export function sniffImage(bytes: Uint8Array): SniffedImage | null {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return sized(
      'png',
      readAt({ data, offset: 16, size: 4, order: 'be' }),
      readAt({ data, offset: 20, size: 4, order: 'be' }),
    );
  if (startsWith(data, [0xff, 0xd8, 0xff])) return { type: 'jpeg', ...jpegSize(data) };
  const signature = data.subarray(0, 6).toString('latin1');
  if (signature === 'GIF87a' || signature === 'GIF89a')
    return sized(
      'gif',
      readAt({ data, offset: 6, size: 2, order: 'le' }),
      readAt({ data, offset: 8, size: 2, order: 'le' }),
    );
  if (data.subarray(0, 4).toString('latin1') === 'RIFF' && data.subarray(8, 12).toString('latin1') === 'WEBP')
    return { type: 'webp', ...webpSize(data) };
  return null;
}

function startsWith(data: Buffer, signature: number[]): boolean {
  return data.length >= signature.length && signature.every((byte, index) => data[index] === byte);
}

function readAt({
  data,
  offset,
  size,
  order,
}: {
  data: Buffer;
  offset: number;
  size: 2 | 3 | 4;
  order: 'be' | 'le';
}): number | null {
  if (data.length < offset + size) return null;
  return order === 'be' ? data.readUIntBE(offset, size) : data.readUIntLE(offset, size);
}

function sized(type: ImageType, width: number | null, height: number | null): SniffedImage {
  return { type, ...dimensions(width, height) };
}

function dimensions(width: number | null, height: number | null) {
  const valid = (value: number | null) => value !== null && value > 0 && value <= MAX_DIMENSION;
  return valid(width) && valid(height) ? { width, height } : { width: null, height: null };
}

/** The first start-of-frame segment holds the size; markers before it are skipped by their lengths. */
function jpegSize(data: Buffer) {
  let offset = 2;
  while (offset + 9 < data.length) {
    if (data[offset] !== 0xff) return dimensions(null, null);
    const marker = data[offset + 1] ?? 0;
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    const length = data.readUInt16BE(offset + 2);
    const startOfFrame = marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);
    if (startOfFrame) return dimensions(data.readUInt16BE(offset + 7), data.readUInt16BE(offset + 5));
    offset += 2 + length;
  }
  return dimensions(null, null);
}

function webpSize(data: Buffer) {
  const chunk = data.subarray(12, 16).toString('latin1');
  if (chunk === 'VP8X') {
    const width = readAt({ data, offset: 24, size: 3, order: 'le' });
    const height = readAt({ data, offset: 27, size: 3, order: 'le' });
    return dimensions(width === null ? null : width + 1, height === null ? null : height + 1);
  }
  if (chunk === 'VP8L' && data.length >= 25 && data[20] === 0x2f) {
    const bits = data.readUInt32LE(21);
    return dimensions((bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1);
  }
  if (chunk === 'VP8 ' && data.length >= 30)
    return dimensions(data.readUInt16LE(26) & 0x3fff, data.readUInt16LE(28) & 0x3fff);
  return dimensions(null, null);
}
