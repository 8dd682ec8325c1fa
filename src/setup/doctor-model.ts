// `digest doctor`'s model checks: the writing model (and the checking one when it differs) gets one small structured
// call (exactly 3 items asked); its latency and tokens per second give a rough wall time and cost of this week's
// build. The embeddings model, when set, embeds one short text.

import type { Config } from '../config/config-schema.js';
import { DEFAULT_CONCURRENCY, type LlmConfig } from '../config/llm-schema.js';
import { errorMessage } from '../core/errors.js';
import { createEmbedder } from '../llm/embeddings.js';
import { engineSlots } from '../llm/engine-slots.js';
import { type ModelProbe, PROBE_ITEMS, probeModel } from '../llm/model-probe.js';
import { costOf, priceOf } from '../llm/pricing.js';
import { endpointOf, isLocalModel, keySetting, missingSetting, providerOf } from '../llm/providers.js';
import { check, type DoctorCheck } from './doctor-types.js';

export interface BuildEstimate {
  model: string;
  calls: number;
  tokensIn: number;
  tokensOut: number;
  /** Rough seconds from the first to the last call, with the calls the model can take at once. */
  wallSeconds: number;
  costUsd: number;
  /** Calls at once the estimate assumes (the server's slots, or llm.concurrency). */
  parallel: number;
}

export interface ModelChecks {
  checks: DoctorCheck[];
  estimate?: BuildEstimate;
}

interface Options {
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
}

/**
 * Rough sizes of one build's calls, from builds of 12 items: triage rates about 5 candidates an item; an item's
 * prompt is its source text (cut at llm.maxInputTokens) and the instructions.
 */
function buildCalls(config: Config) {
  const items = config.itemsPerEdition;
  const candidates = items * 5;
  const write = { calls: items, in: 800 + Math.round(config.llm.maxInputTokens * 0.7), out: 350 };
  const checks = config.llm.checkEnabled ? items : 0;
  return [
    { calls: 1, in: 300 * candidates, out: 20 * candidates },
    write,
    { calls: checks, in: 1200, out: 250 },
    { calls: 1, in: 1500, out: 120 },
  ];
}

/** Seconds one call of `tokensIn` → `tokensOut` takes, from the probe's figures. */
function callSeconds(measured: Measured, tokensIn: number, tokensOut: number): number {
  if (measured.engine) {
    // The engine said how fast it reads and writes (llama.cpp's timings).
    return tokensIn / measured.engine.promptPerSecond + tokensOut / measured.engine.answerPerSecond;
  }
  // Otherwise: the probe's whole latency, the prompt read at ~10× the answer's speed (llama.cpp on a CPU reads 5–20×
  // faster than it writes; a hosted API's reading is in its latency), the rest of the answer at the probe's speed.
  const perSecond = measured.tokensOut / Math.max(measured.latencyMs / 1000, 0.001);
  const extraOut = Math.max(0, tokensOut - measured.tokensOut);
  return measured.latencyMs / 1000 + tokensIn / (perSecond * 10) + extraOut / perSecond;
}

type Measured = Pick<Extract<ModelProbe, { ok: true }>, 'latencyMs' | 'tokensOut' | 'engine'>;

function estimate({
  modelId,
  config,
  measured,
  parallel,
  env,
}: {
  modelId: string;
  config: Config;
  measured: Measured;
  parallel: number;
  env: NodeJS.ProcessEnv;
}): BuildEstimate {
  let seconds = 0;
  let tokensIn = 0;
  let tokensOut = 0;
  let count = 0;
  for (const call of buildCalls(config)) {
    count += call.calls;
    tokensIn += call.calls * call.in;
    tokensOut += call.calls * call.out;
    seconds += call.calls * callSeconds(measured, call.in, call.out);
  }
  const price = priceOf(modelId, config.llm.prices, isLocalModel(modelId, { llm: config.llm, env }));
  return {
    model: modelId,
    calls: count,
    tokensIn,
    tokensOut,
    wallSeconds: Math.round(seconds / parallel),
    costUsd: costOf(price, tokensIn, tokensOut),
    parallel,
  };
}

const FAILURE_WORDS = {
  key: 'key rejected',
  unreachable: 'unreachable',
  'blocked-port': 'on a port fetch refuses',
  timeout: 'timed out',
  http: 'error',
  schema: 'no JSON',
} as const;

function failedCall({
  modelId,
  role,
  probe,
  baseURL,
  llm,
  timeoutMs,
}: {
  modelId: string;
  role: string;
  probe: Extract<ModelProbe, { ok: false }>;
  baseURL: string;
  llm: LlmConfig;
  timeoutMs: number;
}): DoctorCheck {
  const fixes = {
    key: `the server refused the key: check ${keySetting(modelId, llm)}`,
    unreachable: `nothing answers at ${baseURL}: start the server or correct its address`,
    'blocked-port': `${baseURL} is on a port fetch never connects to: serve the model on another port (Ollama's 11434, 8080…) and correct its address`,
    timeout: `no answer in ${timeoutMs / 1000} s from ${baseURL}: is the server overloaded or the model still loading?`,
    http: `the server answered HTTP ${probe.status ?? '?'}: check the model name "${modelId}" and the server's address`,
    schema:
      'the answer was not JSON of the schema: use a model or server with structured outputs (JSON schema)',
  } as const;
  const detail = `${role}: ${FAILURE_WORDS[probe.failure]} (${probe.message})`;
  return check({ area: 'model', name: modelId, status: 'fail', detail, fix: fixes[probe.failure] });
}

