// URLs as they appear in messages: a batch query of a hundred ids would drown the reason next to it.
const MAX_SHOWN = 120;

export function displayUrl(url: string): string {
  if (url.length <= MAX_SHOWN) return url;
  try {
    const parsed = new URL(url);
    const base = `${parsed.origin}${parsed.pathname}`;
    return parsed.search
      ? `${base}?… (query of ${parsed.search.length - 1} characters)`
      : `${base.slice(0, MAX_SHOWN)}…`;
  } catch {
    return `${url.slice(0, MAX_SHOWN)}…`;
  }
}
