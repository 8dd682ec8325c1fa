// The desk as a bench times it: the real Hono app with one signed-in editor, answering through app.request.
import type { createDigest } from '../src/compose/create-digest.js';
import { createServerApp } from '../src/server/app.js';

type Digest = ReturnType<typeof createDigest>;

/** A page's answer: the time to its last byte and its size. */
export interface TimedAnswer {
  ms: number;
  bytes: number;
}

/** The desk over `digest`, an editor signed in, and a timer for one page (a status other than 200 throws). */
export async function signedInDesk(
  digest: Digest,
  dir: string,
): Promise<(path: string) => Promise<TimedAnswer>> {
  const desk = await digest.desk({ siteDir: dir, draftDir: dir });
  await digest.editors.add({ email: 'bench@example.com', password: 'a long bench password' });
  const signedIn = await desk.auth.signIn({
    email: 'bench@example.com',
    password: 'a long bench password',
    clientAddress: 'bench',
  });
  if (!signedIn.ok) throw new Error('bench sign-in failed');
  const app = createServerApp({
    site: { dir },
    health: { checkDatabase: async () => {} },
    useCases: { desk },
    log: () => {},
  });
  const headers = { authorization: `Bearer ${signedIn.token}` };
  return async (path) => {
    const started = performance.now();
    const response = await app.request(path, { headers });
    const body = await response.text();
    if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
    return { ms: performance.now() - started, bytes: Buffer.byteLength(body) };
  };
}
