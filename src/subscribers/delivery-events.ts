// The mail provider's reports (POST /webhooks/bounce): a bounce counts toward the reader's limit, a complaint
// unsubscribes them and is recorded as a complaint (counted apart from unsubscribes: store/mail-outcomes.ts).
// Accepted only with the bearer secret named by server.webhookSecretEnv.
import { createHash, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { ADDRESS_PROBLEMS, normaliseAddress } from '../core/email-address.js';
import type { DigestDeps } from '../deps.js';
import type { Subscriber } from '../store/subscribers.js';
import type { Store } from '../store/types.js';

const MIN_WEBHOOK_SECRET_LENGTH = 16;

const deliveryEventSchema = z
  .object({
    email: z.string().max(1000),
    type: z.enum(['bounce', 'complaint']),
    /** A hard bounce (5xx: no such mailbox). Default: temporary. */
    permanent: z.boolean().optional(),
  })
  .strip();

export type DeliveryEventOutcome =
  | { ok: true; matched: false }
  | {
      ok: true;
      matched: true;
      type: 'bounce' | 'complaint';
      status: Subscriber['status'];
      bounces: number;
    }
  | { ok: false; field: string; message: string };

export interface DeliveryEvents {
  deliveryEvent(body: unknown): Promise<DeliveryEventOutcome>;
  /** True when `authorization` is "Bearer <the secret in server.webhookSecretEnv>" (compared in constant time). */
  authoriseWebhook(authorization: string | undefined): boolean;
}

export function createDeliveryEvents(
  deps: Pick<DigestDeps, 'config' | 'log' | 'env'> & {
    store: Pick<Store, 'subscribers'>;
  },
  /** The reader's status changed: the intake must not answer from memory. */
  forget: (mailbox: string) => void,
): DeliveryEvents {
  const { config, store, log } = deps;
  return {
    async deliveryEvent(body) {
      const parsed = deliveryEventSchema.safeParse(body);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return {
          ok: false,
          field: issue?.path.join('.') || 'body',
          message: issue?.message ?? 'expected {email, type}',
        };
      }
      const checked = normaliseAddress(parsed.data.email);
      if (!checked.ok) return { ok: false, field: 'email', message: ADDRESS_PROBLEMS[checked.problem] };
      const subscriber = await store.subscribers.get({ address: checked.address });
      if (!subscriber) return { ok: true, matched: false };
      const { type, permanent } = parsed.data;
      const after =
        type === 'complaint'
          ? await store.subscribers.recordComplaint(subscriber.id)
          : await store.subscribers.recordBounce(
              subscriber.id,
              permanent ? 1 : config.server.softBounceLimit,
            );
      const now = after ?? subscriber;
      forget(subscriber.mailbox);
      log.info(
        `subscriber ${subscriber.id}: ${permanent ? 'permanent ' : ''}${type} reported; now ${now.status}`,
      );
      return { ok: true, matched: true, type, status: now.status, bounces: now.bounces };
    },

    authoriseWebhook(authorization) {
      const secret = deps.env[config.server.webhookSecretEnv];
      if (!secret || secret.length < MIN_WEBHOOK_SECRET_LENGTH) {
        log.warn(
          `POST /webhooks/bounce refused: set ${config.server.webhookSecretEnv} (at least ${MIN_WEBHOOK_SECRET_LENGTH} characters) to accept reports`,
        );
        return false;
      }
      const given = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1] ?? '';
      // Equal-length digests, so the comparison takes the same time whatever was sent.
      const digest = (value: string) => createHash('sha256').update(value).digest();
      return timingSafeEqual(digest(given), digest(secret));
    },
  };
}
