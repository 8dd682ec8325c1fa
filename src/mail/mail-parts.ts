// A mail as bytes: each rendered part cut at its placeholders once, and each reader's copy written from those
// pieces straight into the one buffer the connection sends. A send makes one copy per reader; the strings of a
// search-and-replace and its re-encodings (a rendered part holds typographic characters, so V8 keeps it two bytes a
// character) were most of what a long send allocated, and its memory grew with that garbage.

/** One reader's copy of a part: UTF-8 pieces, in order. */
export type FilledPart = readonly Buffer[];

/**
 * A rendered part cut at its placeholders, so each reader's copy is a join rather than a search: returns a function
 * that puts `values[i]` where `slots[i]` was, as UTF-8 pieces with CRLF line ends. Every slot must appear (a
 * template that lost a link is a bug). Line ends are made CRLF piece by piece: a value holds no line break and every
 * slot sits inside a link, so this is the same as converting the joined text.
 */
export function fillable(text: string, slots: readonly string[]): (values: readonly string[]) => FilledPart {
  const { pieces, holes } = cutAt(text, slots);
  return (values) => {
    const parts: Buffer[] = [pieces[0]!];
    for (let index = 0; index < holes.length; index++)
      parts.push(Buffer.from(values[holes[index]!]!, 'utf8'), pieces[index + 1]!);
    return parts;
  };
}

/**
 * The pieces between the slots and which slot each hole is. Apart from the filling function, so that what a
 * variant keeps for the whole send is its pieces, not the rendered text they were cut from.
 */
function cutAt(text: string, slots: readonly string[]): { pieces: Buffer[]; holes: number[] } {
  const pattern = new RegExp(slots.join('|'), 'g');
  const pieces: Buffer[] = [];
  const holes: number[] = [];
  let last = 0;
  const piece = (from: number, to?: number) =>
    pieces.push(Buffer.from(text.slice(from, to).replace(/\r?\n/g, '\r\n'), 'utf8'));
  for (const match of text.matchAll(pattern)) {
    piece(last, match.index);
    holes.push(slots.indexOf(match[0]));
    last = match.index + match[0].length;
  }
  piece(last);
  for (let slot = 0; slot < slots.length; slot++) {
    if (!holes.includes(slot))
      throw new Error(`the email template lost a link (${slot ? 'preferences' : 'unsubscribe'})`);
  }
  return { pieces, holes };
}

/** A written message: its bytes, and the way to give them back for a later message once the server has them all. */
export interface WrittenMessage {
  bytes: Buffer;
  /** After this the bytes may hold another message: call it only once nothing will read them again. */
  release(): void;
}

/**
 * The whole message: the header block, then each part base64-encoded (76-character lines) under its boundary, then
 * the closing boundary — written into one buffer, a released one when one is large enough.
 */
export function multipartMessage(
  headers: string,
  boundary: string,
  parts: readonly { type: string; content: FilledPart }[],
): WrittenMessage {
  const head = Buffer.from(`${headers}\r\n\r\n`, 'utf8');
  const closing = Buffer.from(`--${boundary}--\r\n`, 'latin1');
  const sized = parts.map(({ type, content }) => {
    const header = Buffer.from(
      `--${boundary}\r\nContent-Type: ${type}; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n`,
      'latin1',
    );
    const length = content.reduce((sum, piece) => sum + piece.length, 0);
    return { header, content, length };
  });
  const total = sized.reduce((sum, part) => sum + part.header.length + base64Length(part.length) + 2, 0);
  const size = head.length + total + closing.length;
  const whole = lease(size);
  const out = whole.subarray(0, size);
  let at = head.copy(out, 0);
  for (const part of sized) {
    at += part.header.copy(out, at);
    at = writeBase64Lines(joined(part.content, part.length), out, at);
    at = out.write('\r\n', at, 'latin1') + at;
  }
  closing.copy(out, at);
  let released = false;
  return {
    bytes: out,
    release() {
      if (released) return;
      released = true;
      if (spare.length < MAX_SPARE) spare.push(whole);
    },
  };
}

/**
 * Buffers given back by sent messages. A send writes a message of about the same size per reader; reusing their
 * buffers keeps the memory outside V8's heap from piling up between its collections, which come late for buffers
 * that lived through a whole SMTP transaction. A few more than the mails in flight are kept.
 */
const spare: Buffer[] = [];
const MAX_SPARE = 64;
/** Buffers are made in steps of this size, so a message a little longer than the last still finds one. */
const STEP = 16 * 1024;

function lease(size: number): Buffer {
  for (let index = spare.length - 1; index >= 0; index--) {
    if (spare[index]!.length >= size) return spare.splice(index, 1)[0]!;
  }
  return Buffer.allocUnsafeSlow(Math.ceil(size / STEP) * STEP);
}

/** 19 groups of 3 bytes make one 76-character line. */
const GROUPS_PER_LINE = 19;
const ALPHABET = Buffer.from('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', 'latin1');

/** Characters of `bytes` bytes in base64, lines of 76 joined by CRLF. */
function base64Length(bytes: number): number {
  const groups = Math.ceil(bytes / 3);
  return groups * 4 + Math.max(0, Math.ceil(groups / GROUPS_PER_LINE) - 1) * 2;
}

/** One buffer reused for every copy's joined part: it is read at once, before the next copy is made. */
let scratch = Buffer.alloc(0);

function joined(pieces: FilledPart, length: number): Buffer {
  if (scratch.length < length) scratch = Buffer.allocUnsafeSlow(Math.max(length, scratch.length * 2));
  let at = 0;
  for (const piece of pieces) at += piece.copy(scratch, at);
  return scratch.subarray(0, length);
}

/** `content` in base64, 76-character lines joined by CRLF, written into `out` at `at`; answers where it ended. */
function writeBase64Lines(content: Buffer, out: Buffer, start: number): number {
  const groups = Math.ceil(content.length / 3);
  let at = start;
  for (let group = 0; group < groups; group++) {
    if (group > 0 && group % GROUPS_PER_LINE === 0) {
      out[at++] = 13;
      out[at++] = 10;
    }
    const index = group * 3;
    const left = content.length - index;
    const triple =
      (content[index]! << 16) |
      ((left > 1 ? content[index + 1]! : 0) << 8) |
      (left > 2 ? content[index + 2]! : 0);
    out[at++] = ALPHABET[triple >>> 18]!;
    out[at++] = ALPHABET[(triple >>> 12) & 63]!;
    out[at++] = left > 1 ? ALPHABET[(triple >>> 6) & 63]! : 61;
    out[at++] = left > 2 ? ALPHABET[triple & 63]! : 61;
  }
  return at;
}
