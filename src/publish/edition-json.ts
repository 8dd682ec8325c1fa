// edition.json: the edition as data, keys in the documented order so the bytes only change when the data does.
import type { Edition, EditionItem, SourceReport } from '../core/types.js';

export function renderEditionJson(edition: Edition): string {
  return `${JSON.stringify(editionRecord(edition), null, 2)}\n`;
}

export function editionRecord(edition: Edition): Record<string, unknown> {
  return withoutUndefined({
    date: edition.date,
    name: edition.name,
    title: edition.title,
    intro: edition.intro,
    writer: edition.writer,
    publishedAt: edition.publishedAt ?? undefined,
    items: edition.items.map(itemRecord),
    sources: edition.sources.map(sourceRecord),
    usage: sortKeys(edition.usage),
  });
}

function itemRecord(item: EditionItem): Record<string, unknown> {
  return withoutUndefined({
    title: item.title,
    url: item.url,
    level: item.level,
    authors: item.authors,
    summary: item.summary,
    takeaways: item.takeaways,
    source: item.source,
    sourceName: item.sourceName,
    sources: item.sources,
    arxivId: item.arxivId ?? null,
    citations: item.citations ?? null,
    image: item.image ?? null,
    publishedAt: item.publishedAt,
    key: item.key,
    writer: item.writer,
    why: sortKeys(item.why),
    checks: sortKeys(item.checks),
    readFrom: item.readFrom,
    readNote: item.readNote,
    support: item.support,
    facts: item.facts,
  });
}

/** A source's report as edition.json lists it, in this key order. */
const SOURCE_KEYS = ['id', 'status', 'items', 'error', 'warnings'] as const satisfies (keyof SourceReport)[];

function sourceRecord(source: SourceReport): Record<string, unknown> {
  return withoutUndefined(Object.fromEntries(SOURCE_KEYS.map((key) => [key, source[key]])));
}

function withoutUndefined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}

/** Free-form fields (selection signals, check verdicts, usage) get sorted keys, recursively. */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}
