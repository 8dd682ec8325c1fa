// Values on their way into PostgreSQL: text it would refuse is repaired, timestamps normalised.
import { type RawBuilder, sql } from 'kysely';

/** PostgreSQL's type id of `date`: both drivers read it as text. */
export const DATE_OID = 1082;

// NUL is refused in text and jsonb; a lone UTF-16 surrogate makes jsonb input invalid.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function storableText(value: string): string {
  return value.replace(UNSTORABLE, (match) => (match === '\u0000' ? '' : '\uFFFD'));
}

/** JSON for a jsonb parameter, with every string made storable. */
export function toJson(value: unknown): string {
  return JSON.stringify(value === undefined ? null : value, (_key, inner: unknown) =>
    typeof inner === 'string' ? storableText(inner) : inner,
  );
}

/** A jsonb value for a query: the JSON text, cast (every string made storable). */
export function json<T>(value: T): RawBuilder<string> {
  return sql<string>`${toJson(value)}::jsonb`;
}

/** ISO 8601 UTC with milliseconds; both drivers return timestamptz as Date. */
export function isoTimestamp(value: unknown): string {
  const date = value instanceof Date ? value : new Date(String(value));
  return date.toISOString();
}

/** The ISO form of an input timestamp, or null when it is not a date PostgreSQL can hold. */
export function normaliseTimestamp(value: string): string | null {
  const date = new Date(value);
  const year = date.getUTCFullYear();
  if (Number.isNaN(date.getTime()) || year < 1 || year > 9999) return null;
  return date.toISOString();
}

export function chunks<T>(values: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < values.length; start += size) out.push(values.slice(start, start + size));
  return out;
}
