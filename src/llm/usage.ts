// LLM usage accounting: every call's tokens, latency and cost; cache hits; what fell back. edition.json `usage`.

/** What a call is for: the usage table and edition.json break spending down by these. */
export const PURPOSES = ['triage', 'write', 'check', 'edition', 'translate'] as const;
export type Purpose = (typeof PURPOSES)[number];
/** The LLM client's purposes and `embed`: learned taste's embeddings (llm/embeddings.ts), counted beside them. */
export const USAGE_PURPOSES = [...PURPOSES, 'embed'] as const;
export type UsagePurpose = (typeof USAGE_PURPOSES)[number];

/** What every usage figure counts, for a run, a model or a purpose. */
export interface CallCounts {
  /** LLM requests that reached a provider (retries by the SDK count once). */
  calls: number;
  /** Answers served from the cache instead of a call. */
  cacheHits: number;
  tokensIn: number;
  tokensOut: number;
  costUsd: number;
}

export interface PurposeUsage extends CallCounts {
  failedCalls: number;
}

export interface ModelUsage extends CallCounts {
  /** Sum of the latencies of the calls that answered (ms). */
  latencyMs: number;
}

/** Output tokens per second of answering calls (one call's view of the model's speed), or null before any. */
export function tokensPerSecondOf(model: Pick<ModelUsage, 'tokensOut' | 'latencyMs'>): number | null {
  if (model.tokensOut <= 0 || model.latencyMs <= 0) return null;
  return Math.round((model.tokensOut * 10_000) / model.latencyMs) / 10;
}

export interface UsageReport extends CallCounts {
  /** Calls that ended in an error (timeout, HTTP error, unparseable output). */
  failedCalls: number;
  /** Calls answered by a model of `llm.fallbacks` because the model asked first was down. */
  standInCalls: number;
  /** Calls that timed out in a local or busy server's queue and were asked again (not failures: nothing was lost). */
  requeuedCalls: number;
  /** From the first to the last LLM activity of this run (ms). */
  wallMs: number;
  /** Items written by the extractive fallback instead of the model. */
  fallbackItems: number;
  /** Why they were, counted: { "takeaways not 3": 4, "timed out": 1 }. */
  fallbackReasons: Record<string, number>;
  /** Items a check call judged and left with unsupported claims (only those: a fallback is not "flagged by the check"). */
  flaggedItems: number;
  /** Items written by a model whose faithfulness check could not run (they are flagged for the editor). */
  checkFailedItems: number;
  /** True when `maxCostUsd` was reached and the remaining work went to the extractive writer. */
  budgetExhausted: boolean;
  /** Models called that are in no price table (their cost counts as 0; set llm.prices). */
  unpricedModels: string[];
  byModel: Record<string, ModelUsage>;
  /** The same spending by purpose (triage / write / check / edition / embed); purposes without activity are left out. */
  byPurpose: Partial<Record<UsagePurpose, PurposeUsage>>;
}

export interface CallRecord {
  model: string;
  tokensIn: number;
  tokensOut: number;
  latencyMs: number;
  costUsd: number;
  failed?: boolean;
  /** Timed out in the server's queue and asked again: counted as a call, neither failed nor answered. */
  requeued?: boolean;
  /** False when the model has no known price. */
  priced?: boolean;
  purpose?: UsagePurpose;
}

function zeroCounts(): CallCounts {
  return { calls: 0, cacheHits: 0, tokensIn: 0, tokensOut: 0, costUsd: 0 };
}

export function emptyUsage(): UsageReport {
  return {
    calls: 0,
    cacheHits: 0,
    failedCalls: 0,
    requeuedCalls: 0,
    standInCalls: 0,
    tokensIn: 0,
    tokensOut: 0,
    costUsd: 0,
    wallMs: 0,
    fallbackItems: 0,
    fallbackReasons: {},
    flaggedItems: 0,
    checkFailedItems: 0,
    budgetExhausted: false,
    unpricedModels: [],
    byModel: {},
    byPurpose: {},
  };
}

/** Collects usage for one run. Not shared between runs. */
export class UsageMeter {
  private readonly report = emptyUsage();
  private firstAt: number | null = null;
  private lastAt: number | null = null;

  constructor(private readonly now: () => number = Date.now) {}

  private model(id: string): ModelUsage {
    this.report.byModel[id] ??= { ...zeroCounts(), latencyMs: 0 };
    return this.report.byModel[id];
  }

  private purpose(purpose: UsagePurpose): PurposeUsage {
    this.report.byPurpose[purpose] ??= { ...zeroCounts(), failedCalls: 0 };
    return this.report.byPurpose[purpose];
  }

  /** Marks LLM activity starting, for wall time. */
  touch(): void {
    const now = this.now();
    this.firstAt ??= now;
    this.lastAt = now;
  }

  recordCall(call: CallRecord): void {
    this.touch();
    const model = this.model(call.model);
    this.report.calls += 1;
    model.calls += 1;
    if (call.failed) this.report.failedCalls += 1;
    if (call.requeued) this.report.requeuedCalls += 1;
    if (call.purpose) {
      const purpose = this.purpose(call.purpose);
      purpose.calls += 1;
      if (call.failed) purpose.failedCalls += 1;
      purpose.tokensIn += call.tokensIn;
      purpose.tokensOut += call.tokensOut;
      purpose.costUsd += call.costUsd;
    }
    if (call.priced === false && !this.report.unpricedModels.includes(call.model)) {
      this.report.unpricedModels.push(call.model);
    }
    for (const target of [this.report, model]) {
      target.tokensIn += call.tokensIn;
      target.tokensOut += call.tokensOut;
      target.costUsd += call.costUsd;
    }
    if (!call.failed && !call.requeued) model.latencyMs += call.latencyMs;
  }

  recordCacheHit(modelId: string, purpose?: Purpose): void {
    this.touch();
    this.report.cacheHits += 1;
    this.model(modelId).cacheHits += 1;
    if (purpose) this.purpose(purpose).cacheHits += 1;
  }

  recordFallback(reason: string): void {
    this.report.fallbackItems += 1;
    this.report.fallbackReasons[reason] = (this.report.fallbackReasons[reason] ?? 0) + 1;
  }

  recordStandIn(): void {
    this.report.standInCalls += 1;
  }

  recordCheckFailed(): void {
    this.report.checkFailedItems += 1;
  }

  recordFlagged(): void {
    this.report.flaggedItems += 1;
  }

  recordBudgetExhausted(): void {
    this.report.budgetExhausted = true;
  }

  get costUsd(): number {
    return this.report.costUsd;
  }

  snapshot(): UsageReport {
    const wallMs = this.firstAt === null || this.lastAt === null ? 0 : this.lastAt - this.firstAt;
    const byPurpose = Object.fromEntries(
      Object.entries(this.report.byPurpose).map(([name, usage]) => [
        name,
        { ...usage, costUsd: roundCost(usage.costUsd) },
      ]),
    );
    return structuredClone({
      ...this.report,
      costUsd: roundCost(this.report.costUsd),
      wallMs,
      byPurpose,
    });
  }
}

function roundCost(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
