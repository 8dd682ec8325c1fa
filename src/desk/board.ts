// The week's board as data: the stored draft beside the ranked candidates (the `list` use case's plan, so the board
// ranks exactly as a build does), the week's decisions with who and when, filtered and searched on the server.
import { minItemsFor, thinReason } from '../core/edition-thin.js';
import type { Edition, EditionItem } from '../core/types.js';
import { frozenEdition, type ListResult } from '../editions/index.js';
import type { PlannedItem } from '../select/types.js';
import { HEADER_KEY } from '../store/desk-apply.js';
import { mailingState } from './desk-send.js';
import type { WeekDeps } from './ports.js';
import type { BoardCandidate, BoardFilter, BoardView } from './views/view-model.js';

const BOARD_PAGE_SIZE = 100;
const SHOWS: BoardFilter['show'][] = ['all', 'chosen', 'candidates', 'pinned', 'skipped', 'excluded'];

/** The board's GET parameters, bounded: unknown values fall back to the defaults. */
export function parseBoardFilter(query: Record<string, string | undefined>): BoardFilter {
  const show = SHOWS.find((value) => value === query.show) ?? 'all';
  const page = Number.parseInt(query.page ?? '1', 10);
  return {
    q: (query.q ?? '').slice(0, 200).trim(),
    show,
    source: (query.source ?? '').slice(0, 100),
    page: Number.isFinite(page) && page >= 1 && page <= 10_000 ? page : 1,
  };
}

export function isFlagged(item: Pick<EditionItem, 'checks'>): boolean {
  return (item.checks as { flagged?: boolean } | undefined)?.flagged === true;
}

/** `listWeek` ranks the week: the `list` use case (capability.ts reuses its plan between requests). */
export async function boardView({
  deps,
  week,
  filter,
  notice,
  listWeek,
}: {
  deps: WeekDeps;
  week: string;
  filter: BoardFilter;
  notice: string | null;
  listWeek: (week: string) => Promise<ListResult>;
}): Promise<BoardView> {
  const { store, config } = deps;
  const [listed, edition, decisions, deskWeek, edits, approval, frozen, mailing] = await Promise.all([
    listWeek(week),
    store.editions.get(week),
    store.decisions.list(week),
    store.desk.week(week),
    store.desk.edits(week),
    store.desk.approval(week),
    frozenEdition(store, week),
    mailingState(deps, week),
  ]);
  const { plan } = listed;
  const chosenKeys = new Set(edition ? edition.items.map((item) => item.key) : listed.picked);
  const editedKeys = new Set(edits.filter((edit) => edit.edited !== null).map((edit) => edit.itemKey));
  const count = deskWeek?.itemCount ?? config.itemsPerEdition;
  const titles = new Map(plan.ranked.map((entry) => [entry.item.key, entry.item.title]));

  const all = plan.ranked.map((entry, index) =>
    toCandidate({
      entry,
      rank: index + 1,
      choice: { chosen: chosenKeys, planned: listed.picked, saved: edition !== null },
      count,
    }),
  );
  const needle = filter.q.toLowerCase();
  const skipped = new Set(
    decisions.filter((entry) => entry.decision === 'skip').map((entry) => entry.itemKey),
  );
  const matching = all.filter((candidate) => matches(candidate, filter, skipped));
  const start = (filter.page - 1) * BOARD_PAGE_SIZE;
  return {
    week,
    edition: edition ? draftOnBoard(edition, editedKeys) : null,
    approval: approval ? { by: approval.approvedBy, at: approval.approvedAt } : null,
    frozen: frozen && {
      publishedAt: frozen.publishedAt,
      mailed: frozen.mailed,
      mailing,
      revisions: (edition?.corrections ?? []).map(({ revision, at, reason, editor }) => ({
        revision,
        at,
        reason,
        editor,
      })),
    },
    canMail: Boolean(config.publish.email.smtp && (config.server.baseUrl ?? config.publish.baseUrl)),
    thin:
      edition && !frozen
        ? thinReason(edition, minItemsFor(config.selection.minItems, config.itemsPerEdition))
        : null,
    itemCount: count,
    configuredCount: config.itemsPerEdition,
    candidates: matching.slice(start, start + BOARD_PAGE_SIZE),
    totalCandidates: all.length,
    matchingCandidates: matching.length,
    pageSize: BOARD_PAGE_SIZE,
    excluded: plan.excluded.filter(
      (entry) => !needle || entry.key.toLowerCase().includes(needle) || entry.reason.includes(needle),
    ),
    decisions: decisions.map((decision) => ({
      itemKey: decision.itemKey,
      title: titles.get(decision.itemKey) ?? decision.itemKey,
      decision: decision.decision,
      by: decision.decidedBy ?? '(command line)',
      at: decision.decidedAt,
    })),
    sources: [...new Set(all.map((candidate) => candidate.source))].sort(),
    filter,
    triage: listed.triage
      ? `LLM triage (${listed.triage.model}, cached): ${listed.triage.rated} of ${listed.triage.shortlist} shortlisted rated.`
      : null,
    notice,
  };
}

