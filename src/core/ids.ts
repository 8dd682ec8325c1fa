// Canonical identities: the same paper or post reached through different links gets one key.

const ARXIV_HOSTS = /^(?:www\.|export\.)?arxiv\.org$/;
const PAPER_MIRRORS =
  /^(?:www\.)?(?:alphaxiv\.org|ar5iv\.(?:labs\.arxiv\.)?org|ar5iv\.org|tldr\.takara\.ai|papers\.takara\.ai|paperswithcode\.com|arxiv-sanity-lite\.com|scholar-chat\.com|semanticscholar\.org|chatpaper\.com)$/;
const ARXIV_PATH = /^\/(?:abs|pdf|html|format)\/(.+?)(?:\.pdf)?\/?$/;

/** arXiv id (without version) from an arXiv or Hugging Face papers URL, else null. */
export function arxivIdFromUrl(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const host = parsed.hostname.toLowerCase();
  if (ARXIV_HOSTS.test(host)) {
    const match = ARXIV_PATH.exec(parsed.pathname);
    return match?.[1] ? normaliseArxivId(match[1]) : null;
  }
  if (host === 'huggingface.co' || host === 'www.huggingface.co') {
    const match = /^\/papers\/([^/?#]+)/.exec(parsed.pathname);
    return match?.[1] ? normaliseArxivId(match[1]) : null;
  }
  // Known paper mirrors and readers end their paths with the bare arXiv id; other hosts are not trusted to.
  if (PAPER_MIRRORS.test(host)) {
    const last = parsed.pathname.split('/').filter(Boolean).pop() ?? '';
    const bare = /^(\d{2})(\d{2})\.\d{4,5}(?:v\d+)?$/.exec(last);
    if (bare && Number(bare[2]) >= 1 && Number(bare[2]) <= 12) return normaliseArxivId(last);
  }
  return null;
}

/** A bare arXiv id with its version stripped, or null when `value` is not one. */
export function normaliseArxivId(value: string): string | null {
  const trimmed = value.trim().replace(/^arxiv:/i, '');
  const modern = /^(\d{4}\.\d{4,5})(?:v\d+)?$/.exec(trimmed);
  if (modern?.[1]) return modern[1];
  const old = /^([a-z-]+(?:\.[A-Z]{2})?\/\d{7})(?:v\d+)?$/.exec(trimmed);
  return old?.[1] ?? null;
}

/** First arXiv id found in free text ("arXiv:2604.24819", an arxiv.org link), else null. */
export function arxivIdFromText(text: string): string | null {
  const link = /https?:\/\/(?:www\.|export\.)?arxiv\.org\/(?:abs|pdf|html)\/([^\s"'<>)\]]+)/i.exec(text);
  if (link?.[1]) {
    const id = normaliseArxivId(link[1].replace(/[.,;:!?]+$/, '').replace(/\.pdf$/, ''));
    if (id) return id;
  }
  const hf = /https?:\/\/(?:www\.)?huggingface\.co\/papers\/(\d{4}\.\d{4,5})/i.exec(text);
  if (hf?.[1]) return hf[1];
  const labelled = /\barXiv\s*[:/]?\s*(\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?\/\d{7})(?:v\d+)?/i.exec(text);
  if (labelled?.[1]) return normaliseArxivId(labelled[1]);
  return null;
}

export const TRACKING_PARAMS =
  /^(?:utm_[a-z]+|fbclid|gclid|dclid|msclkid|mc_cid|mc_eid|ref|ref_src|source|s|si|igshid|_hsenc|_hsmi|mkt_tok)$/i;

/**
 * Canonical form of a URL: https, lower-case host without "www.", no fragment, no tracking parameters,
 * sorted query, no trailing slash; arXiv and HF paper links collapse to https://arxiv.org/abs/<id>.
 */
export function canonicalUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return url.trim();
  }
  const arxivId = arxivIdFromUrl(parsed.href);
  if (arxivId) return `https://arxiv.org/abs/${arxivId}`;
  if (parsed.protocol === 'http:') parsed.protocol = 'https:';
  parsed.hostname = parsed.hostname.toLowerCase().replace(/^www\./, '');
  parsed.hash = '';
  parsed.port = parsed.port === '443' || parsed.port === '80' ? '' : parsed.port;
  const kept = [...parsed.searchParams.entries()].filter(([name]) => !TRACKING_PARAMS.test(name));
  kept.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  parsed.search = kept.length ? `?${new URLSearchParams(kept).toString()}` : '';
  let href = parsed.href;
  if (parsed.pathname.length > 1 && parsed.pathname.endsWith('/')) {
    href = href.replace(/\/(?=\?|$)/, '');
  }
  return href;
}

/** The store key of an item: its arXiv id when known, else its canonical URL. */
export function itemKey(arxivId: string | null, url: string): string {
  return arxivId ? `arxiv:${arxivId}` : `url:${canonicalUrl(url)}`;
}

/**
 * The link a reader follows for an item: an item with an arXiv id whose own link is a page named by that id (a paper
 * mirror or aggregator: tldr.takara.ai/p/<id>, huggingface.co/papers/<id>, arxiv.org/pdf/<id>) links to the paper's
 * arXiv page instead; a post about the paper (its own address) keeps its link.
 */
export function readerUrl(url: string, arxivId: string | null): string {
  if (!arxivId) return url;
  const abs = `https://arxiv.org/abs/${arxivId}`;
  let path: string;
  try {
    path = decodeURIComponent(new URL(url).pathname);
  } catch {
    return url;
  }
  const bare = arxivId.replace(/v\d+$/, '');
  return path.includes(bare) || arxivIdFromUrl(url) === arxivId ? abs : url;
}
