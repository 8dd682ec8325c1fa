// Buttondown (docs.buttondown.com/api-emails-create): POST /v1/emails with status "draft" creates a draft,
// PATCH /v1/emails/{id} changes it; both answer the Email object. Authorization: Token <API key>.
import { z } from 'zod';
import type { ButtondownConfig } from '../config/deliver-schema.js';
import { callService, secretFromEnv, unlessGone } from './_http.js';
import type { Draft, DraftRef, DraftService, SendContext } from './types.js';

const emailAnswer = z.object({ id: z.string().min(1), status: z.string().optional() });
const emailList = z.object({ results: z.array(z.object({ id: z.string().min(1), subject: z.string() })) });

export function buttondownService(config: ButtondownConfig, env: NodeJS.ProcessEnv): DraftService {
  const token = secretFromEnv(env, config.tokenEnv, 'push.buttondown.tokenEnv');
  const base = config.url.replace(/\/+$/, '');

  const authorization = `Token ${token}`;

  async function send({
    method,
    path,
    draft,
    context,
  }: {
    method: 'POST' | 'PATCH';
    path: string;
    draft: Draft;
    context: SendContext;
  }) {
    const body = { subject: draft.subject, body: draft.html, status: 'draft' };
    const answer = await callService(
      { url: `${base}${path}`, method, authorization, timeoutMs: config.timeoutMs, body },
      context,
    );
    const parsed = emailAnswer.safeParse(answer);
    if (!parsed.success) throw new Error(`Buttondown at ${base} answered something other than an email`);
    return { id: parsed.data.id, link: null } satisfies DraftRef;
  }

  /** GET /v1/emails?status=draft: the draft with exactly this subject, if any. */
  async function find(draft: Draft, context: SendContext): Promise<DraftRef | null> {
    const answer = await callService(
      { url: `${base}/v1/emails?status=draft`, authorization, timeoutMs: config.timeoutMs },
      context,
    );
    const parsed = emailList.safeParse(answer);
    if (!parsed.success)
      throw new Error(`Buttondown at ${base} answered something other than a list of emails`);
    const match = parsed.data.results.find((email) => email.subject === draft.subject);
    return match ? { id: match.id, link: null } : null;
  }

  return {
    service: 'buttondown',
    origin: base,
    secrets: [token],
    find,
    create: (draft, context) => send({ method: 'POST', path: '/v1/emails', draft, context }),
    update: (id, draft, context) =>
      unlessGone(send({ method: 'PATCH', path: `/v1/emails/${encodeURIComponent(id)}`, draft, context })),
  };
}
