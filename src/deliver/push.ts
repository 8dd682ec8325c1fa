// Hands an edition to a mail service as a draft, idempotently: the draft's id is remembered per (service,
// edition), so pushing again updates the same draft, and a draft deleted over there is created anew. A create is
// announced before it is sent: a push that died between the service's answer and recording the id leaves the
// announcement, and the next push looks the draft up there instead of making a second one.
import { DeliveryError, FetchError } from '../core/errors.js';
import type { HttpClient, Logger, StageStore } from '../core/ports.js';
import { redact } from './_text.js';
import type { Draft, DraftService } from './types.js';

export const PUSH_STATE_NAMESPACE = 'push-draft';

interface PushState {
  /** Null while a create is under way (or died under way). */
  id: string | null;
  origin: string;
  at: string;
}

export interface PushResult {
  id: string;
  link: string | null;
  /** created: first push; updated: the same draft changed; recreated: the remembered draft was gone. */
  action: 'created' | 'updated' | 'recreated';
}

export interface PushDraftInput {
  service: DraftService;
  date: string;
  draft: Draft;
  store: Pick<StageStore, 'cache'>;
  http: HttpClient;
  log: Logger;
  now: () => Date;
  signal?: AbortSignal;
}

export async function pushDraft(input: PushDraftInput): Promise<PushResult> {
  try {
    return await pushOrUpdate(input);
  } catch (error) {
    throw deliveryError(error, input.service);
  }
}

async function pushOrUpdate(input: PushDraftInput): Promise<PushResult> {
  const { service, store } = input;
  const key = `${service.service}/${input.date}`;
  const context = { http: input.http, ...(input.signal ? { signal: input.signal } : {}) };
  const known = await store.cache.get<PushState>(PUSH_STATE_NAMESPACE, key);
  // A draft made on another instance (the URL changed) is not this one's to update.
  const remembered = known && known.origin === service.origin ? known : null;
  const record = (id: string | null) =>
    store.cache.put({
      namespace: PUSH_STATE_NAMESPACE,
      key,
      value: {
        id,
        origin: service.origin,
        at: input.now().toISOString(),
      } satisfies PushState,
    });
  let action: PushResult['action'] = 'created';
  if (remembered?.id) {
    const updated = await service.update(remembered.id, input.draft, context);
    if (updated) return { ...updated, action: 'updated' };
    input.log.warn(
      `${service.service}: the draft ${remembered.id} for ${input.date} no longer exists there; creating a new one`,
    );
    action = 'recreated';
  } else if (remembered) {
    // An earlier push announced a create and never recorded its answer: the draft may be there already.
    const found = await service.find(input.draft, context);
    const updated = found && (await service.update(found.id, input.draft, context));
    if (updated) {
      await record(updated.id);
      input.log.info(
        `${service.service}: found the draft ${updated.id} an interrupted push had made for ${input.date}; updated it`,
      );
      return { ...updated, action: 'updated' };
    }
  }
  await record(null);
  const created = await service.create(input.draft, context);
  await record(created.id);
  return { ...created, action };
}

/** The service's failure as a DeliveryError without secrets, saying what to check for refused credentials. */
function deliveryError(error: unknown, service: DraftService): Error {
  if (error instanceof DeliveryError || !(error instanceof Error)) return error as Error;
  const status = error instanceof FetchError ? error.status : undefined;
  const message =
    status === 401 || status === 403
      ? `${service.service} refused the credentials (HTTP ${status}): check the environment variable(s) named by push.${service.service}`
      : redact(error.message, service.secrets);
  return new DeliveryError(message, status);
}
