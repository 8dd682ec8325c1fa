import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/config-schema.js';
import { addDays, editionWindow } from '../../src/core/dates.js';
import type { SourceItem } from '../../src/core/types.js';
import { selectionPolicy } from '../../src/editions/selection.js';
import { planEdition } from '../../src/select/plan-edition.js';
import {
  type ClickedItem,
  candidateFeatures,
  learnReaderTaste,
  readerLessons,
  readerScores,
} from '../../src/select/reader-taste.js';
import { useTestStore } from '../support/database.js';
import { paperItem } from '../support/source-items.js';
import { edition } from './_taste-history.js';

const item = (title: string, clicks: number, extra: Partial<ClickedItem> = {}): ClickedItem => ({
  title,
  summary: '',
  takeaways: [],
  source: 'arxiv',
  arxivId: '2401.00001',
  clicks,
  ...extra,
});

/** One edition: agents and retrieval items clicked, the rest barely. */
const week = (): ClickedItem[] => [
  item('Tool-using agents that plan', 9),
  item('Retrieval augmented generation at scale', 7),
  item('Training a tokenizer faster', 1),
  item('Safety evaluations of chat models', 1),
  item('Inference kernels for long context', 0, { arxivId: null, source: 'blog' }),
];

describe('learnReaderTaste', () => {
  it('learns nothing from editions with too few clicks', () => {
    expect(learnReaderTaste([])).toBeNull();
    expect(learnReaderTaste([[item('Agents that plan', 2), item('Retrieval', 1)]])).toBeNull();
  });

  it('rates the topics readers clicked above one they passed over, smoothed toward 1', () => {
    const taste = learnReaderTaste([week(), week()])!;
    expect(taste.editions).toBe(2);
    expect(taste.clicks).toBe(36);
    const agents = taste.features.get('topic:agents')!;
    const inference = taste.features.get('topic:inference')!;
    expect(agents.affinity).toBeGreaterThan(1.5);
    expect(inference.affinity).toBeLessThan(1);
    // Two items of lift 2.5 and three pseudo-items of 1: (5 + 3) / 5.
    expect(agents.affinity).toBe(1.6);
    const lessons = readerLessons(taste);
    expect(lessons.clickedMore[0]?.feature).toBe('topic:agents');
    expect(lessons.clickedLess.map((lesson) => lesson.feature)).toContain('kind:post');
  });

  it('scores a new candidate on a clicked topic above one on a passed-over topic, and an unknown one neutral', () => {
    const taste = learnReaderTaste([week(), week()])!;
    const paper = (title: string) => ({ title, text: '', primarySource: 'elsewhere', arxivId: '2402.00002' });
    const [agents, inference, neither] = readerScores(taste, [
      paper('Agents for spreadsheets'),
      paper('Inference on phones'),
      paper('Something else entirely'),
    ]);
    expect(agents).toBeGreaterThan(0.5);
    expect(inference).toBeLessThan(agents!);
    expect(candidateFeatures(paper('Agents for spreadsheets'))).toEqual([
      'topic:agents',
      'source:elsewhere',
      'kind:paper',
    ]);
    // Only its kind is known: papers, clicked a little more than posts here.
    expect(neither).toBeGreaterThan(0.5);
    expect(
      readerScores(taste, [{ title: 'x', text: '', primarySource: 'nowhere', arxivId: null }])[0],
    ).toBeLessThan(0.5);
    expect(readerScores({ ...taste, features: new Map() }, [paper('Agents for spreadsheets')])).toEqual([
      0.5,
    ]);
  });
});