/** The board's search: the text box, the source and the "show" choice. */
function matches(candidate: BoardCandidate, filter: BoardFilter, skipped: Set<string>): boolean {
  const needle = filter.q.toLowerCase();
  if (filter.source && candidate.source !== filter.source) return false;
  if (needle && !`${candidate.title}\n${candidate.key}\n${candidate.source}`.toLowerCase().includes(needle))
    return false;
  if (filter.show === 'chosen') return candidate.chosen;
  if (filter.show === 'candidates') return !candidate.chosen;
  if (filter.show === 'pinned') return candidate.pinned;
  if (filter.show === 'skipped') return skipped.has(candidate.key);
  return true;
}

/** The stored draft as the board lists it: which texts an editor changed, which items a check flagged. */
function draftOnBoard(edition: Edition, editedKeys: Set<string>): NonNullable<BoardView['edition']> {
  return {
    title: edition.title,
    intro: edition.intro,
    writer: edition.writer,
    publishedAt: edition.publishedAt ?? null,
    headerEdited: editedKeys.has(HEADER_KEY),
    items: edition.items.map((item, index) => ({
      position: index + 1,
      key: item.key,
      title: item.title,
      url: item.url,
      level: item.level,
      summary: item.summary,
      writer: item.writer,
      edited: editedKeys.has(item.key),
      flagged: isFlagged(item),
    })),
  };
}

interface Choice {
  /** In the saved edition (or, with none saved, the plan's picks). */
  chosen: Set<string>;
  /** The picks of the ranking the board shows. */
  planned: Set<string>;
  saved: boolean;
}

function toCandidate({
  entry,
  rank,
  choice,
  count,
}: {
  entry: PlannedItem;
  rank: number;
  choice: Choice;
  count: number;
}): BoardCandidate {
  const { item, signals, score, pinned } = entry;
  const { key, title, url, upvotes, citations } = item;
  const chosen = choice.chosen.has(key);
  const state = { chosen, planned: choice.planned.has(key), saved: choice.saved };
  return {
    rank,
    key,
    title,
    url,
    source: item.primarySource,
    score,
    relevance: signals.relevance ?? null,
    triage: signals.triage ?? null,
    upvotes,
    citations,
    chosen,
    pinned,
    manual: item.manual !== null,
    why: whyText({ entry, rank, state, count }),
    signals,
  };
}

function whyText({
  entry,
  rank,
  state,
  count,
}: {
  entry: PlannedItem;
  rank: number;
  state: { chosen: boolean; planned: boolean; saved: boolean };
  count: number;
}): string {
  if (entry.item.manual)
    return `Added by hand${entry.item.manual.note ? `: ${entry.item.manual.note}` : ''}.`;
  if (entry.pinned) return 'Pinned by an editor.';
  // The saved draft was built from other data or settings than this ranking: say so rather than contradict it.
  if (state.saved && state.chosen !== state.planned)
    return state.chosen
      ? `In the saved draft; the ranking now leaves it out (rank ${rank}). Rebuild the draft to update it.`
      : `The ranking now chooses it (rank ${rank}); the saved draft does not have it. Rebuild the draft to update it.`;
  if (state.chosen) return `Chosen: rank ${rank} by score.`;
  return leftOutText(entry.signals, count);
}

function leftOutText(signals: PlannedItem['signals'], count: number): string {
  if (signals.offTopic) return 'Left out: off topic for this audience.';
  if (signals.leftOutForSourceCap) return 'Left out: its source already has selection.maxPerSource items.';
  if (signals.leftOutForThemeCap) return 'Left out: its theme already fills half the edition.';
  if (signals.leftOutForPostCap) return 'Left out: the edition already has selection.mix.maxPosts posts.';
  if (signals.leftOutForMix) return 'Left out: a post took its place (selection.mix.minPosts).';
  if (signals.leftOutAsSimilar || (signals.diversityPenalty ?? 0) > 0)
    return 'Left out: too close to an item already chosen.';
  if (signals.noText) return 'Left out: no text to write from.';
  return `Left out: below the cut (${count} items).`;
}
