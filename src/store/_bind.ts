// A query module's functions take the database (or a transaction) first; its factory binds them to one database
// with bindQueries, so the port it returns lists each method once (`save: saveEdition`) and nothing forwards by hand.
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

type Query = (db: Kysely<Database>, ...args: never[]) => unknown;

/** Each query with its first parameter, the database, already given. */
export type Bound<Queries extends Record<string, Query>> = {
  [Name in keyof Queries]: Queries[Name] extends (db: Kysely<Database>, ...args: infer Args) => infer Result
    ? (...args: Args) => Result
    : never;
};

export function bindQueries<Queries extends Record<string, Query>>(
  db: Kysely<Database>,
  queries: Queries,
): Bound<Queries> {
  const bound: Record<string, (...args: never[]) => unknown> = {};
  for (const [name, query] of Object.entries(queries)) bound[name] = (...args) => query(db, ...args);
  return bound as Bound<Queries>;
}
