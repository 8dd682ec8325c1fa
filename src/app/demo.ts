// The demo use case: the bundled sample week, its recorded real feeds served on loopback, built offline.
import { parseConfig } from '../config/index.js';
import { SAMPLE_WEEK, sampleConfig, startSampleServer } from '../sample/sample-week.js';
import type { BuildOutcome } from './build.js';
import { type OpenDigestOptions, withDigest } from './open-digest.js';

export { SAMPLE_WEEK };

export async function runDemo(
  options: Omit<OpenDigestOptions, 'config' | 'configFile'> & { outDir: string },
): Promise<BuildOutcome & { storeLocation: string }> {
  const server = await startSampleServer();
  try {
    const config = parseConfig(sampleConfig(server.origin), 'sample config');
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
