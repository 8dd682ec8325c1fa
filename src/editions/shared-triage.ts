// LLM triage as build and list share it: the same shortlist, batches and prompts, so `list` (cache-only LLM client) reads
// the very answers the build got and shows the ranking the build used.
import type { StoredItem } from '../core/types.js';
import type { LlmClient } from '../llm/client.js';
import { triageShortlist } from '../select/triage-shortlist.js';
import type { SelectionPolicy } from '../select/types.js';
import type { TriageDeps } from './ports.js';

/** What LLM triage used this build; edition.json carries it beside the writer's usage. */
export interface TriageReport {
  model: string;
  calls: number;
  cacheHits: number;
  tokensIn: number;
  tokensOut: number;
}

/** LLM triage on the LLM client's "triage" model (the cheap check model); null when the LLM client has none. */
export function createTriage({
  deps,
  week,
  llmClient,
  quiet = false,
}: {
  deps: TriageDeps;
  week: string;
  llmClient: LlmClient;
  quiet?: boolean;
}) {
  const { config, log } = deps;
  const modelId = llmClient.model('triage')?.modelId;
  if (!modelId) return null;
  let spent: TriageReport | null = null;
  const run = async (items: StoredItem[], policy: SelectionPolicy) => {
    const shortlist = triageShortlist({
      candidates: items,
      policy,
      date: week,
      limit: config.selection.triageLimit,
    });
    // Loaded with the first triage (it brings the AI SDK): a build without a triage model never loads it.
    const { triageCandidates } = await import('../select/triage.js');
    const result = await triageCandidates(shortlist, {
      llmClient,
      audience: config.audience,
      batchSize: config.selection.triageBatchSize,
      ...(deps.signal ? { signal: deps.signal } : {}),
    });
    if (!quiet) {
      for (const warning of result.warnings) log.warn(warning);
      log.info(
        `  triage (${modelId}): ${result.scores.size} of ${shortlist.length} rated, ${result.usage.calls} call(s), ` +
          `${result.usage.cacheHits} cached, ${result.usage.inputTokens} tokens in / ${result.usage.outputTokens} out`,
      );
    }
    spent = {
      model: modelId,
      calls: result.usage.calls,
      cacheHits: result.usage.cacheHits,
      tokensIn: result.usage.inputTokens,
      tokensOut: result.usage.outputTokens,
    };
    return { scores: result.scores, shortlist: shortlist.length };
  };
  return { run, modelId, spent: () => spent };
}
