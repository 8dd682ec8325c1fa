// LLM triage: a cheap batched relevance score (0–10) per candidate, from titles and first lines only. Every call goes
// through the model road, whose cache keeps every answer (also one that left candidates unscored), so a rebuild of
// the same shortlist asks nothing and `retryFailed` asks again only the batches whose answer was incomplete. Usage
// and cost count under "triage", against the same budget, rate limit and timeouts as writing. A failed batch just
// leaves its candidates to the offline relevance signal.
import type { StoredItem } from '../core/types.js';
import type { ModelRoad, RoadModel } from '../llm/model-road.js';
import { callStructured } from '../llm/structured-call.js';
import {
  snippetOf,
  TRIAGE_PROMPT_VERSION,
  type TriageOutput,
  triageOutputSchema,
  triageSystemPrompt,
  triageUserPrompt,
} from './triage-prompt.js';

export interface TriageOptions {
  /** The run's model road; triage uses its "triage" model (none: no triage). */
  road: ModelRoad;
  audience: string;
  /** Candidates per call (default 40). */
  batchSize?: number;
  signal?: AbortSignal;
}

export interface TriageUsage {
  inputTokens: number;
  outputTokens: number;
  /** Calls that reached the provider. */
  calls: number;
  /** Batches answered from the cache. */
  cacheHits: number;
}

export interface TriageResult {
  scores: Map<string, number>;
  usage: TriageUsage;
  warnings: string[];
}

interface Candidate {
  item: StoredItem;
  title: string;
  snippet: string;
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
  if (!model) return { scores, usage: triageUsage(road, before), warnings };

  // Sorted by key so the same shortlist always makes the same batches, hence the same cached calls.
  const unique = new Map<string, Candidate>();
  for (const item of [...candidates].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))) {
    if (unique.has(item.key)) continue;
    unique.set(item.key, {
      item,
      title: item.title.replace(/\s+/g, ' ').trim(),
      snippet: snippetOf(item.text),
    });
  }
  const all = [...unique.values()];
  const batchSize = Math.max(1, options.batchSize ?? 40);
  const batches: Candidate[][] = [];
  for (let start = 0; start < all.length; start += batchSize)
    batches.push(all.slice(start, start + batchSize));
  const results = await Promise.all(batches.map((batch) => triageBatch(batch, model, options)));
  for (const result of results) {
    for (const [key, score] of result.scores) scores.set(key, score);
    warnings.push(...result.warnings);
  }
  road.log.debug(`triage: ${scores.size}/${all.length} scored in ${batches.length} batch(es)`);
  return { scores, usage: triageUsage(road, before), warnings };
}

async function triageBatch(
  batch: Candidate[],
  model: RoadModel,
  options: TriageOptions,
): Promise<{ scores: Map<string, number>; warnings: string[] }> {
  // Short ids keep the prompt small; the answer is mapped back through them.
  const byId = new Map(batch.map((entry, index) => [String(index + 1), entry]));
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
    validate: (output) => readScores(output, byId).errors,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (outcome.kind === 'failed') {
    const message = `triage: a batch of ${batch.length} failed (${outcome.error}); offline relevance used for it`;
    options.road.log.warn(message);
    return { scores: new Map(), warnings: [message] };
  }
  const found = outcome.value
    ? readScores(outcome.value, byId)
    : { scores: new Map<string, number>(), ignored: 0 };
  const missing = batch.length - found.scores.size;
  const warnings =
    missing || found.ignored
      ? [
          `triage: ${missing} candidate(s) got no valid score (${found.ignored} answer(s) ignored); offline relevance used for them`,
        ]
      : [];
  return { scores: found.scores, warnings };
}

function readScores(output: TriageOutput, byId: Map<string, Candidate>) {
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
  const missing = byId.size - scores.size;
  const errors = missing
    ? [`${missing} candidate(s) got no valid score; give every id one score from 0 to 10`]
    : [];
  return { scores, ignored, errors };
}

function triageUsage(
  road: ModelRoad,
  before: { calls: number; cacheHits: number; tokensIn: number; tokensOut: number } | undefined,
): TriageUsage {
  const after = road.usage().byPurpose.triage;
  return {
    calls: (after?.calls ?? 0) - (before?.calls ?? 0),
    cacheHits: (after?.cacheHits ?? 0) - (before?.cacheHits ?? 0),
    inputTokens: (after?.tokensIn ?? 0) - (before?.tokensIn ?? 0),
    outputTokens: (after?.tokensOut ?? 0) - (before?.tokensOut ?? 0),
  };
}
