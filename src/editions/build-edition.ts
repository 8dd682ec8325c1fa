// Build one edition: candidates from the store → plan (pure) → write → saved edition.
// Ingest and enrichment happen before, passed in as functions, so each can be left out (`--no-ingest`, tests).

import type { Config } from '../config/schema.js';
import { systemClock } from '../core/clock.js';
import { editionWindow } from '../core/dates.js';
import { BuildError } from '../core/errors.js';
import { readerUrl } from '../core/ids.js';
import type { Logger } from '../core/ports.js';
import { sourceName } from '../core/source-names.js';
import type {
  Edition,
  EditionItem,
  PaperText,
  SourceReport,
  StoredItem,
  WrittenItem,
} from '../core/types.js';
import type { FullTextResult } from '../enrich/full-text.js';
import { withStoredLinks } from '../enrich/stored-links.js';
import type { Embedder } from '../llm/embeddings.js';
import { loadTaste } from '../select/taste-history.js';
import type { EditionPlan, PlannedItem, SelectionPolicy } from '../select/types.js';
import type { CachePort, CandidatesPort, DecisionsPort, DeskPort, EditionsPort } from '../store/types.js';

/** What building an edition reads and writes. */
// The desk's week settings (count, order) and editor's versions of texts are applied by every build.
export type BuildStore = CandidatesPort &
  EditionsPort &
  DecisionsPort &
  CachePort &
  Pick<DeskPort, 'deskWeek' | 'keepEditorEdits'>;

import { practitionerFacts } from '../write/facts.js';
import { itemForWriting } from '../write/item-input.js';
import { CHARS_PER_TOKEN, paperForWriting, partsText } from '../write/paper-input.js';
import type { ItemForWriting, Writer } from '../write/types.js';

export interface BuildEditionOptions {
  date: string;
  config: Config;
  store: BuildStore;
  writer: Writer;
  log: Logger;
  planEdition: (candidates: StoredItem[], policy: SelectionPolicy, date: string) => EditionPlan;
  /** Runs ingest and returns one report per source; omitted with --no-ingest. */
  ingest?: () => Promise<SourceReport[]>;
  /** Enriches candidates (arXiv, citations, page text); failures are warnings. */
  enrich?: (items: StoredItem[]) => Promise<{ items: StoredItem[]; warnings: string[] }>;
  /**
   * Reads the picked papers in full (enrich/full-text.ts: stored, or fetched once per version); omitted when
   * `llm.fullText` is false, and every paper is written from its abstract.
   */
  readPapers?: (arxivIds: string[]) => Promise<Pick<FullTextResult, 'papers' | 'missing' | 'warnings'>>;
  /** The embeddings model learned taste reads items with (`llm.embed`); tf-idf without one, or when it fails. */
  tasteEmbedder?: Embedder;
  /** LLM triage scores (0–10) by item key, when a model is configured; given the offline policy. */
  triage?: (items: StoredItem[], policy: SelectionPolicy) => Promise<Map<string, number>>;
  /** What the LLM calls of this build cost, read once writing is done; saved with the edition. */
  usage?: () => Edition['usage'] | undefined;
  onStage?: (stage: BuildStage, detail: string) => void;
  /** Today, from the caller's clock (a future week is explained, not just reported empty). */
  today?: Date;
  /** Checked between stages: an aborted build stops before the next stage and saves nothing. */
  signal?: AbortSignal;
  onItemWritten?: (done: number, total: number, key: string) => void;
}

export type BuildStage = 'ingest' | 'enrich' | 'select' | 'write' | 'save';

