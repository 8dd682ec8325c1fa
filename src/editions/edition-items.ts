// From picks to the edition's items: what the writer is given for each pick (its abstract, or its paper read in
// full), and what the edition keeps of each written item (why it was picked, what it was written from, its facts).
import type { Config } from '../config/config-schema.js';
import { readerUrl } from '../core/ids.js';
import { sourceName } from '../core/source-names.js';
import type { EditionItem, PaperText, StoredItem, WrittenItem } from '../core/types.js';
import type { FullTextResult } from '../enrich/full-text.js';
import type { PlannedItem } from '../select/types.js';
import { practitionerFacts } from '../write/facts.js';
import { itemForWriting } from '../write/item-input.js';
import { CHARS_PER_TOKEN, paperForWriting, partsText } from '../write/paper-input.js';
import type { ItemForWriting } from '../write/types.js';

/** Reads papers in full (enrich/full-text.ts: stored, or fetched once per version). */
export type ReadPapers = (
  arxivIds: string[],
) => Promise<Pick<FullTextResult, 'papers' | 'missing' | 'warnings'>>;

export interface PicksReading {
  /** Papers read in full, by item key. */
  papers: Map<string, PaperText>;
  /** Why a paper was written from its abstract, by item key. */
  notes: Map<string, string>;
  warnings: string[];
}

export interface FullTextSummary {
  /** Picks with an arXiv id, and how many of them were written from their sections. */
  papers: number;
  read: number;
  /** Source text the writer got for the papers read in full, and their abstracts alone (≈ 4 characters a token). */
  sourceTokens: { fullText: number; abstract: number };
  /** Why the others were written from their abstracts, with how many papers each. */
  abstractOnly: Record<string, number>;
}

const FULL_TEXT_OFF = 'written from the abstract: reading papers in full is turned off (llm.fullText)';

/** The picked papers read in full where they can be; without a reader every paper is written from its abstract. */
export async function readPicks(picks: PlannedItem[], readPapers?: ReadPapers): Promise<PicksReading> {
  const reading: PicksReading = { papers: new Map(), notes: new Map(), warnings: [] };
  const papers = picks.filter((pick) => pick.item.arxivId !== null).map((pick) => pick.item);
  if (!readPapers) {
    for (const item of papers) reading.notes.set(item.key, FULL_TEXT_OFF);
    return reading;
  }
  const result = await readPapers(papers.map((item) => item.arxivId!));
  reading.warnings.push(...result.warnings);
  for (const item of papers) {
    const record = result.papers.get(item.arxivId!);
    if (record?.status === 'read' && record.paper) reading.papers.set(item.key, record.paper);
    else {
      const why = record?.note ?? result.missing.get(item.arxivId!) ?? 'not read in full';
      reading.notes.set(item.key, `written from the abstract: ${why.replace(/^not read in full: /, '')}`);
    }
  }
  return reading;
}

/** A pick as the writer takes it (the rule lives with the writer: `write/item-input.ts`). */
export function toWritingInput({ item }: PlannedItem): ItemForWriting {
  return itemForWriting(item);
}

/** Each pick as the writer takes it, with its paper's sections when it was read in full. */
export function writingInputs(
  picks: PlannedItem[],
  reading: PicksReading,
  maxInputTokens: Config['llm']['maxInputTokens'],
): ItemForWriting[] {
  return picks.map((pick) => {
    const paper = reading.papers.get(pick.item.key);
    const input = toWritingInput(pick);
    return paper ? { ...input, paper: paperForWriting(paper, maxInputTokens) } : input;
  });
}

export function summariseReading(inputs: ItemForWriting[], reading: PicksReading): FullTextSummary {
  const abstractOnly: Record<string, number> = {};
  for (const note of reading.notes.values()) {
    const why = note.replace(/^written from the abstract: /, '');
    abstractOnly[why] = (abstractOnly[why] ?? 0) + 1;
  }
  const tokens = (text: string) => Math.ceil(text.length / CHARS_PER_TOKEN);
  const read = inputs.filter((input) => input.paper?.parts.length);
  return {
    papers: inputs.filter((input) => input.arxivId !== null).length,
    read: read.length,
    sourceTokens: {
      fullText: read.reduce((sum, input) => sum + tokens(partsText(input.paper!.parts)), 0),
      abstract: read.reduce((sum, input) => sum + tokens(input.text), 0),
    },
    abstractOnly,
  };
}

/** The edition's item for a written pick: what the edition shows, why it was picked, what it was written from. */
export function editionItem({
  pick,
  written,
  sources,
  reading,
}: {
  pick: PlannedItem;
  written: WrittenItem;
  sources: Config['sources'];
  reading: PicksReading;
}): EditionItem {
  return withReading(toEditionItem(pick, written, sources), pick.item, reading);
}

/** What an item was written from, where its takeaways come from, and what a practitioner can use. */
function withReading(edition: EditionItem, item: StoredItem, reading: PicksReading): EditionItem {
  const paper = reading.papers.get(item.key) ?? null;
  const note = reading.notes.get(item.key);
  const listedRepo = item.sources.find((ref) => ref.githubRepo)?.githubRepo ?? null;
  const facts = practitionerFacts({ paper, text: item.text, listedRepo });
  return {
    ...edition,
    ...(item.arxivId ? { readFrom: paper ? ('full-text' as const) : ('abstract' as const) } : {}),
    ...(note ? { readNote: note } : {}),
    ...(facts.length > 0 ? { facts } : {}),
  };
}

function toEditionItem(pick: PlannedItem, written: WrittenItem, sources: Config['sources']): EditionItem {
  const { item } = pick;
  return {
    key: item.key,
    title: item.title,
    url: readerUrl(item.url, item.arxivId),
    level: written.level,
    levelReason: written.levelReason,
    authors: item.authors,
    summary: written.summary,
    takeaways: written.takeaways,
    source: item.primarySource,
    sourceName: sourceName(
      item.primarySource,
      sources.find((source) => source.id === item.primarySource),
    ),
    sources: [...new Set(item.sources.map((ref) => ref.sourceId))],
    arxivId: item.arxivId,
    citations: item.citations,
    image: item.image,
    publishedAt: item.publishedAt,
    writer: written.writer,
    why: { score: round(pick.score), pinned: pick.pinned, ...roundAll(pick.signals) },
    ...(written.checks !== undefined ? { checks: written.checks } : {}),
    ...(written.support?.some((source) => source !== null) ? { support: written.support } : {}),
  };
}

const round = (value: number) => Math.round(value * 1000) / 1000;
const roundAll = (signals: Record<string, number>) =>
  Object.fromEntries(Object.entries(signals).map(([name, value]) => [name, round(value)]));
