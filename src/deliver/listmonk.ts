// listmonk (listmonk.app/docs/apis/campaigns): POST /api/campaigns creates a campaign (a draft until someone
// starts it), PUT /api/campaigns/{id} replaces it; both answer { data: campaign }. Basic auth with an API user's
// name and token.
import { z } from 'zod';
import type { ListmonkConfig } from '../config/deliver-schema.js';
import { FetchError } from '../core/errors.js';
import { callService, secretFromEnv, unlessGone } from './_http.js';
import type { Draft, DraftRef, DraftService, SendContext } from './types.js';

const campaignAnswer = z.object({ data: z.object({ id: z.number().int(), status: z.string().optional() }) });
const campaignList = z.object({
  data: z.object({
    results: z.array(z.object({ id: z.number().int(), name: z.string(), status: z.string().optional() })),
  }),
});

export function listmonkService(config: ListmonkConfig, env: NodeJS.ProcessEnv): DraftService {
  const user = secretFromEnv(env, config.userEnv, 'push.listmonk.userEnv');
  const token = secretFromEnv(env, config.tokenEnv, 'push.listmonk.tokenEnv');
  const base = config.url.replace(/\/+$/, '');
  const authorization = `Basic ${Buffer.from(`${user}:${token}`).toString('base64')}`;

  async function send({
    method,
    path,
    draft,
    context,
  }: {
    method: 'POST' | 'PUT';
    path: string;
    draft: Draft;
    context: SendContext;
  }) {
    const body = {
      name: draft.name,
      subject: draft.subject,
      lists: config.listIds,
      type: 'regular',
      content_type: 'html',
      body: draft.html,
      altbody: draft.text,
      status: 'draft',
    };
    const answer = await callService(
      { url: `${base}${path}`, method, authorization, timeoutMs: config.timeoutMs, body },
      context,
    );
    const parsed = campaignAnswer.safeParse(answer);
    if (!parsed.success) throw new Error(`listmonk at ${base} answered something other than a campaign`);
    const id = String(parsed.data.data.id);
    return { id, link: `${base}/admin/campaigns/${id}` } satisfies DraftRef;
  }

  /** GET /api/campaigns?query=…&status=draft: the draft campaign of exactly this name, if any. */
  async function find(draft: Draft, context: SendContext): Promise<DraftRef | null> {
    const query = new URLSearchParams({ query: draft.name, status: 'draft', per_page: '100' });
    const answer = await callService(
      { url: `${base}/api/campaigns?${query}`, authorization, timeoutMs: config.timeoutMs },
      context,
    );
    const parsed = campaignList.safeParse(answer);
    if (!parsed.success) throw new Error(`listmonk at ${base} answered something other than a campaign list`);
    const match = parsed.data.data.results.find((campaign) => campaign.name === draft.name);
    return match ? { id: String(match.id), link: `${base}/admin/campaigns/${match.id}` } : null;
  }

  return {
    service: 'listmonk',
    origin: base,
    secrets: [token, authorization],
    find,
    create: (draft, context) => send({ method: 'POST', path: '/api/campaigns', draft, context }),
    async update(id, draft, context) {
      try {
        return await unlessGone(
          send({ method: 'PUT', path: `/api/campaigns/${encodeURIComponent(id)}`, draft, context }),
        );
      } catch (error) {
        if (error instanceof FetchError && error.status === 400) {
          throw new Error(
            `listmonk refused to update campaign ${id} (HTTP 400): a campaign that is running or finished cannot ` +
              'be changed; delete it there to push a new draft, or leave it as sent',
            { cause: error },
          );
        }
        throw error;
      }
    },
  };
}
