import { afterEach, describe, expect, it } from 'vitest';
import { fetchArxivEntries, parseArxivAtom } from '../../src/sources/arxiv-api.js';
import { readFixture } from '../support/fixtures.js';
import { type LoopbackServer, startLoopback } from '../support/loopback.js';
import { testHttp } from './contract.js';

const OLD = readFixture(
  'real',
  'arxiv-api',
  'query_cat-cs.RO_AND_neural_2_oldformat_2025-10-17.xml',
).toString('utf8');
const NEW = readFixture('real', 'arxiv-api', 'query_all-transformer_AND_cat-cs.LG_5_2026-06-14.xml').toString(
  'utf8',
);
const NEW_25 = readFixture('real', 'arxiv-api', 'query_cs.AI_OR_cs.LG_OR_cs.CL_25_2026-08-02.xml').toString(
  'utf8',
);

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('parseArxivAtom', () => {
  it('reads the old serialisation', () => {
    const { entries, errors } = parseArxivAtom(OLD);
    expect(errors).toEqual([]);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      arxivId: '2510.14968',
      title: 'RDD: Retrieval-Based Demonstration Decomposer for Planner Alignment in Long-Horizon Tasks',
      authors: ['Mingxuan Yan', 'Yuping Wang', 'Zechun Liu', 'Jiachen Li'],
      published: '2025-10-16T17:59:37.000Z',
      pdfUrl: 'https://arxiv.org/pdf/2510.14968v1',
      absUrl: 'https://arxiv.org/abs/2510.14968',
      // The entry's id names the latest version: the paper's HTML rendering is read once per version.
      version: 1,
    });
    expect(entries[0]?.categories).toEqual(['cs.RO', 'cs.AI', 'cs.CV', 'cs.LG', 'cs.SY', 'eess.SY']);
    expect(entries[0]?.abstract).toMatch(
      /^To tackle long-horizon tasks, recent hierarchical vision-language-action \(VLAs\) frameworks/,
    );
    expect(entries[0]?.abstract).not.toMatch(/\n|\s{2}/);
  });

  it('reads the new serialisation', () => {
    const { entries } = parseArxivAtom(NEW);
    expect(entries).toHaveLength(5);
    expect(entries[0]).toMatchObject({
      arxivId: '2606.13677',
      title: 'Mana: Dexterous Manipulation of Articulated Tools',
      authors: ['Zhao-Heng Yin', 'Guanya Shi', 'Pieter Abbeel', 'C. Karen Liu'],
      categories: ['cs.RO', 'cs.AI', 'cs.CV', 'cs.LG'],
      published: '2026-06-11T17:59:49.000Z',
      updated: '2026-06-11T17:59:49.000Z',
      pdfUrl: 'https://arxiv.org/pdf/2606.13677v1',
    });
    expect(entries[0]?.abstract).toContain('(<1 minute per tool)');
    expect(parseArxivAtom(NEW_25).entries).toHaveLength(25);
  });
});

describe('fetchArxivEntries', () => {
  it('asks in batches with id_list and reports ids arXiv does not have', async () => {
    server = await startLoopback((_, response) => {
      response.writeHead(200, { 'content-type': 'application/atom+xml' }).end(NEW);
    });
    const ids = ['2606.13677v1', 'arXiv:2606.13591', '2606.13677', '2401.00001', 'not-an-id'];
    const { entries, warnings } = await fetchArxivEntries(ids, {
      http: testHttp(),
      baseUrl: server.url('/api/query'),
      batchSize: 2,
      pauseMs: 0,
    });
    expect(server.requests.map((r) => r.query.get('id_list'))).toEqual([
      '2606.13677,2606.13591',
      '2401.00001',
    ]);
    expect(server.requests[0]?.query.get('max_results')).toBe('2');
    expect(entries.length).toBeGreaterThan(0);
    expect(warnings).toContain('not arXiv ids, skipped: not-an-id');
    expect(warnings).toContain('arXiv has no entry for: 2401.00001');
  });

  it('turns a failed batch into a warning', async () => {
    server = await startLoopback((_, response) => {
      response.writeHead(503).end();
    });
    const { entries, warnings } = await fetchArxivEntries(['2606.13677'], {
      http: testHttp(),
      baseUrl: server.url('/api/query'),
    });
    expect(entries).toEqual([]);
    expect(warnings[0]).toMatch(/arXiv API request for 1 ids failed: HTTP 503/);
  });
});
