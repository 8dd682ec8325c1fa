// Regenerate one item with the LLM (through the one model road: cache, usage meter, faithfulness check) or with the
// extractive writer. The new text replaces the generated version only; an editor's version stays in place.
import { createModelRoad } from '../llm/model-road.js';
import { toWritingInput } from '../pipeline/build-edition.js';
import { withGenerated } from '../store/desk-apply.js';
import { createExtractiveWriter, createWriter } from '../write/index.js';
import type { DigestDeps } from './deps.js';
import type { DeskActionContext, DeskOutcome } from './desk-decisions.js';
import { refuseIfPublished } from './desk-decisions.js';

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
  const index = edition?.items.findIndex((item) => item.key === input.key) ?? -1;
  const stored = await store.getItem(input.key);
  if (!edition || index < 0 || !stored) {
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
        refresh: true,
        check: true,
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
  const [written] = await writer.writeItems(
    [toWritingInput({ item: stored, score: 0, signals: {}, pinned: false })],
    {
      name: config.name,
      audience: config.audience,
      log: deps.log,
    },
  );
  if (!written) throw new Error('the writer returned no item');
  const rows = await store.deskEdits(context.week);
  const generated = withGenerated(edition, rows);
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
        }
      : item,
  );
  await store.saveEdition(await store.keepEditorEdits({ ...generated, items }));
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
    itemKey: input.key,
    detail: { writer: written.writer, ...(spent ? { costUsd: spent.costUsd, calls: spent.calls } : {}) },
  });
  return { ok: true, done: 'regenerated', spent };
}
