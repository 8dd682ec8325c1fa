// The bundled sample week: recorded real responses served on loopback to the real adapters.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConfigInput } from '../config/config-schema.js';
import { addDays, isIsoDay } from '../core/dates.js';

export const SAMPLE_WEEK = '2026-05-04';
export const SAMPLE_DIR = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'sample',
  'week-2026-05-04',
);

const FEEDS: Record<string, string> = {
  '/feeds/rss-openai.xml': 'rss-openai.xml',
  '/feeds/rss-willison.xml': 'rss-willison.xml',
  '/feeds/rss-takara.xml': 'rss-takara.xml',
};

export interface SampleServer {
  origin: string;
  close(): Promise<void>;
}

/** Serves the sample files on 127.0.0.1 (a free port). Unknown paths are 404, like a real server. */
export async function startSampleServer(directory = SAMPLE_DIR): Promise<SampleServer> {
  const server = createServer(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    const file = resolveSampleFile(path, directory);
    if (!file) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not in the sample week');
      return;
    }
    try {
      const body = await readFile(file);
      response.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8' }).end(body);
    } catch {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not in the sample week');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function resolveSampleFile(path: string, directory: string): string | null {
  const feed = FEEDS[path];
  if (feed) return join(directory, 'feeds', feed);
  const day = /^\/hf-daily\/(\d{4}-\d{2}-\d{2})\.xml$/.exec(path)?.[1];
  // The capture taken just after midnight of day D+1 holds HF's list of day D.
  if (day && isIsoDay(day))
    return join(directory, 'hf-daily', `hf-daily-rss-huangboming_${addDays(day, 1)}.xml`);
  return null;
}

/**
 * The demo's config, a file the user can read and copy. It sets nothing the ranking reads (no source weight, no
 * audience, no selection field), so the commands after the demo rank the sample week as the demo did whatever config
 * they load — the defaults, or what `digest init` wrote (test/sample/sample-week.test.ts holds it so). Its sources live
 * on the reserved origin http://sample.invalid (it never resolves): the demo serves those paths from the recorded files.
 */
export const SAMPLE_CONFIG = join(SAMPLE_DIR, '..', 'digest.config.json');
export const SAMPLE_ORIGIN = 'http://sample.invalid';

/** The sample's config file with its sources pointed at the sample server's `origin`. */
export function sampleConfig(origin: string): ConfigInput {
  const config = JSON.parse(readFileSync(SAMPLE_CONFIG, 'utf8')) as ConfigInput;
  return {
    ...config,
    sources: (config.sources ?? []).map((source) => ({
      ...source,
      ...(source.url?.startsWith(SAMPLE_ORIGIN)
        ? { url: origin + source.url.slice(SAMPLE_ORIGIN.length) }
        : {}),
    })),
  };
}
