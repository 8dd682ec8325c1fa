// One item through the model: write → validate (one repair) → check (one regeneration) → flag; any dead end falls
// back to the extractive writer for that item alone, and says why in `checks`.
import type { ModelMessage } from 'ai';
import type { WrittenItem } from '../core/types.js';
import type { ModelRoad, RoadModel } from '../llm/model-road.js';
import { callStructured } from '../llm/structured-call.js';
import type { UsageMeter } from '../llm/usage.js';
import { writeItemExtractively } from './extractive-item.js';
import { type CheckResult, checkFaithfulness, feedbackFor, type ItemChecks } from './faithfulness.js';
import { type ItemOutput, itemOutputSchema } from './output-schema.js';
import { asPromptData, renderPrompt, truncateToTokens } from './prompts.js';
import type { ItemForWriting } from './types.js';
import { ruleLabel, validateItemOutput } from './validate-output.js';

export interface ItemWriterOptions {
  road: ModelRoad;
  write: RoadModel;
  /** Null: the faithfulness check is off. */
  check: RoadModel | null;
  name: string;
  audience: string;
  maxInputTokens: number;
  signal?: AbortSignal;
}

type Generated =
  | { ok: true; output: ItemOutput; conversation: ModelMessage[]; repaired: boolean; modelId: string }
  /** `label`: the reason in a few words, counted in the build report ("takeaways not 3", "timed out"). */
  | { ok: false; reason: string; label: string; budget: boolean };

export function buildItemPrompt(
  item: ItemForWriting,
  options: Pick<ItemWriterOptions, 'name' | 'audience'>,
  text: string,
) {
  return renderPrompt('item', {
    name: asPromptData(options.name),
    audience: asPromptData(options.audience),
    title: asPromptData(item.title),
    authors: asPromptData(item.authors.slice(0, 12).join(', ') || 'unknown'),
    source: asPromptData(item.source),
    text: asPromptData(text) || '(no text available: describe only what the title says)',
  });
}

function repairMessage(errors: string[]): string {
  return [
    'Your answer broke these rules:',
    ...errors.map((error) => `- ${error}`),
    'Answer again with the corrected JSON object only.',
  ].join('\n');
}

async function generate(
  messages: ModelMessage[],
  system: string,
  version: string,
  options: ItemWriterOptions,
): Promise<Generated> {
  const request = {
    schema: itemOutputSchema,
    schemaName: 'digest_item',
    promptVersion: version,
    system,
    validate: validateItemOutput,
    ...(options.signal ? { signal: options.signal } : {}),
  };
  let conversation = messages;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const outcome = await callStructured(options.road, options.write, { ...request, messages: conversation });
    if (outcome.kind === 'failed') {
      return { ok: false, reason: outcome.error, label: outcome.label, budget: outcome.budget };
    }
    const answered: ModelMessage[] = [
      ...conversation,
      { role: 'assistant', content: outcome.text || '(empty)' },
    ];
    if (outcome.kind === 'ok') {
      const { value, modelId } = outcome;
      return { ok: true, output: value, conversation: answered, repaired: attempt > 0, modelId };
    }
    if (attempt === 1) {
      return {
        ok: false,
        reason: `output still broke the rules after one repair: ${outcome.errors.join('; ')}`,
        label: ruleLabel(outcome.errors),
        budget: false,
      };
    }
    conversation = [...answered, { role: 'user', content: repairMessage(outcome.errors) }];
  }
  return { ok: false, reason: 'unreachable', label: 'unreachable', budget: false };
}

function fallback(
  item: ItemForWriting,
  failure: Extract<Generated, { ok: false }>,
  options: ItemWriterOptions,
): WrittenItem {
  const models = options.write.models.join(', then ');
  const notes = [
    `${models} could not write this item (${failure.reason}); written by the extractive writer.`,
  ];
  if (failure.budget) notes.push('cost limit reached: no more LLM calls this run.');
  return writeFallback(item, options.road.meter, notes, failure.label);
}

