// The faithfulness check: every takeaway and every factual summary sentence, judged against the item's own text by
// the `check` model, with a supporting quote that must be found verbatim (whitespace/case/quote-style folded).
import type { LlmClient, LlmClientModel } from '../llm/client.js';
import { callStructured } from '../llm/structured-call.js';
import { type CheckOutput, checkOutputSchemaFor, type ItemOutput } from './output-schema.js';
import { asPromptData, renderPrompt } from './prompts.js';
import { quoteFound, splitSentences } from './sentences.js';

export interface ClaimVerdict {
  kind: 'takeaway' | 'summary';
  claim: string;
  /** The section a takeaway names as its support ("S4"): its quote must be found in that section's text. */
  section?: string;
  /** False for a summary sentence the judge called a judgement of relevance, which is not checked. */
  factual: boolean;
  verdict: 'supported' | 'unsupported';
  /** The supporting passage of the source, as the judge quoted it. */
  quote: string | null;
  /** Why an unsupported claim counts as unsupported. */
  reason?: string;
}

/** edition.json `checks` on each item written by an LLM writer. */
export interface ItemChecks {
  /**
   * passed: every factual claim supported · flagged: claims still unsupported after one regeneration ·
   * unchecked: the check was turned off · check-failed: the judge call failed · fallback: written extractively.
   */
  status: 'passed' | 'flagged' | 'unchecked' | 'check-failed' | 'fallback';
  /** True when an editor should look at the item before publishing. */
  flagged: boolean;
  /** The model that judged, or null. */
  model: string | null;
  /** Output failed validation once and was repaired. */
  repaired: boolean;
  /** Unsupported claims led to one regeneration. */
  regenerated: boolean;
  claims: ClaimVerdict[];
  /** Human-readable notes: fallback reasons, failures. */
  notes: string[];
}

export interface CheckResult {
  ok: boolean;
  /** The model that judged (with llm.fallbacks, maybe not the check model). */
  modelId?: string;
  claims: ClaimVerdict[];
  unsupported: ClaimVerdict[];
  error?: string;
}

type Claim = Pick<ClaimVerdict, 'kind' | 'claim' | 'section'>;

/**
 * The claims to judge: takeaways, then summary sentences. `sections` (a paper read in full: the text of each part by
 * id) and `support` (the traced section of each takeaway) tie a takeaway to the one section it must be found in.
 */
export function claimsOf(
  output: Pick<ItemOutput, 'takeaways' | 'summary'>,
  support: readonly ({ section: string } | null)[] = [],
): Claim[] {
  return [
    ...output.takeaways.map((claim, index) => {
      const section = support[index]?.section;
      return { kind: 'takeaway' as const, claim, ...(section ? { section } : {}) };
    }),
    ...splitSentences(output.summary).map((claim) => ({ kind: 'summary' as const, claim })),
  ];
}

export function judgeClaims({
  claims,
  answer,
  source,
  sections = new Map(),
}: {
  claims: Claim[];
  answer: CheckOutput;
  source: string;
  sections?: ReadonlyMap<string, string>;
}): ClaimVerdict[] {
  return claims.map((claim, index) => {
    const verdict = answer.claims.find((entry) => entry.id === index + 1);
    if (!verdict) {
      return {
        ...claim,
        factual: true,
        verdict: 'unsupported',
        quote: null,
        reason: 'the checker gave no verdict',
      };
    }
    const factual = claim.kind === 'takeaway' || verdict.factual;
    const quote = verdict.quote.trim() || null;
    if (!factual) return { ...claim, factual, verdict: verdict.verdict, quote };
    if (verdict.verdict === 'unsupported') {
      return { ...claim, factual, verdict: 'unsupported', quote, reason: 'the checker found no support' };
    }
    const own = claim.section ? sections.get(claim.section) : undefined;
    if (!quote || !quoteFound(quote, own ?? source)) {
      return {
        ...claim,
        factual,
        verdict: 'unsupported',
        quote,
        reason:
          own === undefined
            ? 'supporting quote not found in the source'
            : `supporting quote not found in section ${claim.section}, which the takeaway names`,
      };
    }
    return { ...claim, factual, verdict: 'supported', quote };
  });
}

/** What the judge reads: the text as the writer had it (`prompt`), the plain text, and each section's text. */
export interface CheckSource {
  prompt: string;
  text: string;
  sections: ReadonlyMap<string, string>;
}

export async function checkFaithfulness({
  output,
  source,
  support,
  model,
  options,
}: {
  output: ItemOutput;
  source: CheckSource;
  support: readonly ({ section: string } | null)[];
  model: LlmClientModel;
  options: { llmClient: LlmClient; signal?: AbortSignal };
}): Promise<CheckResult> {
  const claims = claimsOf(output, source.sections.size > 0 ? support : []);
  const prompt = renderPrompt('check', {
    text: source.prompt,
    claims: claims
      .map(
        (claim, index) =>
          `${index + 1}. ${claim.section ? `[section ${claim.section}] ` : ''}${asPromptData(claim.claim)}`,
      )
      .join('\n'),
  });
  const outcome = await callStructured(options.llmClient, model, {
    schema: checkOutputSchemaFor(claims.length),
    schemaName: 'faithfulness_verdicts',
    promptVersion: prompt.version,
    system: prompt.system,
    messages: [{ role: 'user', content: prompt.user }],
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (outcome.kind !== 'ok') {
    const error =
      outcome.kind === 'failed' ? outcome.error : `unusable verdicts: ${outcome.errors.join('; ')}`;
    return { ok: false, claims: [], unsupported: [], error };
  }
  const verdicts = judgeClaims({
    claims,
    answer: outcome.value,
    source: source.text,
    sections: source.sections,
  });
  return {
    ok: true,
    modelId: outcome.modelId,
    claims: verdicts,
    unsupported: verdicts.filter((claim) => claim.factual && claim.verdict === 'unsupported'),
  };
}

export function feedbackFor(unsupported: ClaimVerdict[]): string {
  const lines = unsupported.map((claim) => `- "${claim.claim}" (${claim.reason ?? 'unsupported'})`);
  return [
    'A fact check against the source text found these statements unsupported:',
    ...lines,
    'Write the entry again. Keep every statement to what the source text itself says; drop or rephrase the ones above.',
    'Answer with the JSON object only.',
  ].join('\n');
}
