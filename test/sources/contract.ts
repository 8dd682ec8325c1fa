// The contract every source kind passes: one fetch through real loopback HTTP, then the same checks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalUrl } from '../../src/core/ids.js';
import type { HttpClient, Source, SourceFetchResult, SourceState } from '../../src/core/ports.js';
import { silentLogger } from '../../src/core/ports.js';
import type { DateWindow } from '../../src/core/types.js';
import { createHttpClient } from '../../src/net/http-client.js';

export interface SourceCase {
  source: Source;
  window: DateWindow;
  http?: HttpClient;
  state?: SourceState;
  /** Fewest items the fixture should yield (0 for sources that fetch nothing). */
  minItems: number;
  close?: () => Promise<void>;
}

export const TAG = /<\/?(?:p|div|a|img|script|style|span|br|b|i|em|strong|h[1-6]|ul|li|iframe)\b[^>]*>/i;

export function testHttp(): HttpClient {
  return createHttpClient({ timeoutMs: 5000, maxBytes: 10 * 1024 * 1024, retries: 0 });
}

export function describeSource(name: string, setup: () => Promise<SourceCase>): void {
  describe(`source contract: ${name}`, () => {
    let testCase: SourceCase;
    let result: SourceFetchResult;
    beforeAll(async () => {
      testCase = await setup();
      result = await testCase.source.fetch({
        window: testCase.window,
        http: testCase.http ?? testHttp(),
        state: testCase.state ?? {},
        log: silentLogger,
      });
    });
    afterAll(async () => {
      await testCase?.close?.();
    });

    it('fetches without an error and yields items', () => {
      expect(result.error).toBeUndefined();
      expect(result.items.length).toBeGreaterThanOrEqual(testCase.minItems);
    });

    it('gives every item an absolute http(s) url and a non-empty title', () => {
      for (const item of result.items) {
        expect(new URL(item.url).protocol).toMatch(/^https?:$/);
        expect(item.title.trim()).not.toBe('');
        expect(item.sourceId).toBe(testCase.source.id);
      }
    });

    it('stamps every item with an ISO date inside the window', () => {
      for (const item of result.items) {
        expect(item.publishedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/);
        const day = item.publishedAt.slice(0, 10);
        expect(day >= testCase.window.start && day <= testCase.window.end).toBe(true);
      }
    });

    it('keeps text plain: no tags, no runs of whitespace', () => {
      for (const item of result.items) {
        expect(item.text).not.toMatch(TAG);
        expect(item.title).not.toMatch(TAG);
        expect(item.text).not.toMatch(/\s{2,}/);
      }
    });

    it('yields no duplicates within one fetch', () => {
      const urls = result.items.map((item) => canonicalUrl(item.url));
      expect(new Set(urls).size).toBe(urls.length);
      const ids = result.items.map((item) => item.arxivId).filter(Boolean);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('only offers http(s) images', () => {
      for (const item of result.items) if (item.image) expect(item.image).toMatch(/^https?:\/\//);
    });
  });
}