/** The item written by the extractive writer instead, flagged, with the reason in its checks. */
export function writeFallback(
  item: ItemForWriting,
  meter: UsageMeter,
  notes: string[],
  label: string,
): WrittenItem {
  meter.recordFallback(label);
  const checks: ItemChecks = {
    status: 'fallback',
    flagged: true,
    model: null,
    repaired: false,
    regenerated: false,
    claims: [],
    notes,
  };
  return { ...writeItemExtractively(item), checks };
}

function written(output: ItemOutput, modelId: string, checks: ItemChecks): WrittenItem {
  return {
    summary: output.summary.trim(),
    takeaways: output.takeaways.map((takeaway) => takeaway.trim()) as [string, string, string],
    level: output.level,
    levelReason: output.levelReason.trim(),
    writer: modelId,
    checks,
  };
}

export async function writeItemWithModel(
  item: ItemForWriting,
  options: ItemWriterOptions,
): Promise<WrittenItem> {
  const { text: source } = truncateToTokens(item.text, options.maxInputTokens);
  const prompt = buildItemPrompt(item, options, source);
  const first = await generate(
    [{ role: 'user', content: prompt.user }],
    prompt.system,
    prompt.version,
    options,
  );
  if (!first.ok) return fallback(item, first, options);
  const base = {
    model: options.check?.modelId ?? null,
    repaired: first.repaired,
    regenerated: false,
    notes: [],
  };
  if (!options.check) {
    return written(first.output, first.modelId, {
      ...base,
      status: 'unchecked',
      flagged: false,
      claims: [],
    });
  }
  const verdict = await checkFaithfulness(first.output, source, options.check, options);
  if (!verdict.ok) return checkFailed(first, verdict, base, options);
  if (verdict.unsupported.length === 0) {
    return written(first.output, first.modelId, {
      ...base,
      model: verdict.modelId ?? base.model,
      status: 'passed',
      flagged: false,
      claims: verdict.claims,
    });
  }

  const retryMessages: ModelMessage[] = [
    ...first.conversation,
    { role: 'user', content: feedbackFor(verdict.unsupported) },
  ];
  const second = await generate(retryMessages, prompt.system, prompt.version, options);
  if (!second.ok) {
    options.road.meter.recordFlagged();
    return written(first.output, first.modelId, {
      ...base,
      model: verdict.modelId ?? base.model,
      status: 'flagged',
      flagged: true,
      claims: verdict.claims,
      notes: [`regeneration after the fact check failed: ${second.reason}`],
    });
  }
  const recheck = await checkFaithfulness(second.output, source, options.check, options);
  const regenerated = { ...base, repaired: first.repaired || second.repaired, regenerated: true };
  if (!recheck.ok) return checkFailed(second, recheck, regenerated, options);
  const passed = recheck.unsupported.length === 0;
  if (!passed) options.road.meter.recordFlagged();
  return written(second.output, second.modelId, {
    ...regenerated,
    model: recheck.modelId ?? regenerated.model,
    status: passed ? 'passed' : 'flagged',
    flagged: !passed,
    claims: recheck.claims,
    notes: passed ? [] : [`${recheck.unsupported.length} claim(s) still unsupported after one regeneration`],
  });
}

/** The check could not judge the item: it is shown to the editor, but not counted as flagged by the check. */
function checkFailed(
  generated: { output: ItemOutput; modelId: string },
  verdict: CheckResult,
  base: Pick<ItemChecks, 'model' | 'repaired' | 'regenerated'>,
  options: ItemWriterOptions,
): WrittenItem {
  options.road.meter.recordCheckFailed();
  return written(generated.output, generated.modelId, {
    ...base,
    status: 'check-failed',
    flagged: true,
    claims: [],
    notes: [`the faithfulness check could not run: ${verdict.error ?? 'unknown error'}`],
  });
}
