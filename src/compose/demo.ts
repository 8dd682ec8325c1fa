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
    // The config is a file: passed to list, build or serve, it ranks the week exactly as the demo does.
    const shown = relative(options.cwd, SAMPLE_CONFIG);
    options.log.info(
      `Config: ${shown.startsWith('..') ? SAMPLE_CONFIG : shown} (its sources, on ${SAMPLE_ORIGIN}, are served from the recorded files). ` +
        'Give it to other commands with --config to rank the week the same way.',
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
