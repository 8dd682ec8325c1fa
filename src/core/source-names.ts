// What readers see after "via": a source's name, never its config id. Configured (sources[].name), else the name of a
// known source, else the host of its address, else the id.

/** The sources this project ships with (defaults and the sample week), by id. */
export const KNOWN_SOURCE_NAMES: Readonly<Record<string, string>> = {
  'api-hf': 'Hugging Face Daily Papers',
  'rss-openai': 'OpenAI News',
  'rss-latentspace': 'Latent Space',
  'rss-willison': 'Simon Willison',
  'rss-takara': 'Takara TLDR',
  manual: 'the editors',
};

export function sourceName(
  id: string,
  configured?: { name?: string | undefined; url?: string | undefined },
): string {
  if (configured?.name) return configured.name;
  const known = KNOWN_SOURCE_NAMES[id];
  if (known) return known;
  if (configured?.url) {
    try {
      const host = new URL(configured.url.replace('{date}', 'date')).hostname.replace(/^www\./, '');
      // A loopback or bare address names nothing a reader knows.
      if (host && !/^[\d.:[\]]+$/.test(host) && host !== 'localhost') return host;
    } catch {
      // not a URL: the id below
    }
  }
  return id;
}
