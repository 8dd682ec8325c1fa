// Domain types shared by every stage. No IO here, and nothing inside src is imported.

export const LEVELS = ['Accessible', 'Intermediate', 'Advanced'] as const;
export type Level = (typeof LEVELS)[number];

/** An edition covers the 7 UTC days ending on its date, inclusive: start = date − 6 days. */
export interface DateWindow {
  /** YYYY-MM-DD, first day included */
  start: string;
  /** YYYY-MM-DD, last day included (the edition date) */
  end: string;
}

/** What every item has, as a source yields it and as it is stored. */
interface ItemFields {
  /** Absolute URL of the item as the (first) source links it. */
  url: string;
  title: string;
  /** Plain text (abstract, description or readable post text), whitespace-normalised. */
  text: string;
  authors: string[];
  arxivId: string | null;
  image: string | null;
  /** ISO 8601 UTC. For daily lists (HF) this is the list day, which decides the window. */
  publishedAt: string;
  /** HF upvotes (or another source's popularity count) when known; stored: the most over its sources. */
  upvotes: number | null;
}

/** What a source adapter yields: one item as the source described it, text already plain. */
export interface SourceItem extends ItemFields {
  sourceId: string;
  /** The work's code repository as the source lists it (HF `githubRepo`): an https://github.com/<owner>/<repo> URL. */
  githubRepo?: string | null;
}

export interface ItemSourceRef {
  sourceId: string;
  url: string;
  upvotes: number | null;
  /** The code repository this source lists for the item (HF `githubRepo`); absent when it lists none. */
  githubRepo?: string;
}

/** An item as stored: one row per real-world thing, however many sources carried it. */
export interface StoredItem extends ItemFields {
  /** Stable key: `arxiv:<id>` when an arXiv id is known, otherwise `url:<canonical url>`. */
  key: string;
  canonicalUrl: string;
  citations: number | null;
  /** First source that carried it: shown in the footer as "via SOURCE". */
  primarySource: string;
  sources: ItemSourceRef[];
  /** Set for items an editor added by hand; they are pinned into that edition. */
  manual: { week: string; note: string | null } | null;
  firstSeenAt: string;
}

export type SourceStatus = 'ok' | 'error';

export interface SourceReport {
  id: string;
  status: SourceStatus;
  items: number;
  error?: string;
  warnings?: string[];
  /** Nothing changed since the last run (HTTP 304); not written to edition.json. */
  notModified?: boolean;
}

/** One part of a paper's full text (arXiv's LaTeXML rendering), plain text with the maths and references out. */
export interface PaperSection {
  /** The page's own anchor ("S4", "A1", "Sx1"); "abstract" for the abstract. */
  id: string;
  /** The number the paper shows ("4", "IV", "A"), or null for unnumbered parts (abstract, acknowledgements). */
  number: string | null;
  title: string;
  kind: 'abstract' | 'section' | 'appendix';
  /** Paragraphs and subsection titles, one per line. */
  text: string;
  /** Figure and table captions of the section, in order. */
  captions: string[];
}

/** A paper read in full: what the HTML rendering says, section by section. Stored once per arXiv version. */
export interface PaperText {
  arxivId: string;
  /** The version the page states (arxiv.org/html shows it), or null when the page does not say. */
  version: number | null;
  /** The page it was read from: section links are `${url}#${section.id}`. */
  url: string;
  title: string;
  /** The abstract first, then the numbered sections in paper order; references are never kept. */
  sections: PaperSection[];
  /** External links of the body (footnotes included, references not), with the paragraph each stands in. */
  links: PaperLink[];
}

export interface PaperLink {
  url: string;
  /** The paragraph around the link (at most 400 characters): whether it is the paper's own code or a tool it used. */
  context: string;
}

/** Where a takeaway comes from: the supporting words and the section of the paper (or the abstract) they are in. */
export interface TakeawaySource {
  quote: string;
  /** Section anchor ("S4") or "abstract". */
  section: string;
  /** How the section is shown ("§4", "Abstract"). */
  label: string;
  /** The section on the paper's page (`…/html/<id>v<N>#S4`), or null when the item was written from its abstract. */
  url: string | null;
}

export const FACT_KINDS = ['code', 'weights', 'dataset', 'licence', 'compute', 'benchmarks'] as const;
export type FactKind = (typeof FACT_KINDS)[number];

