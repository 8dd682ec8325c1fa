// Regenerate one item, or the edition's title and intro, with the LLM (through the one LLM client: cache, usage
// meter, faithfulness check) or with the extractive writer. The new text replaces the generated version only; an
// editor's version stays in place.

import type { Edition, StoredItem } from '../core/types.js';
import { createLlmClient, type LlmClient } from '../llm/client.js';
import { HEADER_KEY, withGenerated } from '../store/desk-apply.js';
import type { Store } from '../store/types.js';
import { createExtractiveWriter, createWriter, type ItemForWriting, type Writer } from '../write/index.js';
import { itemForWriting } from '../write/item-input.js';
import { paperForWriting } from '../write/paper-input.js';
import type { WriterContext } from '../write/types.js';
import { type DeskActionContext, type DeskOutcome, refuseChange, refused } from './outcome.js';
import type { LlmDeps, RegenerateDeps, TargetDeps } from './ports.js';

type Spent = { costUsd: number; calls: number; cacheHits: number; before: number; after: number };

export interface RegenerateOutcome {
  ok: true;
  done: string;
  /** What this regeneration cost (USD) and how many model calls it made; null for the extractive writer. */
  spent: Spent | null;
}

/** What is rewritten: the edition's own header (the empty key, as on the edit page), or one of its items. */
type Target = { edition: Edition; item: StoredItem | null };

export async function regenerateOnDesk(
  deps: RegenerateDeps,
  context: DeskActionContext,
  input: { key: string; writer: string },
): Promise<DeskOutcome | RegenerateOutcome> {
  const invalid =
    input.writer === 'llm' || input.writer === 'extractive'
      ? null
      : refused(400, 'Unknown writer', '"writer" must be llm or extractive.');
  const refusal = await refuseChange({ deps, week: context.week, invalid });
  if (refusal) return refusal;
  const target = await findTarget(deps, context.week, input.key);
  if (!target) return refused(404, 'Not found', `No draft item "${input.key}" for ${context.week}.`);
  const llmClient = input.writer === 'llm' ? regenerationClient(deps) : null;
  if (llmClient && !llmClient.model('write')) {
    return refused(
      422,
      'No LLM configured',
      'Set llm.write in the config (and its API key) to regenerate with a model; the extractive writer works offline.',
    );
  }
  const writer = llmClient ? createWriter({ llmClient }).writer : createExtractiveWriter();
  const before = (target.edition.usage as { costUsd?: number } | undefined)?.costUsd ?? 0;
  const writtenBy = await rewrite(deps, writer, target);
  const usage = llmClient?.usage() ?? null;
  const spent = usage
    ? {
        costUsd: usage.costUsd,
        calls: usage.calls,
        cacheHits: usage.cacheHits,
        before,
        after: before + usage.costUsd,
      }
    : null;
  await deps.store.desk.recordAudit({
    editor: context.editor,
    action: 'regenerate',
    week: context.week,
    itemKey: target.item ? input.key : null,
    detail: {
      writer: writtenBy,
      ...(target.item ? {} : { header: true }),
      ...(spent ? { costUsd: spent.costUsd, calls: spent.calls } : {}),
    },
  });
  return { ok: true, done: 'regenerated', spent };
}

async function findTarget(deps: TargetDeps, week: string, key: string): Promise<Target | null> {
  const edition = await deps.store.editions.get(week);
  if (!edition) return null;
  if (key === HEADER_KEY) return { edition, item: null };
  if (!edition.items.some((item) => item.key === key)) return null;
  const item = await deps.store.items.get(key);
  return item ? { edition, item } : null;
}

/**
 * A fresh LLM client of its own: its meter counts this regeneration alone. `refresh` asks anew rather than reading the
 * cached answer the build already used.
 */
function regenerationClient(deps: LlmDeps): LlmClient {
  return createLlmClient({
    llm: deps.config.llm,
    store: deps.store,
    log: deps.log,
    env: deps.env,
    run: { refresh: true, check: true },
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
}

/** Writes the target anew over the generated texts and saves the draft (an editor's version stays); the writer's name. */
async function rewrite(deps: RegenerateDeps, writer: Writer, target: Target): Promise<string> {
  const { store, config } = deps;
  const writing: WriterContext = { name: config.name, audience: config.audience, log: deps.log };
  const generated = withGenerated(target.edition, await store.desk.edits(target.edition.date));
  const rewritten = target.item
    ? await rewriteItem({ deps, writer, writing, generated, stored: target.item })
    : await rewriteHeader({ deps, writer, writing, generated });
  await store.editions.save(await store.desk.keepEditorEdits(rewritten.edition));
  return rewritten.writer;
}

/** Title and intro from the items as written now (their generated text): one edition call on the LLM client. */
async function rewriteHeader({
  deps,
  writer,
  writing,
  generated,
}: {
  deps: { store: Pick<Store, 'items'> };
  writer: Writer;
  writing: WriterContext;
  generated: Edition;
}): Promise<{ edition: Edition; writer: string }> {
  const items = [];
  for (const item of generated.items) {
    const source = await deps.store.items.get(item.key);
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
  const edition = { ...generated, title: written.title, intro: written.intro, writer: written.writer };
  return { edition, writer: written.writer };
}

async function rewriteItem({
  deps,
  writer,
  writing,
  generated,
  stored,
}: {
  deps: Pick<RegenerateDeps, 'config' | 'runs'>;
  writer: Writer;
  writing: WriterContext;
  generated: Edition;
  stored: StoredItem;
}): Promise<{ edition: Edition; writer: string }> {
  const [written] = await writer.writeItems([await withStoredPaper(deps, stored)], writing);
  if (!written) throw new Error('the writer returned no item');
  const items = generated.items.map((item) =>
    item.key === stored.key
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
  return { edition: { ...generated, items }, writer: written.writer };
}

/** The item as a build writes it: a paper with the full text an earlier build stored (regeneration fetches nothing). */
async function withStoredPaper(
  deps: Pick<RegenerateDeps, 'config' | 'runs'>,
  item: StoredItem,
): Promise<ItemForWriting> {
  const input = itemForWriting(item);
  if (!item.arxivId || !deps.config.llm.fullText) return input;
  const paper = await deps.runs.readStoredPaper(item.arxivId);
  return paper ? { ...input, paper: paperForWriting(paper, deps.config.llm.maxInputTokens) } : input;
}
