// Text rules every chat adapter shares: clean untrusted text, cut it to a limit measured after escaping.

/** Control characters and bidi overrides could disguise text; whitespace collapses to single spaces. */
export function clean(text: string): string {
  return text
    .replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * `escapeText(text)` cut so that it is at most `max` characters long (UTF-16 units, as the platforms count), ending
 * in "…" when cut. The raw text is cut before escaping, so an entity or escape sequence is never split.
 */
export function fitEscaped(
  text: string,
  max: number,
  escapeText: (raw: string) => string = (raw) => raw,
): string {
  const full = escapeText(text);
  if (full.length <= max) return full;
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (escapeText(cutRaw(text, middle)).length <= max) low = middle;
    else high = middle - 1;
  }
  return escapeText(cutRaw(text, low));
}

function cutRaw(text: string, length: number): string {
  let cut = text.slice(0, length);
  // Never leave half a surrogate pair (an emoji cut in two renders as garbage).
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}

/** Replaces every occurrence of each secret, so an error from deep down cannot carry a token out. */
export function redact(message: string, secrets: readonly string[]): string {
  let result = message;
  for (const secret of secrets) {
    if (secret.length >= 4) result = result.split(secret).join('[redacted]');
  }
  return result;
}
