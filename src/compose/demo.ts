// The demo use case: the bundled sample week, its recorded real feeds served on loopback, built offline.

import { relative } from 'node:path';
import { parseConfig } from '../config/index.js';
import type { BuildOutcome } from '../editions/index.js';
import {
  SAMPLE_CONFIG,
  SAMPLE_ORIGIN,
  SAMPLE_WEEK,
  sampleConfig,
  startSampleServer,
} from '../sample/sample-week.js';
import { type OpenDigestOptions, withDigest } from './open-digest.js';

export { SAMPLE_WEEK };

export async function runDemo(
  options: Omit<OpenDigestOptions, 'config' | 'configFile'> & { outDir: string },
): Promise<BuildOutcome & { storeLocation: string }> {
  const server = await startSampleServer();
  try {
    const config = parseConfig(sampleConfig(server.origin), SAMPLE_CONFIG);
    // The sample's config sets nothing the ranking reads (no source weight, no selection field), so the commands
    // after the demo — with the defaults or with what `digest init` wrote — rank the week as the demo does.
    const shown = relative(options.cwd, SAMPLE_CONFIG);
    options.log.info(
      `Config: ${shown.startsWith('..') ? SAMPLE_CONFIG : shown} (its sources, on ${SAMPLE_ORIGIN}, are served from the recorded files). ` +
        'It sets no ranking weight, so list, build and the desk rank the week as the demo does with your config or the defaults.',
    );
    return await withDigest({ ...options, config }, async (digest) => ({
      ...(await digest.build({
        week: SAMPLE_WEEK,
        outDir: options.outDir,
        ingest: true,
        enrich: false,
        offline: true,
        check: false,
        refresh: false,
      })),
      storeLocation: digest.storeLocation,
    }));
  } finally {
    await server.close();
  }
}
