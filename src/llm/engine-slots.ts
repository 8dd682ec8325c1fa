// How many calls a local inference engine serves at once. llama.cpp's server (and engines that copy its API, such as
// node-llama-cpp's) answers `GET /props` with `total_slots`; a call beyond them waits in the server's queue, where
// its timeout would run out on the line instead of the model. Asked once per run, with a short deadline; an engine
// that does not say (Ollama, vLLM, LM Studio) gets null, and the LLM client starts it at one call at a time.
import { z } from 'zod';

const propsSchema = z.object({ total_slots: z.number().int().positive().max(1_024) });

/** The /props address for an OpenAI-compatible base URL: the server's root, without the `/v1` API prefix. */
export function propsUrl(baseURL: string): string {
  const url = new URL(baseURL);
  url.pathname = `${url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '')}/props`;
  url.search = '';
  return url.toString();
}

export async function engineSlots(
  baseURL: string,
  options: {
    fetch?: typeof fetch;
    timeoutMs?: number;
    signal?: AbortSignal;
    /** Told why the server did not answer (a refused connection means there is no server to call). */
    onError?: (error: unknown) => void;
  } = {},
): Promise<number | null> {
  const deadline = AbortSignal.timeout(options.timeoutMs ?? 3_000);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  try {
    const response = await (options.fetch ?? fetch)(propsUrl(baseURL), { signal });
    if (!response.ok) return null;
    const parsed = propsSchema.safeParse(await response.json());
    return parsed.success ? parsed.data.total_slots : null;
  } catch (error) {
    options.onError?.(error);
    return null;
  }
}
