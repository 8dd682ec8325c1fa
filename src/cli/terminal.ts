// Text from feeds and pages reaches the terminal as data: control characters (escape sequences that could move the
// cursor, rewrite earlier lines or change the window title), and bidirectional overrides that reorder what is shown,
// are replaced before printing. `plainLine` makes one line of it; `plainText` keeps its line breaks and tabs.

// C0 controls but \t and \n, DEL, C1 controls, and the bidi embeddings, overrides and isolates.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_OR_BREAK = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** One line of untrusted text, safe to print: every control character becomes "�", line breaks a space. */
export function plainLine(text: string): string {
  return text.replace(UNSAFE_OR_BREAK, (char) =>
    char === '\n' || char === '\t' || char === '\r' ? ' ' : '\ufffd',
  );
}

/** A message that may span lines: line breaks and tabs stay, every other control character becomes "�". */
export function plainText(text: string): string {
  return text.replace(UNSAFE, '\ufffd');
}