describe('the ranking learns from readers (synthetic archive on PGlite)', () => {
  const store = useTestStore('pglite');
  const TOPICS = {
    inference: 'Serving small models cheaply',
    training: 'Fine-tuning with fewer labels',
    safety: 'Security of plugin sandboxes',
    code: 'Coding assistants in review',
    reliability: 'Reliability of nightly jobs',
    evaluation: 'Benchmarks for summaries',
    agents: 'An agent that files tickets',
    retrieval: 'Retrieval over enterprise wikis',
  } as const;
  const CLICKED = new Set(['agents', 'retrieval']);
  const FILLER =
    'The authors report measured results on several tasks with careful ablations and released artifacts.';
  const weeks = Array.from({ length: 9 }, (_, index) => addDays('2026-01-05', 7 * index));

  /** Four items a topic, published in the week's window; ids say week, topic and number. */
  function weekItems(week: string, weekIndex: number): SourceItem[] {
    return Object.entries(TOPICS).flatMap(([, title], topicIndex) =>
      [0, 1, 2, 3].map((number) => {
        const id = `26${String(weekIndex + 10)}.${String(topicIndex * 10 + number).padStart(5, '0')}`;
        const named = `${title}, study ${weekIndex}.${number}`;
        return paperItem(id, {
          title: named,
          text: `${named}. ${FILLER} ${FILLER}`,
          publishedAt: `${addDays(week, -2 - (number % 3))}T09:00:00.000Z`,
          upvotes: 10,
        });
      }),
    );
  }
  const topicOf = (title: string) =>
    Object.entries(TOPICS).find(([, prefix]) => title.startsWith(prefix))?.[0] ?? 'none';

  /** Eight published editions of twelve items (the editor's picks lean away from agents and retrieval). */
  async function buildArchive(): Promise<{ week9: string; items9: SourceItem[] }> {
    for (const [weekIndex, week] of weeks.entries()) {
      const items = weekItems(week, weekIndex);
      await store().items.upsert(items);
      if (weekIndex === 8) return { week9: week, items9: items };
      // Round robin over the topics in TOPICS order: inference … code get two items, agents and retrieval one.
      const picks = [0, 1, 2, 3]
        .flatMap((round) => items.filter((_, index) => index % 4 === round))
        .slice(0, 12);
      const published = edition(week, picks);
      await store().editions.save(published);
      await store().editions.markPublished(week, `${week}T12:00:00.000Z`);
      await store().clicks.add(
        published.items.map((item) => ({
          edition: week,
          revision: 1,
          itemKey: item.key,
          channel: 'mail' as const,
          day: addDays(week, 1),
          clicks: CLICKED.has(topicOf(item.title)) ? 12 : 1,
          prefetched: 5,
        })),
        [],
      );
    }
    throw new Error('nine weeks expected');
  }

  it("moves the clicked topics up in week nine's top 12, while the editor's pins still win", async () => {
    const { week9, items9 } = await buildArchive();
    const pinned = items9.find((item) => topicOf(item.title) === 'reliability')!;
    await store().decisions.set({ week: week9, itemKey: `arxiv:${pinned.arxivId}`, decision: 'pin' });
    const config = configSchema.parse({});
    const candidates = await store().items.candidates(editionWindow(week9));
    expect(candidates).toHaveLength(32);
    const withReaders = await selectionPolicy({ config, store: store(), date: week9 });
    expect(withReaders.readers?.taste.editions).toBe(8);
    expect(withReaders.readers?.weight).toBe(0.15);
    const noClicks = { ...withReaders, readers: null };
    const clickedTopics = (plan: ReturnType<typeof planEdition>) =>
      plan.picks.filter((pick) => CLICKED.has(topicOf(pick.item.title))).length;
    const learned = planEdition(candidates, withReaders, week9);
    const baseline = planEdition(candidates, noClicks, week9);
    expect(learned.picks).toHaveLength(12);
    expect(clickedTopics(learned)).toBeGreaterThan(clickedTopics(baseline));
    expect(learned.picks.map((pick) => pick.item.key)).toContain(`arxiv:${pinned.arxivId}`);
    const agent = learned.ranked.find((entry) => topicOf(entry.item.title) === 'agents')!;
    expect(agent.signals.readers).toBeGreaterThan(0.5);
    expect(agent.signals.readersPoints).toBeGreaterThan(0);
    // An operator who sets the weight to 0 gets the ranking of no clicks.
    const off = configSchema.parse({ selection: { readerWeight: 0 } });
    expect((await selectionPolicy({ config: off, store: store(), date: week9 })).readers).toBeUndefined();
    const bad = configSchema.safeParse({ selection: { readerWeight: 2 } });
    expect(bad.success ? [] : bad.error.issues.map((issue) => issue.path.join('.'))).toEqual([
      'selection.readerWeight',
    ]);
  });
});
