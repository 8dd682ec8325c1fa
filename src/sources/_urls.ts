// Links found in content are data: they become item URLs only when they are absolute http(s) after resolving.

/** `raw` resolved against `base` when it is (or becomes) an http(s) URL, else null (javascript:, data:, junk). */
export function httpUrl(raw: string | null | undefined, base?: string | null): string | null {
  const value = raw?.trim();
  if (!value) return null;
  let url: URL;
  try {
    url = base ? new URL(value, base) : new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (!url.hostname) return null;
  return url.href;
}

/** A base URL usable for resolving: `candidate` resolved against `parent`, when the result is http(s). */
export function resolveBase(
  candidate: string | null | undefined,
  parent: string | null | undefined,
): string | null {
  return httpUrl(candidate, parent ?? undefined) ?? (parent ? httpUrl(parent) : null);
}

/** `template` with `{date}` replaced by `day` (YYYY-MM-DD). */
export function urlForDay(template: string, day: string): string {
  return template.replaceAll('{date}', day);
}
