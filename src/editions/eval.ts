// `digest eval`: the week's picks written by each model in turn (through the one LLM client, so cached and costed), and
// the same audit for each — calls, tokens, cost, time, flagged claims, sentences the source does not support,
// superlatives the source does not use, summary length, levels. With one model it audits an edition before publishing.
import type { Level } from '../core/types.js';
import { createLlmClient } from '../llm/client.js';
import { auditItem, type ItemAudit } from '../write/audit.js';
import { createExtractiveWriter, createWriter, type ItemForWriting } from '../write/index.js';
import { paperForWriting } from '../write/paper-input.js';
import { toWritingInput } from './edition-items.js';
import { list } from './list.js';
import { paperReader, readPapers } from './paper-reader.js';
import type { EvalDeps, LlmDeps, PaperDeps } from './ports.js';

export interface EvalInput {
  week: string;
  /** provider:model ids, or "extractive". */
  models: string[];
  check: boolean;
  refresh: boolean;
  maxCost?: number;
}

export interface ModelEvaluation {
  /** The model id; "<id> · abstract only" for the same picks written from their abstracts. */
  model: string;
  /** What the papers were written from: their stored full text, or their abstracts. */
  input: 'full-text' | 'abstract';
  items: number;
  calls: number;
  cacheHits: number;
  tokensIn: number;
  tokensOut: number;
  costUsd: number;
  wallSeconds: number;
  /** Items the model did not write (they fell back to the extractive writer). */
  fallbacks: number;
  flaggedClaims: number;
  sentences: number;
  unsupportedSentences: number;
  superlatives: string[];
  firstPersonItems: number;
  meanSummaryWords: number;
  levels: Record<Level, number>;
  audits: ItemAudit[];
}

export async function evaluate(deps: EvalDeps, input: EvalInput): Promise<ModelEvaluation[]> {
  const { plan } = await list(deps, { week: input.week });
  if (plan.picks.length === 0) return [];
  const abstracts = plan.picks.map(toWritingInput);
  const withText = await withStoredFullText(deps, abstracts);
  // Full text raises input tokens: with any paper read in full, each model writes both ways, to show the difference.
  const variants: [string, 'full-text' | 'abstract', ItemForWriting[]][] = withText
    ? [
        ['', 'full-text', withText],
        [' · abstract only', 'abstract', abstracts],
      ]
    : [['', 'abstract', abstracts]];
  const reports: ModelEvaluation[] = [];
  for (const model of input.models) {
    for (const [suffix, kind, inputs] of variants) {
      reports.push({
        ...(await evaluateModel({ deps, input, model, inputs })),
        model: `${model}${suffix}`,
        input: kind,
      });
    }
  }
  return reports;
}

/** The picks with the full text earlier builds stored (eval fetches nothing); null when none was read in full. */
async function withStoredFullText(
  deps: PaperDeps,
  inputs: ItemForWriting[],
): Promise<ItemForWriting[] | null> {
  if (!deps.config.llm.fullText) return null;
  const ids = inputs.flatMap((item) => (item.arxivId ? [item.arxivId] : []));
  if (ids.length === 0) return null;
  const papers = readPapers(await paperReader(deps, { offline: true, enrich: false })(ids));
  if (papers.size === 0) return null;
  return inputs.map((item) => {
    const paper = item.arxivId ? papers.get(item.arxivId) : undefined;
    return paper ? { ...item, paper: paperForWriting(paper, deps.config.llm.maxInputTokens) } : item;
  });
}

async function evaluateModel({
  deps,
  input,
  model,
  inputs,
}: {
  deps: LlmDeps & Pick<EvalDeps, 'clock'>;
  input: EvalInput;
  model: string;
  inputs: ItemForWriting[];
}): Promise<Omit<ModelEvaluation, 'input'>> {
  const context = { name: deps.config.name, audience: deps.config.audience, log: deps.log };
  deps.signal?.throwIfAborted();
  const started = deps.clock.now().getTime();
  const llmClient =
    model === 'extractive'
      ? null
      : createLlmClient({
          llm: deps.config.llm,
          store: deps.store,
          log: deps.log,
          env: deps.env,
          run: {
            modelOverride: model,
            withoutKey: 'leave it out of --models ("extractive" needs no key)',
            check: input.check,
            refresh: input.refresh,
            ...(input.maxCost !== undefined ? { maxCostUsd: input.maxCost } : {}),
          },
          ...(deps.signal ? { signal: deps.signal } : {}),
        });
  const writer = llmClient ? createWriter({ llmClient }).writer : createExtractiveWriter();
  const written = await writer.writeItems(inputs, context);
  await writer.writeEdition(
    inputs.map((item, index) => ({ ...item, ...written[index]! })),
    context,
  );
  const usage = llmClient?.usage();
  const audits = inputs.map((item, index) => auditItem(item, written[index]!));
  const levels: Record<Level, number> = { Accessible: 0, Intermediate: 0, Advanced: 0 };
  for (const audit of audits) levels[audit.level] += 1;
  return {
    model,
    items: inputs.length,
    calls: usage?.calls ?? 0,
    cacheHits: usage?.cacheHits ?? 0,
    tokensIn: usage?.tokensIn ?? 0,
    tokensOut: usage?.tokensOut ?? 0,
    costUsd: usage?.costUsd ?? 0,
    wallSeconds: (deps.clock.now().getTime() - started) / 1000,
    fallbacks: model === 'extractive' ? 0 : written.filter((item) => item.writer === 'extractive').length,
    flaggedClaims: audits.reduce((sum, audit) => sum + audit.flaggedClaims, 0),
    sentences: audits.reduce((sum, audit) => sum + audit.sentences, 0),
    unsupportedSentences: audits.reduce((sum, audit) => sum + audit.unsupported.length, 0),
    superlatives: [...new Set(audits.flatMap((audit) => audit.superlatives))],
    firstPersonItems: audits.filter((audit) => audit.firstPerson).length,
    meanSummaryWords: Math.round(audits.reduce((sum, audit) => sum + audit.summaryWords, 0) / audits.length),
    levels,
    audits,
  };
}
