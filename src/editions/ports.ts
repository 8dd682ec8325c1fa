// The narrow ports each editions use case is handed: only the deps it reads and only the store's port groups it
// calls, so a signature says what a use case touches. The composition root passes the whole DigestDeps, which
// fits each of these structurally; a test may hand in less.

import type { chatAfterPublish } from '../channels/index.js';
import type { DigestDeps } from '../deps.js';
import type { Store } from '../store/types.js';
import type { GuardGroups, GuardStore } from './edition-guard.js';
import type { PolicyStore } from './selection.js';

/** The deps fields `K` (never the whole store) and a store narrowed to the groups `S`. */
type Narrow<K extends Exclude<keyof DigestDeps, 'store'>, S extends keyof Store> = Pick<DigestDeps, K> & {
  store: Pick<Store, S>;
};

/** The embeddings model learned taste reads items with: vectors are cached in the store. */
export type EmbedderDeps = Narrow<'config' | 'env' | 'signal', 'cache'>;

/** A LLM client (live or cache-only) for triage, writing, checks and eval: every answer is cached in the store. */
export type LlmDeps = Narrow<'config' | 'log' | 'env' | 'signal', 'cache'>;

/** LLM triage over a LLM client it is handed: no store. */
export type TriageDeps = Pick<DigestDeps, 'config' | 'log' | 'signal'>;

/** Papers read in full: the stored texts, fetched ones (guarded HTTP), and the arXiv versions cached. */
export type PaperDeps = Narrow<'config' | 'http' | 'log' | 'clock' | 'signal', 'paperTexts' | 'cache'>;

/** An edition's other languages, stored beside it. */
export type TranslateDeps = Narrow<'config' | 'log' | 'signal', 'translations'>;

/** `list`: the week ranked as a build ranks it (policy, cached triage, stored taste vectors) beside the saved edition. */
export type ListDeps = Pick<DigestDeps, 'config' | 'log' | 'env' | 'signal'> & { store: PolicyStore };

/** `taste`: the editor's history (editions, decisions, candidates), the reset mark in the cache, readers' clicks. */
export type TasteDeps = Narrow<
  'config' | 'log' | 'clock' | 'env' | 'signal',
  'editions' | 'items' | 'decisions' | 'cache' | 'clicks'
>;

/** `decide`: an item looked up, a decision stored. */
export type DecideDeps = Narrow<never, 'items' | 'decisions' | GuardGroups>;

/** `add`: a stored item re-pinned, or one fetched (guarded HTTP) and stored. */
export type AddDeps = Narrow<'config' | 'http' | 'clock', 'items' | GuardGroups>;

/** `email`: a stored edition rendered to files (its item images fetched) and sent over SMTP. */
export type EmailDeps = Narrow<'config' | 'fs' | 'http' | 'log' | 'env', 'editions'>;

/**
 * `publish`: the edition marked published, the site rendered from the stored editions and translations (item images
 * fetched), then the chat step — which takes whatever deps channels' chatAfterPublish asks for (today the whole
 * DigestDeps, so publish still sees the whole store until channels narrows it; this type follows it then).
 */
export type PublishDeps = Narrow<
  'config' | 'fs' | 'http' | 'log' | 'clock',
  'editions' | 'translations' | 'revisions' | 'siteGenerations'
> &
  Parameters<typeof chatAfterPublish>[0];

/** `correct`: the next revision stored with who and why, the audit log, then the site published again. */
export type CorrectDeps = PublishDeps & { store: Pick<Store, 'revisions' | 'desk'> };

/** The weekly job: a build, then a publish (its deps are the two together). */
export type ScheduleDeps = BuildDeps & PublishDeps;

/** `eval`: the week's picks (as `list`), their stored full text, written on a LLM client per model and timed. */
export type EvalDeps = ListDeps & PaperDeps & LlmDeps;

/**
 * The stages that ask the network: ingest stores items and source state (its deadlines on the clock's timer),
 * enrichment patches items and caches.
 */
export type SourceStageDeps = Narrow<
  'config' | 'http' | 'log' | 'clock' | 'env' | 'signal',
  'items' | 'sourceState' | 'cache'
>;

/**
 * `build`: every deps field and most of the store (candidates, editions, decisions, desk week, cache, items, source
 * state, paper texts, translations) — a build runs every stage. Still not subscribers, outbox, jobs, search, editors.
 */
export type BuildDeps = Omit<DigestDeps, 'store'> & {
  store: PolicyStore & GuardStore & Pick<Store, 'changes'>;
} & SourceStageDeps &
  PaperDeps &
  TranslateDeps &
  EmbedderDeps &
  LlmDeps;

/** What tells whether the store holds anything yet (empty-store.ts). */
export type StatusStore = Pick<Store, 'ingestRuns' | 'editions'>;

/** What `digest build` (and the desk's rebuild, the weekly schedule) asks of a build. */
export interface BuildInput {
  week: string;
  /**
   * Folder the draft's page is written to (checked by the entry point before any work): never the published site,
   * which only a publish changes (refused with a ConfigError).
   */
  outDir: string;
  ingest: boolean;
  enrich: boolean;
  offline: boolean;
  check: boolean;
  refresh: boolean;
  /** This build's overrides of the LLM client (the CLI's --model, --retry-failed, --max-cost). */
  llm?: BuildLlmInput;
}

export interface BuildLlmInput {
  model?: string;
  /** Ask again only the LLM calls whose cached answer failed validation. */
  retryFailed?: boolean;
  maxCost?: number;
}
