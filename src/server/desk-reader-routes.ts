// /admin/readers: the reader list (GET, filters in the query), one reader's page and export, and the changes —
// add, import (a multipart upload), remove. They sit behind the desk's session guard, CSRF check and write limit
// (desk-routes.ts); the routes only parse the request.
import type { Context, Hono } from 'hono';
import type { Desk, DeskReply, DeskSession } from '../desk/index.js';
import type { RequestVariables } from './request-log.js';

type App = Hono<{ Variables: RequestVariables }>;
type Form = Record<string, string>;
type State = (c: Context) => { session: DeskSession; form: Form };
type Send = (c: Context, reply: DeskReply, redirectStatus?: 302 | 303) => Response;

/** The import's upload: larger than any other desk form (100,000 addresses are a few megabytes). */
export const IMPORT_PATH = '/admin/readers/import';
export const MAX_IMPORT_BYTES = 16 * 1024 * 1024;

/** The uploaded CSV's text (the guard already checked the body is UTF-8 without NUL), or null without one. */
async function uploadedCsv(c: Context): Promise<string | null> {
  const body = await c.req.parseBody();
  const file = body.file;
  if (file instanceof File && file.size > 0) return file.text();
  return typeof body.csv === 'string' && body.csv.trim() ? body.csv : null;
}

export function registerReaderRoutes({
  app,
  desk,
  state,
  send,
}: {
  app: App;
  desk: Desk;
  state: State;
  send: Send;
}): void {
  const notFound = (c: Context) =>
    desk.notFound(state(c).session, 'No such reader: they may have been removed.');
  app.get('/admin/readers', async (c) => send(c, await desk.readerList(state(c).session, c.req.query())));
  app.post('/admin/readers/add', async (c) => send(c, await desk.addReader(state(c).session, state(c).form)));
  app.post(IMPORT_PATH, async (c) => {
    const { session, form } = state(c);
    return send(c, await desk.importReaders(session, form, await uploadedCsv(c)));
  });
  app.get('/admin/readers/:id', async (c) => {
    const reply = await desk.readerPage(state(c).session, c.req.param('id'));
    return send(c, reply ?? notFound(c));
  });
  app.get('/admin/readers/:id/export', async (c) => {
    const reply = await desk.exportReader(state(c).session, c.req.param('id'));
    return send(c, reply ?? notFound(c));
  });
  app.post('/admin/readers/:id/remove', async (c) => {
    const { session, form } = state(c);
    return send(c, (await desk.removeReader(session, c.req.param('id'), form)) ?? notFound(c), 303);
  });
}
