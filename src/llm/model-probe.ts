// One small structured call to a configured model, outside the LLM client (no cache, no budget, no retries): what
// `digest doctor` asks to learn whether the model is reachable, accepts its key, honours a JSON schema's array size,
// and how fast it answers.
import { generateText, NoObjectGeneratedError, Output, wrapLanguageModel } from 'ai';
import { z } from 'zod';
import { causeChain, connectionFailure, statusOf } from './call-errors.js';
import { schemaLayer } from './provider-schema.js';
import { providerOf, type ResolveModelOptions, resolveModel } from './providers.js';

/** Exactly three short items: a schema whose array size a grammar-constrained or strict provider enforces. */
const probeSchema = z.object({ items: z.array(z.string()).length(3) });

export const PROBE_ITEMS = 3;

export type ProbeFailure =
  /** 401/403: the key (or its absence) was refused. */
  | 'key'
  /** No connection: refused, no such host, no route. */
  | 'unreachable'
  /** A port fetch never connects to (6000, 9, 5060…: the browsers' blocked list; undici says "bad port"). */
  | 'blocked-port'
  | 'timeout'
  /** The server answered with another HTTP error (404 for an unknown model, 5xx…). */
  | 'http'
  /** It answered, but not with JSON of the schema. */
  | 'schema';

export interface EngineSpeed {
  promptPerSecond: number;
  answerPerSecond: number;
}

const timingsSchema = z.object({
  timings: z.object({
    prompt_per_second: z.number().positive(),
    predicted_per_second: z.number().positive(),
  }),
});

/** llama.cpp's server adds `timings` to each answer: the prompt's reading and the answer's writing speed. */
function engineSpeed(body: unknown): EngineSpeed | undefined {
  const parsed = timingsSchema.safeParse(body);
  if (!parsed.success) return undefined;
  const { prompt_per_second, predicted_per_second } = parsed.data.timings;
  return { promptPerSecond: prompt_per_second, answerPerSecond: predicted_per_second };
}

export type ModelProbe =
  | {
      ok: true;
      /** How many items came back (the schema asked for exactly PROBE_ITEMS). */
      items: number;
      latencyMs: number;
      tokensIn: number;
      tokensOut: number;
      /** The engine's own speeds, when it reports them (llama.cpp's `timings`): reading the prompt, writing. */
      engine?: EngineSpeed;
    }
  | { ok: false; failure: ProbeFailure; message: string; status?: number; latencyMs: number };

const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

function connectionCode(error: unknown): string | undefined {
  for (const entry of causeChain(error)) {
    const code = (entry as { code?: unknown }).code;
    if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return code;
  }
  return undefined;
}

function classify(error: unknown, latencyMs: number): ModelProbe {
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 300);
  if (NoObjectGeneratedError.isInstance(error)) return { ok: false, failure: 'schema', message, latencyMs };
  const status = statusOf(error);
  if (status === 401 || status === 403) return { ok: false, failure: 'key', message, status, latencyMs };
  if (connectionFailure(error) === 'blocked-port')
    return { ok: false, failure: 'blocked-port', message: 'bad port', latencyMs };
  const code = connectionCode(error);
  if (code) return { ok: false, failure: 'unreachable', message: code, latencyMs };
  if (causeChain(error).some((entry) => entry instanceof Error && /abort|timeout/i.test(entry.name))) {
    return { ok: false, failure: 'timeout', message, latencyMs };
  }
  return status !== undefined
    ? { ok: false, failure: 'http', message, status, latencyMs }
    : { ok: false, failure: 'unreachable', message, latencyMs };
}

export async function probeModel(
  modelId: string,
  options: ResolveModelOptions & { timeoutMs: number },
): Promise<ModelProbe> {
  const started = performance.now();
  try {
    const result = await generateText({
      // The schema in the provider's form, as the LLM client sends it (OpenAI's strict mode refuses minItems/maxItems).
      model: wrapLanguageModel({
        model: resolveModel(modelId, options),
        middleware: schemaLayer(providerOf(modelId)),
      }),
      system: 'You answer with JSON only.',
      prompt: `List exactly ${PROBE_ITEMS} primary colours, one or two words each, as {"items": [...]}.`,
      output: Output.object({ schema: probeSchema.loose(), name: 'colours' }),
      temperature: 0,
      maxOutputTokens: 200,
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(options.timeoutMs),
    }).catch((error: unknown) => {
      // A wrong count is what we want to report, not a failure: read the items from the raw answer.
      if (NoObjectGeneratedError.isInstance(error) && error.text) {
        const items = countItems(error.text);
        if (items !== null) {
          return {
            output: { items: new Array(items).fill('') },
            usage: error.usage,
            response: error.response,
          };
        }
      }
      throw error;
    });
    const engine = engineSpeed((result.response as { body?: unknown } | undefined)?.body);
    return {
      ok: true,
      items: result.output.items.length,
      latencyMs: performance.now() - started,
      tokensIn: result.usage?.inputTokens ?? 0,
      tokensOut: result.usage?.outputTokens ?? 0,
      ...(engine ? { engine } : {}),
    };
  } catch (error) {
    return classify(error, performance.now() - started);
  }
}

function countItems(text: string): number | null {
  try {
    const items = (JSON.parse(text) as { items?: unknown }).items;
    return Array.isArray(items) ? items.length : null;
  } catch {
    return null;
  }
}
