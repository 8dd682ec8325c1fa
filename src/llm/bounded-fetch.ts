// The fetch every provider gets: an overall deadline and a byte cap counted on the decoded body as it streams, so a
// hung, dripping, huge or gzip-bombed answer fails that one call with bounded memory instead of hanging the build or
// filling the heap. The providers accept `fetch` in their settings; this is the only change they see.
import { AnswerTooLargeError, CallTimeoutError } from './call-errors.js';

export interface BoundedFetchOptions {
  /** The fetch underneath (tests, proxies); global fetch by default. */
  fetch?: typeof fetch;
  /** Decoded bytes an answer may have. */
  maxBytes: number;
  /** Headers and the whole body must arrive within this (ms). */
  timeoutMs: number;
}

const NO_BODY = new Set([101, 204, 205, 304]);

export function createBoundedFetch(options: BoundedFetchOptions): typeof fetch {
  const inner = options.fetch ?? globalThis.fetch;
  const bounded = async (input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> => {
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new CallTimeoutError(`no complete answer within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    const signal = init?.signal ? AbortSignal.any([init.signal, deadline.signal]) : deadline.signal;
    let response: Response;
    try {
      response = await inner(input, { ...init, signal });
    } catch (error) {
      clearTimeout(timer);
      throw deadline.signal.aborted ? deadline.signal.reason : error;
    }
    if (!response.body || NO_BODY.has(response.status)) {
      clearTimeout(timer);
      return response;
    }
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    if (!response.headers.get('content-encoding') && declared > options.maxBytes) {
      clearTimeout(timer);
      await response.body.cancel().catch(() => {});
      throw tooLarge(options.maxBytes, declared);
    }
    return new Response(cappedBody({ source: response.body, signal, timer, maxBytes: options.maxBytes }), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
  return bounded as typeof fetch;
}

function cappedBody({
  source,
  signal,
  timer,
  maxBytes,
}: {
  source: ReadableStream<Uint8Array>;
  signal: AbortSignal;
  timer: NodeJS.Timeout;
  maxBytes: number;
}): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let received = 0;
  // Rejects when the deadline (or the caller) aborts, so a body that drips a byte a second cannot outlive it.
  const aborted = new Promise<never>((_, reject) => {
    const fail = () => reject(signal.reason ?? new CallTimeoutError('aborted'));
    if (signal.aborted) fail();
    else signal.addEventListener('abort', fail, { once: true });
  });
  aborted.catch(() => {});
  const stop = (reason: unknown) => {
    clearTimeout(timer);
    reader.cancel(reason).catch(() => {});
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await Promise.race([reader.read(), aborted]);
        if (done) {
          clearTimeout(timer);
          controller.close();
          return;
        }
        received += value.byteLength;
        if (received > maxBytes) throw tooLarge(maxBytes);
        controller.enqueue(value);
      } catch (error) {
        stop(error);
        controller.error(error);
      }
    },
    cancel(reason) {
      stop(reason);
    },
  });
}

function tooLarge(maxBytes: number, declared?: number): AnswerTooLargeError {
  const size = declared ? ` (${Math.round(declared / 1e6)} MB declared)` : '';
  return new AnswerTooLargeError(`the answer exceeded ${Math.round(maxBytes / 1e3)} KB${size}`);
}
