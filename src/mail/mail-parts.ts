// A mail's body parts as bytes: each rendered part cut at its placeholders once, and each reader's copy joined and
// base64-encoded from those pieces. A send makes one copy per reader, so the copy is built from prepared bytes with
// one string at the end: the intermediate strings of a search-and-replace (a rendered part holds typographic
// characters, so V8 keeps it two bytes a character) were most of what a send allocated, and the garbage of a long
// send is what the process's memory grows with.

/**
 * A rendered part cut at its placeholders, so each reader's copy is a join rather than a search: returns a function
 * that puts `values[i]` where `slots[i]` was and answers the UTF-8 bytes with CRLF line ends. Every slot must appear
 * (a template that lost a link is a bug). Line ends are made CRLF piece by piece: a value holds no line break and
 * every slot sits inside a link, so this is the same as converting the joined text.
 */
export function fillable(text: string, slots: readonly string[]): (values: readonly string[]) => Buffer {
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
  return (values) => {
    const parts: Buffer[] = [pieces[0]!];
    for (let index = 0; index < holes.length; index++)
      parts.push(Buffer.from(values[holes[index]!]!, 'utf8'), pieces[index + 1]!);
    return Buffer.concat(parts);
  };
}

/** One base64 part (76-character lines). */
export function base64Part(boundary: string, type: string, content: Buffer): string {
  return [
    `--${boundary}`,
    `Content-Type: ${type}; charset=utf-8`,
    'Content-Transfer-Encoding: base64',
    '',
    base64Lines(content),
  ].join('\r\n');
}

const ALPHABET = Buffer.from('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', 'latin1');
/** 19 groups of 3 bytes make one 76-character line. */
const GROUPS_PER_LINE = 19;

/** `content` in base64, lines of 76 characters joined by CRLF: written into one buffer, read out as one string. */
export function base64Lines(content: Buffer): string {
  const groups = Math.ceil(content.length / 3);
  const lines = Math.ceil(groups / GROUPS_PER_LINE);
  const out = Buffer.allocUnsafe(groups * 4 + Math.max(0, lines - 1) * 2);
  let at = 0;
  for (let group = 0; group < groups; group++) {
    if (group > 0 && group % GROUPS_PER_LINE === 0) {
      out[at++] = 13;
      out[at++] = 10;
    }
    const index = group * 3;
    const left = content.length - index;
    const triple = (content[index]! << 16) | ((left > 1 ? content[index + 1]! : 0) << 8) | (left > 2 ? content[index + 2]! : 0);
    out[at++] = ALPHABET[triple >>> 18]!;
    out[at++] = ALPHABET[(triple >>> 12) & 63]!;
    out[at++] = left > 1 ? ALPHABET[(triple >>> 6) & 63]! : 61;
    out[at++] = left > 2 ? ALPHABET[triple & 63]! : 61;
  }
  return out.toString('latin1');
}