/**
 * Something a practitioner can use, stated by the source: a code repository, released weights or data, a licence,
 * the compute reported, the benchmarks. `quote` is the source's own words the fact was read from.
 */
export interface PractitionerFact {
  kind: FactKind;
  /** Shown on the card: "Code", "Weights", "Apache-2.0", "512×A100", "MMLU, GSM8K". */
  label: string;
  url: string | null;
  quote: string;
}

export interface WrittenItem {
  summary: string;
  takeaways: [string, string, string];
  level: Level;
  /** One line kept in the store, not shown. */
  levelReason: string;
  /** Which writer produced it, e.g. "extractive" or "openai:gpt-4.1-mini". */
  writer: string;
  /** Faithfulness verdicts, when a check ran. */
  checks?: unknown;
  /** Where each takeaway comes from, in takeaway order (null: not traced). */
  support?: (TakeawaySource | null)[] | undefined;
}

export interface EditionItem {
  key: string;
  title: string;
  /**
   * The item's anchor on the page once a correction changed its title: the one its first published title gave, so
   * `#item-…` links already shared still land. Absent: the anchor comes from the title.
   */
  anchor?: string;
  url: string;
  level: Level;
  /** Why that level: kept in the store with the edition, not shown and not in edition.json. */
  levelReason?: string;
  authors: string[];
  summary: string;
  takeaways: [string, string, string];
  /** Configured id of the primary source. */
  source: string;
  /** Its name as readers see it ("via Simon Willison"); editions built before it existed have none. */
  sourceName?: string;
  /** Every source id that carried the item. */
  sources: string[];
  arxivId: string | null;
  citations: number | null;
  image: string | null;
  publishedAt: string;
  writer: string;
  /** Why selection chose it: the signals and the final score. */
  why?: Record<string, number | string | boolean | null>;
  /** Faithfulness verdicts, when a check ran. */
  checks?: unknown;
  /**
   * What it was written from: "full-text" (the paper's sections) or "abstract" (its abstract or the post's text).
   * Editions before full text have neither this nor the fields below, and render as before.
   */
  readFrom?: 'full-text' | 'abstract';
  /** Why a paper was written from its abstract ("no HTML rendering on arXiv"). */
  readNote?: string;
  /** Where each takeaway comes from, in takeaway order (null: not traced). */
  support?: (TakeawaySource | null)[] | undefined;
  /** What a practitioner can use, as the source states it. */
  facts?: PractitionerFact[];
}

export interface Edition {
  /** YYYY-MM-DD */
  date: string;
  name: string;
  title: string;
  intro: string;
  /** Writer of the edition title and intro (and of the items unless they say otherwise). */
  writer: string;
  items: EditionItem[];
  sources: SourceReport[];
  /** LLM usage totals when an LLM wrote any of it. */
  usage?: unknown;
  publishedAt?: string | null | undefined;
  /**
   * The corrections published since the first revision, oldest first: this is revision `corrections.length + 1`.
   * Absent on an edition never corrected (revision 1). Earlier revisions are kept whole in the store.
   */
  corrections?: EditionCorrection[];
}

/** The revision an edition is at: 1, plus one per published correction. */
export const editionRevision = (edition: Pick<Edition, 'corrections'>): number =>
  (edition.corrections?.length ?? 0) + 1;

/** One published correction of an edition: the revision it made, when, by whom and why. */
export interface EditionCorrection {
  revision: number;
  /** ISO 8601. */
  at: string;
  reason: string;
  editor: string;
}

/** What a reader chose for their mail (stored with the subscriber; none: the whole edition, first language). */
export interface ReaderPreferences {
  /** A configured language tag ("de"), or null for the language the edition is written in. */
  language: string | null;
  /** Topic names from the ranking's topic list, in the reader's order; empty: no topic first. */
  topics: string[];
  /** Levels wanted; empty: every level. */
  levels: Level[];
  /** Only the items of their topics and levels in full; the rest as a list of titles. */
  onlyMyTopics: boolean;
}

/** One item's text in another language; the rest of the item (title, links, level) is the original's. */
export interface TranslatedItem {
  summary: string;
  takeaways: [string, string, string];
  levelReason?: string;
}

/** An edition's text in one more language: the title, the intro and each item's text by item key. */
export interface EditionTranslation {
  /** A configured language tag ("de"). */
  language: string;
  title: string;
  intro: string;
  items: Record<string, TranslatedItem>;
  /** The model that translated it. */
  writer: string;
}
