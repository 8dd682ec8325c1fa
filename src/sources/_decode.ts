// Feed bytes → text. Order: BOM; bytes that are valid UTF-8 (a legacy prolog that lies is common); the XML
// declaration; the HTTP charset; a statistical sniff (chardet); windows-1252, which never fails.
import chardet from 'chardet';
import iconv from 'iconv-lite';

export interface DecodedText {
  text: string;
  /** The encoding used, as iconv-lite names it. */
  encoding: string;
  /** How it was chosen: "bom", "utf-8", "declared", "http", "sniffed", "fallback". */
  via: string;
}

// WHATWG decodes these labels as their Windows supersets; so do we.
const SUPERSETS: Record<string, string> = {
  'iso-8859-1': 'windows-1252',
  latin1: 'windows-1252',
  'us-ascii': 'windows-1252',
  ascii: 'windows-1252',
  'iso-8859-8': 'windows-1255',
  'iso-8859-9': 'windows-1254',
  'iso-8859-11': 'windows-874',
  'tis-620': 'windows-874',
  gb2312: 'gb18030',
  gbk: 'gb18030',
  'x-gbk': 'gb18030',
};

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

export function decodeFeedBytes(bytes: Uint8Array, contentType?: string | null): DecodedText {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const bom = byteOrderMark(buffer);
  if (bom)
    return {
      text: iconv.decode(buffer.subarray(bom.length), bom.encoding),
      encoding: bom.encoding,
      via: 'bom',
    };
  try {
    return { text: strictUtf8.decode(buffer), encoding: 'utf-8', via: 'utf-8' };
  } catch {
    // not UTF-8: look for what the document or the server says
  }
  const declared = usable(
    /<\?xml[^>]*\bencoding\s*=\s*["']?([\w.:-]+)/i.exec(buffer.subarray(0, 1024).toString('latin1'))?.[1],
  );
  if (declared) return { text: iconv.decode(buffer, declared), encoding: declared, via: 'declared' };
  const http = usable(/charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType ?? '')?.[1]);
  if (http) return { text: iconv.decode(buffer, http), encoding: http, via: 'http' };
  const sniffed = usable(chardet.detect(buffer) ?? undefined);
  if (sniffed) return { text: iconv.decode(buffer, sniffed), encoding: sniffed, via: 'sniffed' };
  return { text: iconv.decode(buffer, 'windows-1252'), encoding: 'windows-1252', via: 'fallback' };
}

function usable(label: string | undefined): string | null {
  if (!label) return null;
  const lower = label.toLowerCase();
  const name = SUPERSETS[lower] ?? lower;
  if (name === 'utf-8' || name === 'utf8') return null; // already known not to be valid UTF-8
  return iconv.encodingExists(name) ? name : null;
}

function byteOrderMark(buffer: Buffer): { encoding: string; length: number } | null {
  if (buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf) return { encoding: 'utf-8', length: 3 };
  if (buffer[0] === 0xff && buffer[1] === 0xfe) return { encoding: 'utf-16le', length: 2 };
  if (buffer[0] === 0xfe && buffer[1] === 0xff) return { encoding: 'utf-16be', length: 2 };
  // UTF-16 without a BOM still starts with "<" next to a zero byte.
  if (buffer[0] === 0x3c && buffer[1] === 0x00) return { encoding: 'utf-16le', length: 0 };
  if (buffer[0] === 0x00 && buffer[1] === 0x3c) return { encoding: 'utf-16be', length: 0 };
  return null;
}
