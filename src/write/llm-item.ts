// One item through the model: write → validate (one repair) → check (one regeneration) → flag; any dead end falls
// back to the extractive writer for that item alone, and says why in `checks`.
import type { ModelMessage } from 'ai';
import type { WrittenItem } from '../core/types.js';
import type { LlmClient, LlmClientModel } from '../llm/client.js';
import type { UsageMeter } from '../llm/usage.js';
import { callWithOneRepair } from './_one-repair.js';
import { writeItemExtractively } from './extractive-item.js';
import {
  type CheckResult,
  type CheckSource,
  checkFaithfulness,
  feedbackFor,
  type ItemChecks,
} from './faithfulness.js';
import { type ItemOutput, itemOutputSchema } from './output-schema.js';
import { partsText } from './paper-input.js';
import { asPromptData, renderPrompt, truncateToTokens } from './prompts.js';
import { traceSupport } from './takeaway-sources.js';
import type { ItemForWriting } from './types.js';
import { ruleLabel, validateItemOutput } from './validate-output.js';

export interface ItemWriterOptions {
  llmClient: LlmClient;
  write: LlmClientModel;
  /** Null: the faithfulness check is off. */
  check: LlmClientModel | null;
  name: string;
  audience: string;
  maxInputTokens: number;
  signal?: AbortSignal;
}

type Generated =
  | { ok: true; output: ItemOutput; conversation: ModelMessage[]; repaired: boolean; modelId: string }
  /** `label`: the reason in a few words, counted in the build report ("takeaways not 3", "timed out"). */
  | { ok: false; reason: string; label: string; budget: boolean };

/**
 * The item's source as the model reads it: a paper read in full as its chosen parts, each a <section> with its id
 * (the data inside escaped by asPromptData); anything else as its text cut to the input budget.
 */
export function itemSource(item: ItemForWriting, maxInputTokens: number): CheckSource {
  const parts = item.paper?.parts ?? [];
  if (parts.length > 0) {
    const prompt = parts
      .map((part) => {
        const id = part.id.replace(/[^\w.-]/g, '');
        return `<section id="${id}">\n${asPromptData(part.label === part.title ? part.title : `${part.label} ${part.title}`)}\n${asPromptData(part.text)}\n</section>`;
      })
      .join('\n');
    return { prompt, text: partsText(parts), sections: new Map(parts.map((part) => [part.id, part.text])) };
  }
  const { text } = truncateToTokens(item.text, maxInputTokens);
  return { prompt: asPromptData(text), text, sections: new Map() };
}

export function buildItemPrompt({
  item,
  options,
  text,
  preparedSource,
}: {
  item: ItemForWriting;
  options: Pick<ItemWriterOptions, 'name' | 'audience'>;
  text: string;
  preparedSource?: string;
}) {
  return renderPrompt('item', {
    name: asPromptData(options.name),
    audience: asPromptData(options.audience),
    title: asPromptData(item.title),
    authors: asPromptData(item.authors.slice(0, 12).join(', ') || 'unknown'),
    source: asPromptData(item.source),
    text: (preparedSource ?? asPromptData(text)) || '(no text available: describe only what the title says)',
  });
}

