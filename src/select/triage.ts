// LLM triage: a cheap batched relevance score (0–10) per candidate, from titles and first lines only.
// Scores are cached per item in the store; a failed batch or an invalid score just leaves those items to the
// offline relevance signal. The model is passed in (see STYLE: do not wrap the AI SDK).
import { createHash } from 'node:crypto';
import { generateText, type LanguageModel, Output } from 'ai';
import { errorMessage } from '../core/errors.js';
import { type Logger, silentLogger } from '../core/ports.js';
import type { StoredItem } from '../core/types.js';
import type { Store } from '../store/types.js';
import {
  snippetOf,
  TRIAGE_PROMPT_VERSION,
  type TriageCandidate,
  triageOutputSchema,
  triageSystemPrompt,
  triageUserPrompt,
} from './triage-prompt.js';

export const TRIAGE_CACHE_NAMESPACE = 'triage';
const CACHE_TTL_SECONDS = 90 * 86_400;

export interface TriageOptions {
  model: LanguageModel;
  audience: string;
  /** Candidates per call (default 40). */
  batchSize?: number;
  store?: Pick<Store, 'cacheGet' | 'cachePut'>;
  log?: Logger;
  /** Ignore cached scores (new scores are still cached). */
  refresh?: boolean;
  abortSignal?: AbortSignal;
}

export interface TriageUsage {
  inputTokens: number;
  outputTokens: number;
  calls: number;
  cacheHits: number;
}

export interface TriageResult {
  scores: Map<string, number>;
  usage: TriageUsage;
  warnings: string[];
}

function modelName(model: LanguageModel): string {
  return typeof model === 'string' ? model : `${model.provider}:${model.modelId}`;
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
  const log = options.log ?? silentLogger;
  const model = modelName(options.model);
  const batchSize = Math.max(1, options.batchSize ?? 40);
  const scores = new Map<string, number>();
  const usage: TriageUsage = { inputTokens: 0, outputTokens: 0, calls: 0, cacheHits: 0 };
  const warnings: string[] = [];

  const pending: { item: StoredItem; title: string; snippet: string; cacheKey: string }[] = [];
  const seen = new Set<string>();
  for (const item of [...candidates].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))) {
    if (seen.has(item.key)) continue;
    seen.add(item.key);
    const title = item.title.replace(/\s+/g, ' ').trim();
    const snippet = snippetOf(item.text);
    const key = cacheKey(model, options.audience, { title, snippet }, item.key);
    const cached =
      options.store && !options.refresh
        ? validScore(await options.store.cacheGet(TRIAGE_CACHE_NAMESPACE, key))
        : null;
    if (cached !== null) {
      scores.set(item.key, cached);
      usage.cacheHits++;
    } else pending.push({ item, title, snippet, cacheKey: key });
  }

  for (let start = 0; start < pending.length; start += batchSize) {
    const batch = pending.slice(start, start + batchSize);
    // Short ids keep the prompt small; the answer is mapped back through them.
    const byId = new Map(batch.map((entry, index) => [String(index + 1), entry]));
    try {
      const result = await generateText({
        model: options.model,
        system: triageSystemPrompt(options.audience),
        prompt: triageUserPrompt(
          batch.map((entry, index) => ({
            id: String(index + 1),
            title: entry.title,
            snippet: entry.snippet,
          })),
        ),
        output: Output.object({ schema: triageOutputSchema, name: 'triage_scores' }),
        temperature: 0,
        ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
      });
      usage.calls++;
      usage.inputTokens += result.usage.inputTokens ?? 0;
      usage.outputTokens += result.usage.outputTokens ?? 0;
      let ignored = 0;
      for (const entry of result.output.scores) {
        const target = byId.get(entry.id.trim());
        const score = validScore(entry.score);
        if (!target || score === null || scores.has(target.item.key)) {
          ignored++;
          continue;
        }
        scores.set(target.item.key, score);
        await options.store?.cachePut(TRIAGE_CACHE_NAMESPACE, target.cacheKey, score, CACHE_TTL_SECONDS);
      }
      const missing = batch.filter((entry) => !scores.has(entry.item.key)).length;
      if (ignored || missing) {
        warnings.push(
          `triage: ${missing} candidate(s) got no valid score (${ignored} answer(s) ignored); offline relevance used for them`,
        );
      }
    } catch (error) {
      usage.calls++;
      const message = `triage: a batch of ${batch.length} failed (${errorMessage(error)}); offline relevance used for it`;
      warnings.push(message);
      log.warn(message);
    }
  }
  log.debug(`triage: ${scores.size}/${seen.size} scored, ${usage.calls} call(s), ${usage.cacheHits} cached`);
  return { scores, usage, warnings };
}
