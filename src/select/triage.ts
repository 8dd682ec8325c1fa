// LLM triage: a cheap batched relevance score (0–10) per candidate, from titles and first lines only. Every call goes
// through the LLM client, whose cache keeps every answer (also one that left candidates unscored), so a rebuild of
// the same shortlist asks nothing and `retryFailed` asks again only the batches whose answer was incomplete. Usage
// and cost count under "triage", against the same budget, rate limit and timeouts as writing. The schema asks for one
// score per candidate; an answer with some bad scores keeps its good ones (the bad ones counted, said in one line), an
// answer with none is unusable (asked once more, then cached as invalid), and a failed batch leaves its candidates
// to the other signals, said in one line.
import type { ModelMessage } from 'ai';
import type { StoredItem } from '../core/types.js';
import type { LlmClient, LlmClientModel } from '../llm/client.js';
import { callStructured } from '../llm/structured-call.js';
import {
  SCORES,
  snippetOf,
  TRIAGE_PROMPT_VERSION,
  type TriageOutput,
  triageOutputSchemaFor,
  triageSystemPrompt,
  triageUserPrompt,
} from './triage-prompt.js';

export interface TriageOptions {
  /** The run's LLM client; triage uses its "triage" model (none: no triage). */
  llmClient: LlmClient;
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
  /** At most one line: which candidates triage could not score, and why. */
  warnings: string[];
  /** Candidates left to the other signals because their batch failed. */
  failedCandidates: number;
  /** Candidates whose own score was unusable in an answer otherwise kept. */
  rejectedScores: number;
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
  const { llmClient } = options;
  const model = llmClient.model('triage');
  const scores = new Map<string, number>();
  const warnings: string[] = [];
  const before = llmClient.usage().byPurpose.triage;
  if (!model) {
    return {
      scores,
      usage: triageUsage(llmClient, before),
      warnings,
      failedCandidates: 0,
      rejectedScores: 0,
    };
  }

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
  const failures: string[] = [];
  let unscored = 0;
  let rejected = 0;
  results.forEach((result, index) => {
    for (const [key, score] of result.scores) scores.set(key, score);
    rejected += result.rejected;
    if (result.failure === undefined) return;
    failures.push(result.failure);
    unscored += batches[index]!.length;
  });
  // One line for the whole triage, however many batches failed: the build ranks those candidates without it.
  if (failures.length) {
    const reasons = [...new Set(failures)];
    warnings.push(
      `triage failed for ${unscored} of ${all.length} candidate(s) (${failures.length} of ${batches.length} batch(es): ` +
        `${summarise(reasons)}); they are ranked by the other signals`,
    );
  }
  if (rejected) {
    warnings.push(
      `triage: ${rejected} of ${all.length} score(s) were missing or not a whole number 0–10 and were dropped ` +
        '(the other scores of those answers are kept); those candidates are ranked by the other signals',
    );
  }
  llmClient.log.debug(`triage: ${scores.size}/${all.length} scored in ${batches.length} batch(es)`);
  return {
    scores,
    usage: triageUsage(llmClient, before),
    warnings,
    failedCandidates: unscored,
    rejectedScores: rejected,
  };
}

async function triageBatch(
  batch: Candidate[],
  model: LlmClientModel,
  options: TriageOptions,
): Promise<BatchResult> {
  // Short ids keep the prompt small; the answer is mapped back through them.
  const ids = batch.map((_, index) => String(index + 1));
  const byId = new Map(batch.map((entry, index) => [ids[index]!, entry]));
  const request = {
    schema: triageOutputSchemaFor(ids),
    schemaName: 'triage_scores',
    promptVersion: TRIAGE_PROMPT_VERSION,
    system: triageSystemPrompt(options.audience),
    ...(options.signal ? { signal: options.signal } : {}),
  };
  let messages: ModelMessage[] = [
    {
      role: 'user',
      content: triageUserPrompt(
        batch.map((entry, index) => ({ id: ids[index]!, title: entry.title, snippet: entry.snippet })),
      ),
    },
  ];
  // An answer that leaves a candidate out is a failed answer, not a partial success: asked once more, with the
  // errors, then the whole batch is left to the other signals.
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const outcome = await callStructured(options.llmClient, model, { ...request, messages });
    if (outcome.kind === 'failed') return { scores: new Map(), failure: outcome.error, rejected: 0 };
    if (outcome.kind === 'ok') return { scores: readScores(outcome.value, byId), rejected: 0 };
    // Judged per candidate: the good scores of an answer with some bad ones are kept, the bad ones counted.
    const kept = salvageScores(outcome.text, byId);
    if (kept.size) return { scores: kept, rejected: batch.length - kept.size };
    if (attempt === 1)
      return { scores: new Map(), failure: `unusable answer: ${summarise(outcome.errors)}`, rejected: 0 };
    messages = [
      ...messages,
      { role: 'assistant', content: outcome.text || '(empty)' },
      {
        role: 'user',
        content: `Your answer broke these rules:\n${outcome.errors
          .slice(0, 10)
          .map((error) => `- ${error}`)
          .join('\n')}\nAnswer again with one score for every candidate id, as the JSON object only.`,
      },
    ];
  }
  return { scores: new Map(), failure: 'unreachable', rejected: 0 };
}

interface BatchResult {
  scores: Map<string, number>;
  /** Why the batch has no scores. */
  failure?: string;
  /** Candidates of an otherwise usable answer whose score was missing or not a whole number 0–10. */
  rejected: number;
}

/** The valid scores of an answer that broke the schema for some candidates (a score of 11, 0.5 or "high"). */
function salvageScores(text: string, byId: Map<string, Candidate>): Map<string, number> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return new Map();
  }
  const given = (parsed as { scores?: unknown } | null)?.scores;
  if (!given || typeof given !== 'object') return new Map();
  const scores = new Map<string, number>();
  for (const [id, candidate] of byId) {
    const value = (given as Record<string, unknown>)[id];
    if ((SCORES as readonly unknown[]).includes(value)) scores.set(candidate.item.key, value as number);
  }
  return scores;
}

function summarise(errors: string[]): string {
  const shown = errors.slice(0, 3).join('; ');
  return errors.length > 3 ? `${shown}; and ${errors.length - 3} more` : shown;
}

function readScores(output: TriageOutput, byId: Map<string, Candidate>): Map<string, number> {
  const scores = new Map<string, number>();
  for (const [id, candidate] of byId) {
    const score = validScore(output.scores[id]);
    if (score !== null) scores.set(candidate.item.key, score);
  }
  return scores;
}

function triageUsage(
  llmClient: LlmClient,
  before: { calls: number; cacheHits: number; tokensIn: number; tokensOut: number } | undefined,
): TriageUsage {
  const after = llmClient.usage().byPurpose.triage;
  return {
    calls: (after?.calls ?? 0) - (before?.calls ?? 0),
    cacheHits: (after?.cacheHits ?? 0) - (before?.cacheHits ?? 0),
    inputTokens: (after?.tokensIn ?? 0) - (before?.tokensIn ?? 0),
    outputTokens: (after?.tokensOut ?? 0) - (before?.tokensOut ?? 0),
  };
}
