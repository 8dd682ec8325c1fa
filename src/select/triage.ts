// LLM triage: a cheap batched relevance score (0–10) per candidate, from titles and first lines only. Every call goes
// through the model road (cache, usage and cost under "triage", the budget, rate limit, timeouts). Each item's
// outcome is cached too — its score, or that the model gave it none — so a rebuild asks nothing; `retryFailed` asks
// again for the items without a score; a failed batch just leaves its items to the offline relevance signal.
import { createHash } from 'node:crypto';
import type { StoredItem } from '../core/types.js';
import type { ModelRoad, RoadModel } from '../llm/model-road.js';
import { callStructured } from '../llm/structured-call.js';
import type { Store } from '../store/types.js';
import {
  snippetOf,
  TRIAGE_PROMPT_VERSION,
  type TriageCandidate,
  type TriageOutput,
  triageOutputSchema,
  triageSystemPrompt,
  triageUserPrompt,
} from './triage-prompt.js';

export const TRIAGE_CACHE_NAMESPACE = 'triage';
const CACHE_TTL_SECONDS = 90 * 86_400;

export interface TriageOptions {
  /** The run's model road; triage uses its "triage" model (none: no triage). */
  road: ModelRoad;
  audience: string;
  /** Candidates per call (default 40). */
  batchSize?: number;
  /** Where each item's outcome is cached (the road's store, usually). */
  store?: Pick<Store, 'cacheGet' | 'cachePut'>;
  signal?: AbortSignal;
}

export interface TriageUsage {
  inputTokens: number;
  outputTokens: number;
  /** Calls that reached the provider. */
  calls: number;
  /** Items whose outcome came from the cache. */
  cacheHits: number;
}

export interface TriageResult {
  scores: Map<string, number>;
  usage: TriageUsage;
  warnings: string[];
}

/** What the cache keeps per item: its score, or that the model was asked and gave none. */
type CachedOutcome = number | { failed: string };

interface Pending {
  item: StoredItem;
  title: string;
  snippet: string;
  cacheKey: string;
}

function cacheKey(
  model: string,
  audience: string,
  candidate: Omit<TriageCandidate, 'id'>,
  key: string,
): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([TRIAGE_PROMPT_VERSION, model, audience, key, candidate.title, candidate.snippet]))
    .digest('hex');
  return digest.slice(0, 32);
}

/** A valid score is a finite number in 0–10 (rounded to one decimal); anything else is ignored. */
export function validScore(value: unknown): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 10) return null;
  return Math.round(value * 10) / 10;
}

export async function triageCandidates(
  candidates: StoredItem[],
  options: TriageOptions,
): Promise<TriageResult> {
  const { road } = options;
  const model = road.model('triage');
  const scores = new Map<string, number>();
  const warnings: string[] = [];
  const before = road.usage().byPurpose.triage;
  let cacheHits = 0;
  if (!model) return { scores, usage: triageUsage(road, before, 0), warnings };

  const pending: Pending[] = [];
  const seen = new Set<string>();
  for (const item of [...candidates].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))) {
    if (seen.has(item.key)) continue;
    seen.add(item.key);
    const title = item.title.replace(/\s+/g, ' ').trim();
    const snippet = snippetOf(item.text);
    const key = cacheKey(model.modelId, options.audience, { title, snippet }, item.key);
    const cached =
      options.store && !road.refresh
        ? await options.store.cacheGet<CachedOutcome>(TRIAGE_CACHE_NAMESPACE, key)
        : null;
    const score = validScore(cached);
    if (score !== null) {
      scores.set(item.key, score);
      cacheHits++;
    } else if (cached !== null && typeof cached === 'object' && !road.retryFailed) {
      cacheHits++;
    } else pending.push({ item, title, snippet, cacheKey: key });
  }

  const batchSize = Math.max(1, options.batchSize ?? 40);
  const batches: Pending[][] = [];
  for (let start = 0; start < pending.length; start += batchSize)
    batches.push(pending.slice(start, start + batchSize));
  const results = await Promise.all(batches.map((batch) => triageBatch(batch, model, options)));
  for (const result of results) {
    for (const [key, score] of result.scores) scores.set(key, score);
    warnings.push(...result.warnings);
  }
  road.log.debug(`triage: ${scores.size}/${seen.size} scored, ${cacheHits} from the cache`);
  return { scores, usage: triageUsage(road, before, cacheHits), warnings };
}

async function triageBatch(
  batch: Pending[],
  model: RoadModel,
  options: TriageOptions,
): Promise<{ scores: Map<string, number>; warnings: string[] }> {
  const scores = new Map<string, number>();
  // Short ids keep the prompt small; the answer is mapped back through them.
  const byId = new Map(batch.map((entry, index) => [String(index + 1), entry]));
  const read = (output: TriageOutput) => readScores(output, byId);
  const outcome = await callStructured(options.road, model, {
    schema: triageOutputSchema,
    schemaName: 'triage_scores',
    promptVersion: TRIAGE_PROMPT_VERSION,
    system: triageSystemPrompt(options.audience),
    messages: [
      {
        role: 'user',
        content: triageUserPrompt(
          batch.map((entry, index) => ({
            id: String(index + 1),
            title: entry.title,
            snippet: entry.snippet,
          })),
        ),
      },
    ],
    validate: (output) => read(output).errors,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (outcome.kind === 'failed') {
    // Not cached: the next build asks again.
    const message = `triage: a batch of ${batch.length} failed (${outcome.error}); offline relevance used for it`;
    options.road.log.warn(message);
    return { scores, warnings: [message] };
  }
  const found = outcome.value
    ? read(outcome.value)
    : { scores, ignored: 0, errors: outcome.kind === 'invalid' ? outcome.errors : [] };
  for (const entry of batch) {
    const score = found.scores.get(entry.item.key);
    if (score !== undefined) scores.set(entry.item.key, score);
    const value: CachedOutcome = score ?? { failed: found.errors[0] ?? 'no valid score' };
    await options.store?.cachePut(TRIAGE_CACHE_NAMESPACE, entry.cacheKey, value, CACHE_TTL_SECONDS);
  }
  const missing = batch.length - scores.size;
  const warnings =
    missing || found.ignored
      ? [
          `triage: ${missing} candidate(s) got no valid score (${found.ignored} answer(s) ignored); offline relevance used for them`,
        ]
      : [];
  return { scores, warnings };
}

function readScores(output: TriageOutput, byId: Map<string, Pending>) {
  const scores = new Map<string, number>();
  let ignored = 0;
  for (const entry of output.scores) {
    const target = byId.get(entry.id.trim());
    const score = validScore(entry.score);
    if (!target || score === null || scores.has(target.item.key)) {
      ignored++;
      continue;
    }
    scores.set(target.item.key, score);
  }
  const missing = [...byId.values()].filter((entry) => !scores.has(entry.item.key)).length;
  const errors = missing
    ? [`${missing} candidate(s) got no valid score; give every id one score from 0 to 10`]
    : [];
  return { scores, ignored, errors };
}

function triageUsage(
  road: ModelRoad,
  before: { calls: number; tokensIn: number; tokensOut: number } | undefined,
  cacheHits: number,
): TriageUsage {
  const after = road.usage().byPurpose.triage;
  return {
    calls: (after?.calls ?? 0) - (before?.calls ?? 0),
    inputTokens: (after?.tokensIn ?? 0) - (before?.tokensIn ?? 0),
    outputTokens: (after?.tokensOut ?? 0) - (before?.tokensOut ?? 0),
    cacheHits,
  };
}
