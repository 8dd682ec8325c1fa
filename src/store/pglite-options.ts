// How this program starts PGlite. shared_buffers: PostgreSQL's default 128 MB page cache costs ~160 MB of RSS in
// the WebAssembly heap (measured: reopening a store peaks at 314 MB with it, 153 MB with 16 MB); a weekly digest
// touches a few MB of pages. Passed as a start parameter: PGlite's `postgresqlconf` option would rewrite the
// folder's whole postgresql.conf on every open.
import type { PGlite, PGliteOptions } from '@electric-sql/pglite';

export const SHARED_BUFFERS = '16MB';

export function pgliteOptions(pglite: typeof PGlite): Pick<PGliteOptions, 'startParams'> {
  return { startParams: [...pglite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`] };
}
