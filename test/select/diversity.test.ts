// A week where one theme dominates still yields a mixed edition.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, editionWindow } from '../../src/core/dates.js';
import { silentLogger } from '../../src/core/ports.js';
import type { StoredItem } from '../../src/core/types.js';
import { createHttpClient } from '../../src/net/http-client.js';
import { MAX_THEME_SHARE, planEdition } from '../../src/select/plan-edition.js';
import { hfDailyPapersRssSource } from '../../src/sources/hf-daily-papers-rss.js';
import { readFixture } from '../support/fixtures.js';
import { type LoopbackServer, startLoopback } from '../support/loopback.js';
import { policy, storedFrom, storedItem } from '../support/stored-items.js';

const WEEK = '2026-05-04';
let server: LoopbackServer;
let seedWeek: StoredItem[];

beforeAll(async () => {
  // The capture of day D+1 holds HF's list of day D (see the seed week's README).
  server = await startLoopback((request, response) => {
    const day = /^\/(\d{4}-\d{2}-\d{2})\.xml$/.exec(request.path)?.[1];
    try {
      const body = readFixture(
        'real',
        'seed-week-2026-05-04',
        `hf-daily-rss-huangboming_${addDays(day ?? '', 1)}.xml`,
      );
      response.writeHead(200, { 'content-type': 'application/rss+xml' }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  const result = await hfDailyPapersRssSource({ id: 'api-hf', url: server.url('/{date}.xml') }).fetch({
    window: editionWindow(WEEK),
    http: createHttpClient({ timeoutMs: 5000, maxBytes: 10 * 1024 * 1024, retries: 0 }),
    state: {},
    log: silentLogger,
  });
  seedWeek = result.items.map((item) => storedFrom(item));
});
afterAll(() => server.close());

const isAgentPaper = (item: StoredItem) => /\bagent/i.test(item.title);

describe('diversity', () => {
  it('reads the real seed week', () => {
    expect(seedWeek).toHaveLength(118);
  });

  it('keeps agent papers to half of an edition in a real week crowded with them', () => {
    const best = planEdition(seedWeek, policy(), WEEK).ranked.map((row) => row.item);
    const agents = best.filter(isAgentPaper);
    const others = best.filter((item) => !isAgentPaper(item)).slice(0, 12);
    expect(agents.length).toBeGreaterThanOrEqual(20);
    const plan = planEdition([...agents, ...others], policy(), WEEK);
    const byScoreAlone = plan.ranked.slice(0, 12).filter((row) => isAgentPaper(row.item)).length;
    const picked = plan.picks.filter((pick) => isAgentPaper(pick.item)).length;
    expect(byScoreAlone).toBeGreaterThan(6);
    expect(picked).toBeLessThan(byScoreAlone);
    expect(picked).toBeLessThanOrEqual(Math.ceil(12 * MAX_THEME_SHARE));
    expect(plan.picks.some((pick) => pick.signals.diversityPenalty! > 0)).toBe(true);
  });

  it('lets a synthetic flood of one theme fill at most half, and only all of it when nothing else is left', () => {
    // Synthetic: 30 prompt-injection papers that outscore everything, and 10 on other practitioner topics.
    const flood = Array.from({ length: 30 }, (_, index) =>
      storedItem({
        key: `arxiv:2604.3${String(index).padStart(4, '0')}`,
        title: `Prompt injection attack ${index} against tool-using agents`,
        text: `We study prompt injection attacks and jailbreak defenses for agents in production (variant ${index}). `.repeat(
          4,
        ),
        upvotes: 100 + index,
      }),
    );
    const topics = [
      'retrieval-augmented generation with reranking',
      'quantization for inference serving latency',
      'code generation benchmark for repositories',
      'evaluation of hallucination in long context',
      'fine-tuning with LoRA on domain data',
    ];
    const others = topics.flatMap((topic, index) =>
      [0, 1].map((copy) =>
        storedItem({
          key: `arxiv:2604.4${index}${copy}00`,
          title: `${copy ? 'Revisiting' : 'Practical'} ${topic}`,
          text: `This work covers ${topic} for engineers with measurements and lessons. `.repeat(4),
          upvotes: 2,
        }),
      ),
    );
    const plan = planEdition([...flood, ...others], policy(), WEEK);
    const floodKeys = new Set(flood.map((item) => item.key));
    const fromFlood = plan.picks.filter((pick) => floodKeys.has(pick.item.key)).length;
    expect(plan.ranked.slice(0, 12).every((row) => floodKeys.has(row.item.key))).toBe(true);
    expect(fromFlood).toBeLessThanOrEqual(6);
    expect(plan.picks).toHaveLength(12);
    expect(planEdition(flood, policy(), WEEK).picks).toHaveLength(12);
  });
});