/** A model that cannot serve: one failed check, no estimate. */
function modelFailed(modelId: string, detail: string, fix: string): ModelChecks {
  return { checks: [check({ area: 'model', name: modelId, status: 'fail', detail, fix })] };
}

async function checkOneModel({
  modelId,
  role,
  config,
  options,
}: {
  modelId: string;
  role: string;
  config: Config;
  options: Options;
}): Promise<ModelChecks> {
  const { llm } = config;
  const missing = missingSetting(modelId, { llm, env: options.env });
  if (missing) return modelFailed(modelId, missing.message, `set ${missing.setting}`);
  const baseURL = endpointOf(modelId, { llm, env: options.env });
  const [probe, slots] = await Promise.all([
    probeModel(modelId, { llm, env: options.env, timeoutMs: options.timeoutMs }),
    // Engines (Ollama, llama.cpp, vLLM…) may say how many calls they serve at once; hosted APIs do not.
    ['ollama', 'openai-compatible'].includes(providerOf(modelId))
      ? engineSlots(baseURL)
      : Promise.resolve(null),
  ]);
  if (!probe.ok)
    return { checks: [failedCall({ modelId, role, probe, baseURL, llm, timeoutMs: options.timeoutMs })] };
  const seconds = probe.latencyMs / 1000;
  const writes = probe.engine?.answerPerSecond ?? probe.tokensOut / Math.max(seconds, 0.001);
  const reads = probe.engine ? ` (prompt ${Math.round(probe.engine.promptPerSecond)} tokens/s)` : '';
  const speed = `${seconds.toFixed(1)} s, ${Math.round(writes)} tokens/s${reads}`;
  const slotNote = slots ? `, ${slots} slot(s)` : '';
  if (probe.items !== PROBE_ITEMS) {
    return modelFailed(
      modelId,
      `${role}: asked for exactly ${PROBE_ITEMS} items, got ${probe.items} (${speed})`,
      'the server does not enforce JSON-schema array sizes: use structured outputs (json_schema) or another model',
    );
  }
  // As the LLM client sizes its window: llm.concurrency when set, else the engine's slots, else 1 (local) or the default.
  const local = isLocalModel(modelId, { llm, env: options.env });
  const parallel = llm.concurrency ?? slots ?? (local ? 1 : DEFAULT_CONCURRENCY);
  return {
    checks: [
      check({
        area: 'model',
        name: modelId,
        status: 'ok',
        detail: `${role}: answered ${PROBE_ITEMS} of ${PROBE_ITEMS} items asked, ${speed}${slotNote}`,
      }),
    ],
    estimate: estimate({ modelId, config, measured: probe, parallel, env: options.env }),
  };
}

async function checkEmbeddings(modelId: string, llm: LlmConfig, options: Options): Promise<DoctorCheck> {
  const missing = missingSetting(modelId, { llm, env: options.env });
  if (missing)
    return check({
      area: 'embeddings',
      name: modelId,
      status: 'fail',
      detail: missing.message,
      fix: `set ${missing.setting}`,
    });
  const started = performance.now();
  try {
    const embedder = createEmbedder({
      modelId,
      llm,
      env: options.env,
      store: { cache: { get: async () => null, put: async () => {} } },
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    const [vector] = await embedder.embed(['digest doctor checks the embeddings model']);
    const ms = Math.round(performance.now() - started);
    return check({
      area: 'embeddings',
      name: modelId,
      status: 'ok',
      detail: `${vector?.length ?? 0} dimensions in ${ms} ms`,
    });
  } catch (error) {
    return check({
      area: 'embeddings',
      name: modelId,
      status: 'fail',
      detail: errorMessage(error),
      fix: `check the model name and ${keySetting(modelId, llm)}, or unset llm.embed (taste then learns from tf-idf)`,
    });
  }
}

export async function checkModels(config: Config, options: Options): Promise<ModelChecks> {
  const { llm } = config;
  if (!llm.write) {
    return {
      checks: [
        check({
          area: 'model',
          name: 'writer',
          status: 'skip',
          detail: 'llm.write is not set: editions are written extractively (no model)',
        }),
      ],
    };
  }
  const writer = checkOneModel({ modelId: llm.write, role: 'writes', config, options });
  const checker =
    llm.check && llm.check !== llm.write
      ? checkOneModel({ modelId: llm.check, role: 'checks', config, options })
      : null;
  const embeddings = llm.embed
    ? checkEmbeddings(llm.embed, llm, options)
    : Promise.resolve(
        check({
          area: 'embeddings',
          name: 'embeddings',
          status: 'skip',
          detail: 'llm.embed is not set: taste learns from tf-idf',
        }),
      );
  // A fallback takes over when the writer is down: one that does not work either is found now, not mid-build.
  const fallbacks = llm.fallbacks
    .filter((id) => id !== llm.write && id !== llm.check)
    .map((id) => checkOneModel({ modelId: id, role: 'fallback', config, options }));
  const [written, checked, embedded, ...backups] = await Promise.all([
    writer,
    checker,
    embeddings,
    ...fallbacks,
  ]);
  return {
    checks: [
      ...written.checks,
      ...(checked?.checks ?? []),
      ...backups.flatMap((backup) => backup.checks),
      embedded,
    ],
    ...(written.estimate ? { estimate: written.estimate } : {}),
  };
}
