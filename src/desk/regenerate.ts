// Regenerate one item, or the edition's title and intro, with the LLM (through the one model road: cache, usage meter, faithfulness check) or with the
// extractive writer. The new text replaces the generated version only; an editor's version stays in place.

import type { StoredItem } from '../core/types.js';
import type { DigestDeps } from '../deps.js';
import { readStoredPaper } from '../editions/index.js';
import { createModelRoad } from '../llm/model-road.js';
import { withGenerated } from '../store/desk-apply.js';
import { createExtractiveWriter, createWriter, type ItemForWriting } from '../write/index.js';
import { itemForWriting } from '../write/item-input.js';
import { paperForWriting } from '../write/paper-input.js';
import type { DeskActionContext, DeskOutcome } from './decisions.js';
import { refuseIfPublished } from './decisions.js';

export interface RegenerateOutcome {
  ok: true;
  done: string;
  /** What this regeneration cost (USD) and how many model calls it made; null for the extractive writer. */
  spent: { costUsd: number; calls: number; cacheHits: number; before: number; after: number } | null;
}

export async function regenerateOnDesk(
  deps: DigestDeps,
  context: DeskActionContext,
  input: { key: string; writer: string },
): Promise<DeskOutcome | RegenerateOutcome> {
  const { store, config } = deps;
  if (input.writer !== 'llm' && input.writer !== 'extractive') {
    return {
      ok: false,
      status: 400,
      title: 'Unknown writer',
      message: '"writer" must be llm or extractive.',
    };
  }
  const published = await refuseIfPublished(deps, context.week);
  if (published) return published;
  const edition = await store.getEdition(context.week);
  // The edition's own header (title and intro) has the empty key, as on the edit page.
  const header = input.key === '';
  const index = header ? 0 : (edition?.items.findIndex((item) => item.key === input.key) ?? -1);
  const stored = header ? null : await store.getItem(input.key);
  if (!edition || index < 0 || (!header && !stored)) {
    return {
      ok: false,
      status: 404,
      title: 'Not found',
      message: `No draft item "${input.key}" for ${context.week}.`,
    };
  }
  const llm = input.writer === 'llm';
  // A fresh road of its own: its meter counts this regeneration alone. `refresh` asks anew rather than reading the
  // cached answer the build already used.
  const road = llm
    ? createModelRoad({
        llm: config.llm,
        store,
        log: deps.log,
        env: deps.env,
        run: { refresh: true, check: true },
        ...(deps.signal ? { signal: deps.signal } : {}),
      })
    : null;
  if (llm && !road?.model('write')) {
    return {
      ok: false,
      status: 422,
      title: 'No LLM configured',
      message:
        'Set llm.write in the config (and its API key) to regenerate with a model; the extractive writer works offline.',
    };
  }
  const writer = road ? createWriter({ road }).writer : createExtractiveWriter();
  const before = (edition.usage as { costUsd?: number } | undefined)?.costUsd ?? 0;
  const writing = { name: config.name, audience: config.audience, log: deps.log };
  const rows = await store.deskEdits(context.week);
  const generated = withGenerated(edition, rows);
  let writtenBy: string;
  if (header) {
    // Title and intro from the items as written now (their generated text): one edition call on the road.
    const items = [];
    for (const item of generated.items) {
      const source = await store.getItem(item.key);
      if (!source) continue;
      items.push({
        ...itemForWriting(source),
        summary: item.summary,
        takeaways: item.takeaways,
        level: item.level,
        levelReason: item.levelReason ?? '',
        writer: item.writer,
      });
    }
    const written = await writer.writeEdition(items, writing);
    writtenBy = written.writer;
    await store.saveEdition(
      await store.keepEditorEdits({
        ...generated,
        title: written.title,
        intro: written.intro,
        writer: written.writer,
      }),
    );
  } else {
    const [written] = await writer.writeItems([await withStoredPaper(deps, stored!)], writing);
    if (!written) throw new Error('the writer returned no item');
    writtenBy = written.writer;
    const items = generated.items.map((item) =>
      item.key === input.key
        ? {
            ...item,
            summary: written.summary,
            takeaways: written.takeaways,
            level: written.level,
            levelReason: written.levelReason,
            writer: written.writer,
            ...(written.checks !== undefined ? { checks: written.checks } : { checks: undefined }),
            ...(written.support?.some(Boolean) ? { support: written.support } : { support: undefined }),
          }
        : item,
    );
    await store.saveEdition(await store.keepEditorEdits({ ...generated, items }));
  }
  const usage = road?.usage() ?? null;
  const spent = usage
    ? {
        costUsd: usage.costUsd,
        calls: usage.calls,
        cacheHits: usage.cacheHits,
        before,
        after: before + usage.costUsd,
      }
    : null;
  await store.recordAudit({
    editor: context.editor,
    action: 'regenerate',
    week: context.week,
    itemKey: header ? null : input.key,
    detail: {
      writer: writtenBy,
      ...(header ? { header: true } : {}),
      ...(spent ? { costUsd: spent.costUsd, calls: spent.calls } : {}),
    },
  });
  return { ok: true, done: 'regenerated', spent };
}

/** The item as a build writes it: a paper with the full text an earlier build stored (regeneration fetches nothing). */
async function withStoredPaper(deps: DigestDeps, item: StoredItem): Promise<ItemForWriting> {
  const input = itemForWriting(item);
  if (!item.arxivId || !deps.config.llm.fullText) return input;
  const paper = await readStoredPaper(deps, item.arxivId);
  return paper ? { ...input, paper: paperForWriting(paper, deps.config.llm.maxInputTokens) } : input;
}
