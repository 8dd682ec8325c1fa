// The sample's config ranks as every other config does: it sets nothing the ranking reads, so after the demo the
// commands with the defaults or with `digest init`'s config rank the sample week as the demo did.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/index.js';
import { SAMPLE_CONFIG, sampleConfig } from '../../src/sample/sample-week.js';

describe('the sample config', () => {
  const raw = JSON.parse(readFileSync(SAMPLE_CONFIG, 'utf8')) as Record<string, unknown>;
  const sample = parseConfig(sampleConfig('http://127.0.0.1:9'));
  const defaults = parseConfig({});

  it('sets only its sources (without weights) and turns fetching off', () => {
    expect(Object.keys(raw).sort()).toEqual(['enrich', 'name', 'sources']);
    for (const source of raw.sources as Record<string, unknown>[])
      expect(source).not.toHaveProperty('weight');
  });

  it('ranks with the default audience, item count, selection and source weight', () => {
    expect(sample.audience).toBe(defaults.audience);
    expect(sample.itemsPerEdition).toBe(defaults.itemsPerEdition);
    expect(sample.selection).toEqual(defaults.selection);
    expect(new Set(sample.sources.map((source) => source.weight))).toEqual(new Set([1]));
  });
});