async function generate({
  messages,
  system,
  version,
  options,
}: {
  messages: ModelMessage[];
  system: string;
  version: string;
  options: ItemWriterOptions;
}): Promise<Generated> {
  const call = await callWithOneRepair(options.llmClient, options.write, {
    schema: itemOutputSchema,
    schemaName: 'digest_item',
    promptVersion: version,
    system,
    messages,
    validate: validateItemOutput,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const { outcome } = call;
  if (outcome.kind === 'failed') {
    return { ok: false, reason: outcome.error, label: outcome.label, budget: outcome.budget };
  }
  if (outcome.kind === 'ok') {
    const { value, modelId } = outcome;
    return { ok: true, output: value, conversation: call.conversation, repaired: call.repaired, modelId };
  }
  return {
    ok: false,
    reason: `output still broke the rules after one repair: ${outcome.errors.join('; ')}`,
    label: ruleLabel(outcome.errors),
    budget: false,
  };
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
  return writeFallback({ item, meter: options.llmClient.meter, notes, label: failure.label });
}

/** The item written by the extractive writer instead, flagged, with the reason in its checks. */
export function writeFallback({
  item,
  meter,
  notes,
  label,
}: {
  item: ItemForWriting;
  meter: UsageMeter;
  notes: string[];
  label: string;
}): WrittenItem {
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

function written({
  output,
  modelId,
  item,
  checks,
}: {
  output: ItemOutput;
  modelId: string;
  item: ItemForWriting;
  checks: ItemChecks;
}): WrittenItem {
  return {
    support: traceSupport(output.support, item, 3),
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
  const source = itemSource(item, options.maxInputTokens);
  const prompt = buildItemPrompt({ item, options, text: source.text, preparedSource: source.prompt });
  const first = await generate({
    messages: [{ role: 'user', content: prompt.user }],
    system: prompt.system,
    version: prompt.version,
    options,
  });
  if (!first.ok) return fallback(item, first, options);
  const base = {
    model: options.check?.modelId ?? null,
    repaired: first.repaired,
    regenerated: false,
    notes: [],
  };
  if (!options.check) {
    return written({
      output: first.output,
      modelId: first.modelId,
      item,
      checks: {
        ...base,
        status: 'unchecked',
        flagged: false,
        claims: [],
      },
    });
  }
  const checkModel = options.check;
  const check = (output: ItemOutput) =>
    checkFaithfulness({
      output,
      source,
      support: traceSupport(output.support, item, 3),
      model: checkModel,
      options,
    });
  const verdict = await check(first.output);
  if (!verdict.ok) return checkFailed({ item, generated: first, verdict, base, options });
  if (verdict.unsupported.length === 0)
    return checkedItem({ item, generated: first, verdict, base, flagNotes: null });

  const retryMessages: ModelMessage[] = [
    ...first.conversation,
    { role: 'user', content: feedbackFor(verdict.unsupported) },
  ];
  const second = await generate({
    messages: retryMessages,
    system: prompt.system,
    version: prompt.version,
    options,
  });
  if (!second.ok) {
    options.llmClient.meter.recordFlagged();
    return checkedItem({
      item,
      generated: first,
      verdict,
      base,
      flagNotes: [`regeneration after the fact check failed: ${second.reason}`],
    });
  }
  const recheck = await check(second.output);
  const regenerated = { ...base, repaired: first.repaired || second.repaired, regenerated: true };
  if (!recheck.ok)
    return checkFailed({ item, generated: second, verdict: recheck, base: regenerated, options });
  const passed = recheck.unsupported.length === 0;
  if (!passed) options.llmClient.meter.recordFlagged();
  return checkedItem({
    item,
    generated: second,
    verdict: recheck,
    base: regenerated,
    flagNotes: passed
      ? null
      : [`${recheck.unsupported.length} claim(s) still unsupported after one regeneration`],
  });
}

/** What the check judged, about which written item. */
interface CheckedInput {
  item: ItemForWriting;
  generated: { output: ItemOutput; modelId: string };
  verdict: CheckResult;
  base: Pick<ItemChecks, 'model' | 'repaired' | 'regenerated' | 'notes'>;
}

/** The item as the check judged it: passed, or flagged (`flagNotes` say why) with the claims it read. */
function checkedItem({
  item,
  generated,
  verdict,
  base,
  flagNotes,
}: CheckedInput & { flagNotes: string[] | null }): WrittenItem {
  return written({
    output: generated.output,
    modelId: generated.modelId,
    item,
    checks: {
      ...base,
      model: verdict.modelId ?? base.model,
      status: flagNotes ? 'flagged' : 'passed',
      flagged: !!flagNotes,
      claims: verdict.claims,
      ...(flagNotes ? { notes: flagNotes } : {}),
    },
  });
}

/** The check could not judge the item: it is shown to the editor, but not counted as flagged by the check. */
function checkFailed({
  item,
  generated,
  verdict,
  base,
  options,
}: CheckedInput & { options: ItemWriterOptions }): WrittenItem {
  options.llmClient.meter.recordCheckFailed();
  return written({
    output: generated.output,
    modelId: generated.modelId,
    item,
    checks: {
      ...base,
      status: 'check-failed',
      flagged: true,
      claims: [],
      notes: [`the faithfulness check could not run: ${verdict.error ?? 'unknown error'}`],
    },
  });
}
