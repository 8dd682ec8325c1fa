// Tagged templates that escape every interpolation: html`…` (pages, email, feed fragments), xml`…` (sitemap) and
// md`…` (Markdown). A value is text unless it is a fragment the same kind of template already rendered, so no
// renderer ever calls an escape function itself. raw() is for constant markup (the stylesheet, the favicon) only.

type Kind = 'html' | 'xml' | 'markdown';

/** Rendered output of one template kind; interpolated into a template of the same kind as-is. */
export class Fragment {
  constructor(
    readonly kind: Kind,
    readonly value: string,
  ) {}
  toString(): string {
    return this.value;
  }
}

/** A value a template accepts: text (escaped), numbers, fragments, nothing, or lists of these (joined). */
export type Interpolation = string | number | Fragment | null | undefined | false | readonly Interpolation[];

// C0/C1 controls (tab and newline kept for text) and bidirectional overrides could hide or reorder text;
// XML 1.0 forbids most controls even escaped.
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

const MARKUP_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function escapeMarkup(text: string): string {
  return text
    .replace(CONTROLS, ' ')
    .replace(/[&<>"']/g, (character) => MARKUP_ESCAPES[character] ?? character);
}

/**
 * Source text stays text in Markdown: characters that open Markdown or inline HTML anywhere (emphasis, code, links,
 * raw HTML, entities, GFM tables/strikethrough/math) get a backslash, as does a leading block marker (heading, list,
 * quote, rule). Line breaks become spaces, so a value can never start a block of its own.
 */
function escapeMarkdownText(text: string): string {
  return text
    .replace(CONTROLS, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\\`*_[\]<>|~&$@]/g, '\\$&')
    .replace(/^([#+=-])/, '\\$1')
    .replace(/^(\d+)([.)])/, '$1\\$2');
}

const ESCAPERS: Record<Kind, (text: string) => string> = {
  html: escapeMarkup,
  xml: escapeMarkup,
  markdown: escapeMarkdownText,
};

function interpolate(kind: Kind, value: Interpolation): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Fragment) {
    if (value.kind !== kind)
      throw new TypeError(`A ${value.kind} fragment cannot go into a ${kind} template.`);
    return value.value;
  }
  if (Array.isArray(value)) return value.map((entry: Interpolation) => interpolate(kind, entry)).join('');
  return ESCAPERS[kind](String(value));
}

function templateTag(kind: Kind) {
  return (strings: TemplateStringsArray, ...values: Interpolation[]): Fragment => {
    let out = strings[0] ?? '';
    values.forEach((value, index) => {
      out += interpolate(kind, value) + (strings[index + 1] ?? '');
    });
    return new Fragment(kind, out);
  };
}

export const html = templateTag('html');
export const xml = templateTag('xml');
export const md = templateTag('markdown');

/** Constant markup written in this folder (never source text): the stylesheet, the favicon, a policy string. */
export function raw(value: string, kind: Kind = 'html'): Fragment {
  return new Fragment(kind, value);
}

/** Fragments joined with a separator, for lists of lines or blocks. */
export function join(fragments: readonly Fragment[], separator: string, kind: Kind = 'html'): Fragment {
  for (const fragment of fragments)
    if (fragment.kind !== kind) throw new TypeError(`A ${fragment.kind} fragment cannot go into ${kind}.`);
  return new Fragment(kind, fragments.map((fragment) => fragment.value).join(separator));
}

/**
 * A Markdown link destination: only the WHATWG-normalised http(s) form gets here (no spaces, "<" or ">"), written
 * inside <…> with any parenthesis or backslash escaped.
 */
export function markdownUrl(url: string): Fragment {
  return new Fragment('markdown', `<${url.replace(/[\\<>\s]/g, encodeURIComponent)}>`);
}

/** How long text is once written as markup (entities included): what validators measure. */
export function markupLength(text: string): number {
  return escapeMarkup(text).length;
}

/**
 * JSON for files browsers may open or pages may inline: "<", ">", "&" and the JavaScript line separators become
 * \u escapes, so no value can close a script element or start markup wherever the JSON lands.
 */
export function jsonText(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(
    /[<>&\u2028\u2029]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