export interface BuildResult {
  edition: Edition;
  plan: EditionPlan;
  warnings: string[];
  /** What reading papers in full cost in source text: the usage table prints it beside the tokens. */
  fullText: FullTextSummary;
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

function summariseReading(inputs: ItemForWriting[], reading: PicksReading): FullTextSummary {
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

export async function buildEdition(options: BuildEditionOptions): Promise<BuildResult> {
  const { date, config, store, log } = options;
  const window = editionWindow(date);
  const warnings: string[] = [];

  let reports: SourceReport[] = [];
  if (options.ingest) {
    options.onStage?.('ingest', `${window.start} … ${window.end}`);
    reports = await options.ingest();
    for (const report of reports) {
      if (report.error) warnings.push(`${report.id}: ${report.error}`);
      for (const warning of report.warnings ?? []) warnings.push(`${report.id}: ${warning}`);
    }
    if (reports.length > 0 && reports.every((report) => report.status === 'error')) {
      throw new BuildError(
        `Every source failed, so there is nothing new to build from:\n${reports
          .map((report) => `  - ${report.id}: ${report.error}`)
          .join(
            '\n',
          )}\nCheck the network and the source URLs in your config, or build from what is stored with --no-ingest.`,
      );
    }
  }

  options.signal?.throwIfAborted();
  let candidates = await weekCandidates(store, window);
  if (candidates.length === 0) {
    const future = window.start > (options.today ?? systemClock.now()).toISOString().slice(0, 10);
    throw new BuildError(
      future
        ? `No candidates for the week ${window.start} … ${window.end}: that week has not begun yet. Leave out --week to build the most recent Monday.`
        : `No candidates for the week ${window.start} … ${window.end}. Ingest sources for that week (digest build --week ${date}) or add items with "digest add".`,
    );
  }
  if (options.enrich) {
    options.onStage?.('enrich', `${candidates.length} candidates`);
    const enriched = await options.enrich(candidates);
    candidates = enriched.items;
    warnings.push(...enriched.warnings);
  }

  options.signal?.throwIfAborted();
  options.onStage?.('select', `${candidates.length} candidates`);
  const policy = await selectionPolicy(config, store, date, {
    candidates,
    log,
    ...(options.tasteEmbedder ? { embedder: options.tasteEmbedder } : {}),
  });
  if (options.triage) policy.relevance = await options.triage(candidates, policy);
  const plan = options.planEdition(candidates, policy, date);
  // The editor's order from the desk: listed keys first, in that order; the rest keep the plan's order.
  const order = (await store.deskWeek(date))?.order;
  if (order?.length) plan.picks = editorOrder(plan.picks, order);
  if (plan.picks.length === 0) {
    throw new BuildError(`Nothing left to pick for ${date}: every candidate was excluded or skipped.`);
  }

  options.signal?.throwIfAborted();
  const reading = await readPicks(plan.picks, options);
  warnings.push(...reading.warnings);
  options.onStage?.('write', `${plan.picks.length} items with the ${options.writer.name} writer`);
  const inputs = plan.picks.map((pick) => {
    const paper = reading.papers.get(pick.item.key);
    const input = toWritingInput(pick);
    return paper ? { ...input, paper: paperForWriting(paper, config.llm.maxInputTokens) } : input;
  });
  const written = await options.writer.writeItems(inputs, {
    name: config.name,
    audience: config.audience,
    log,
    ...(options.onItemWritten ? { onItemWritten: options.onItemWritten } : {}),
  });
  const header = await options.writer.writeEdition(
    inputs.map((input, index) => ({ ...input, ...written[index]! })),
    { name: config.name, audience: config.audience, log },
  );

  let edition: Edition = {
    date,
    name: config.name,
    title: header.title,
    intro: header.intro,
    writer: header.writer,
    items: plan.picks.map((pick, index) =>
      withReading(toEditionItem(pick, written[index]!, config.sources), pick.item, reading),
    ),
    sources: reports,
  };
  const usage = options.usage?.();
  if (usage !== undefined) edition.usage = usage;
  options.signal?.throwIfAborted();
  options.onStage?.('save', date);
  // What was just written is the generated version; an editor's version of a field (the desk) stays in place.
  edition = await store.keepEditorEdits(edition);
  await store.saveEdition(edition);
  return { edition, plan, warnings, fullText: summariseReading(inputs, reading) };
}

interface PicksReading {
  /** Papers read in full, by item key. */
  papers: Map<string, PaperText>;
  /** Why a paper was written from its abstract, by item key. */
  notes: Map<string, string>;
  warnings: string[];
}

const FULL_TEXT_OFF = 'written from the abstract: reading papers in full is turned off (llm.fullText)';

async function readPicks(picks: PlannedItem[], options: BuildEditionOptions): Promise<PicksReading> {
  const reading: PicksReading = { papers: new Map(), notes: new Map(), warnings: [] };
  const papers = picks.filter((pick) => pick.item.arxivId !== null).map((pick) => pick.item);
  if (!options.readPapers) {
    for (const item of papers) reading.notes.set(item.key, FULL_TEXT_OFF);
    return reading;
  }
  const result = await options.readPapers(papers.map((item) => item.arxivId!));
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

/**
 * The week's candidates as every ranking sees them: stored items plus what enrichment cached about them (a post's
 * paper), read without fetching — so build, `list` and the desk rank the same inputs.
 */
export async function weekCandidates(
  store: Pick<CandidatesPort, 'listCandidates'> & CachePort,
  window: ReturnType<typeof editionWindow>,
): Promise<StoredItem[]> {
  return withStoredLinks(await store.listCandidates(window), store);
}

export interface PolicyOptions {
  relevance?: Map<string, number>;
  /** The week's candidates, scored by learned taste up front (embeddings are fetched before planning). */
  candidates?: readonly StoredItem[];
  /** Learned taste from embeddings instead of tf-idf (falls back to tf-idf with a warning on `log`). */
  embedder?: Embedder | null;
  log?: Logger;
}

/** The selection policy for one week: config weights, editor decisions, earlier editions' items, learned taste. */
export async function selectionPolicy(
  config: Config,
  store: BuildStore,
  date: string,
  { relevance, ...taste }: PolicyOptions = {},
): Promise<SelectionPolicy> {
  const decisions = await store.decisions(date);
  const policy: SelectionPolicy = {
    sourceWeights: Object.fromEntries(config.sources.map((source) => [source.id, source.weight])),
    audience: config.audience,
    topics: config.selection.topics ?? [],
    excludeKeys: await store.featuredBefore(date),
    itemsPerEdition: (await store.deskWeek(date))?.itemCount ?? config.itemsPerEdition,
    pinnedKeys: new Set([...decisions].filter(([, decision]) => decision === 'pin').map(([key]) => key)),
    skippedKeys: new Set([...decisions].filter(([, decision]) => decision === 'skip').map(([key]) => key)),
  };
  if (config.selection.maxPerSource) policy.maxPerSource = config.selection.maxPerSource;
  if (config.selection.offTopics) policy.offTopics = config.selection.offTopics;
  policy.defaultTopics = config.selection.defaultTopics;
  policy.mix = config.selection.mix;
  if (config.selection.learnTaste) policy.taste = (await loadTaste(store, date, taste)).signal;
  if (relevance) policy.relevance = relevance;
  return policy;
}

function editorOrder(picks: PlannedItem[], order: readonly string[]): PlannedItem[] {
  const rank = new Map(order.map((key, index) => [key, index]));
  const at = (pick: PlannedItem) => rank.get(pick.item.key) ?? order.length;
  return picks
    .map((pick, index) => ({ pick, index }))
    .sort((a, b) => at(a.pick) - at(b.pick) || a.index - b.index)
    .map(({ pick }) => pick);
}

/** A pick as the writer takes it (the rule lives with the writer: `write/item-input.ts`). */
export function toWritingInput({ item }: PlannedItem): ItemForWriting {
  return itemForWriting(item);
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
