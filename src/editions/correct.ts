// Corrections: the one way to change an edition that is published or mailed. The corrected text is published as
// the next revision with who, when and why (store/revisions.ts, one transaction), every earlier revision stays
// readable at its own page, the live page says "Corrected on DATE: reason", and the desk's audit log records it.
import { z } from 'zod';
import { itemAnchors } from '../core/anchors.js';
import { ConfigError } from '../core/errors.js';
import { type Edition, type EditionItem, editionRevision } from '../core/types.js';
import type { CorrectDeps } from './ports.js';
import { publish } from './publish-and-email.js';

export interface CorrectInput {
  week: string;
  /** Why it was corrected: shown to readers on the page and in the correction notice. */
  reason: string;
  /** Who corrects it (an editor's address on the desk; `--editor` on the command line). */
  editor: string;
  /** The corrected text: the edition's title, intro and items (an edition.json, edited). */
  corrected: unknown;
  /** The folder `digest serve` serves: the site is rewritten there with the new revision. */
  outDir: string;
}

export interface CorrectOutcome {
  edition: Edition;
  revision: number;
  files: number;
}

const MAX_REASON = 500;

/** What a correction may change; an item's other fields (its links, signals, checks) stay as published. */
const correctedSchema = z.object({
  title: z.string().trim().min(1),
  intro: z.string().trim().min(1),
  items: z
    .array(
      z
        .object({
          key: z.string().min(1),
          title: z.string().trim().min(1),
          summary: z.string().trim().min(1),
          takeaways: z.tuple([z.string(), z.string(), z.string()]),
          level: z.enum(['Accessible', 'Intermediate', 'Advanced']),
        })
        .passthrough(),
    )
    .min(1),
});

/** Publishes the corrected edition as its next revision and rewrites the site; the earlier revision is kept. */
export async function correct(deps: CorrectDeps, input: CorrectInput): Promise<CorrectOutcome> {
  const reason = input.reason.trim();
  if (!reason || reason.length > MAX_REASON)
    throw new ConfigError(`--reason: say why the edition is corrected, in 1 to ${MAX_REASON} characters.`);
  const current = await deps.store.editions.get(input.week);
  if (!current?.publishedAt) {
    throw new ConfigError(
      `The edition of ${input.week} is not published: change the draft (the desk or ./digest build), no correction needed.`,
    );
  }
  const edition = correctedEdition(current, input.corrected);
  if (sameText(edition, current))
    throw new ConfigError('The corrected edition changes nothing; nothing was published.');
  const revision = editionRevision(current) + 1;
  const at = deps.clock.now().toISOString();
  const corrections = [...(current.corrections ?? []), { revision, at, reason, editor: input.editor }];
  const next = { ...edition, corrections };
  await deps.store.revisions.publishCorrection({ edition: next, revision, editor: input.editor, reason, at });
  await deps.store.desk.recordAudit({
    editor: input.editor,
    week: input.week,
    action: 'correct',
    itemKey: null,
    detail: { revision, reason },
  });
  const published = await publish(deps, {
    week: input.week,
    outDir: input.outDir,
    chat: false,
    allowFlagged: true,
  });
  deps.log.info(`Corrected the edition of ${input.week}: revision ${revision} is live (${reason}).`);
  return { edition: published.edition, revision, files: published.files.length };
}

/** The text a correction may change, of the published edition: the draft an operator edits (a JSON file). */
export async function correctionDraft(
  deps: Pick<CorrectDeps, 'store'>,
  week: string,
): Promise<z.infer<typeof correctedSchema>> {
  const current = await deps.store.editions.get(week);
  if (!current?.publishedAt)
    throw new ConfigError(`The edition of ${week} is not published: nothing to correct.`);
  return {
    title: current.title,
    intro: current.intro,
    items: current.items.map(({ key, title, summary, takeaways, level }) => ({
      key,
      title,
      summary,
      takeaways,
      level,
    })),
  };
}

function correctedEdition(current: Edition, corrected: unknown): Edition {
  const parsed = correctedSchema.safeParse(corrected);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(
      `--edition: field "${issue?.path.join('.') || '(root)'}" ${issue?.message ?? 'is invalid'}.`,
    );
  }
  assertSameItems(
    current.items.map((item) => item.key),
    parsed.data.items.map((item) => item.key),
  );
  // The anchors readers' links use now: a corrected title keeps its item's, so shared links still land.
  const liveAnchors = itemAnchors(current.items);
  const anchors = new Map(current.items.map((item, index) => [item.key, liveAnchors[index]]));
  const items = parsed.data.items.map((item, index): EditionItem => {
    // assertSameItems made the keys the published ones, in their order.
    const published = current.items[index] as EditionItem;
    const { title, summary, takeaways, level } = item;
    const anchor = title === published.title ? published.anchor : anchors.get(item.key);
    return { ...published, title, summary, takeaways, level, ...(anchor ? { anchor } : {}) };
  });
  return { ...current, title: parsed.data.title, intro: parsed.data.intro, items };
}

/**
 * A correction changes the items' text, never which items readers were sent or their order: a stored click, a
 * mailed link and `stats` name an item by its place, so the corrected list is the published one, key for key. Every
 * door (the CLI's file, the desk's form, MCP) comes through here.
 */
export function assertSameItems(published: readonly string[], corrected: readonly string[]): void {
  const difference = itemDifference(published, corrected);
  if (!difference) return;
  const message = `a correction keeps the published items, in order, once each: ${difference}`;
  throw new ConfigError(`--edition: ${message}.`, [{ path: 'items', message }]);
}

function itemDifference(published: readonly string[], corrected: readonly string[]): string | null {
  const known = new Set(published);
  const seen = new Set<string>();
  for (const key of corrected) {
    if (!known.has(key)) return `"${key}" is not an item of the published edition`;
    if (seen.has(key)) return `"${key}" appears twice`;
    seen.add(key);
  }
  const missing = published.filter((key) => !seen.has(key));
  if (missing.length > 0) return `${missing.map((key) => `"${key}"`).join(', ')} missing`;
  const moved = corrected.findIndex((key, index) => key !== published[index]);
  if (moved >= 0)
    return `item ${moved + 1} is "${corrected[moved]}", published as "${published[moved]}" (the order is kept)`;
  return null;
}

const text = (edition: Edition) =>
  JSON.stringify([
    edition.title,
    edition.intro,
    edition.items.map((item) => [item.key, item.title, item.summary, item.takeaways, item.level]),
  ]);

const sameText = (a: Edition, b: Edition) => text(a) === text(b);
