// Reads a response body with a size cap, so a huge or endless answer is cut off instead of buffered.
import { FetchError } from '../core/errors.js';
import { displayUrl } from '../core/urls.js';

/** The parts of a fetch Response read here (the global one and undici's both fit). */
export interface StreamedResponse {
  headers: { get(name: string): string | null };
  body: {
    getReader(): { read(): Promise<{ done: boolean; value?: Uint8Array }>; cancel(): Promise<void> };
    cancel(): Promise<void>;
  } | null;
}

/**
 * The body, decoded (gzip, br, deflate) as it streams: the cap counts decoded bytes as they arrive, chunked or
 * not, so neither an endless answer nor a compression bomb is ever held in memory beyond `maxBytes`.
 */
export async function readCappedBody(
  response: StreamedResponse,
  url: string,
  maxBytes: number,
): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge(url, maxBytes, declared);
  }
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done || !value) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(url, maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

function tooLarge(url: string, maxBytes: number, declared?: number): FetchError {
  const said = declared === undefined ? '' : ` (it announced ${declared} bytes)`;
  return new FetchError(
    `response larger than ${maxBytes} bytes from ${displayUrl(url)}${said}; raise http.maxBytes if this source is meant to be that big`,
    { url },
  );
}
