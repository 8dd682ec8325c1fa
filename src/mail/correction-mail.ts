// Each reader's correction notice (publish/correction-notice.ts), with their one-click List-Unsubscribe like every
// mail to readers. The Message-ID names the edition, the revision and the reader: a notice sent again would show as
// the same message. Rendered per reader — a notice is a few lines, and goes only to readers of a corrected edition.
import MailComposer from 'nodemailer/lib/mail-composer';
import { envelopeSender } from '../core/email-address.js';
import { type Edition, editionRevision } from '../core/types.js';
import { absoluteUrl, revisionPath } from '../core/urls.js';
import { renderCorrectionNotice } from '../publish/correction-notice.js';
import type { SenderIdentity } from '../publish/sender-identity.js';
import { headerRecipient, type OutgoingMail } from './edition-mail.js';
import { listUnsubscribeHeaders, unsubscribeUrl } from './list-unsubscribe.js';

export interface CorrectionMailOptions {
  /** The corrected edition, as it is live now (its last correction is the one announced). */
  edition: Edition;
  from: string;
  /** The public base URL: the edition's pages and the one-click unsubscribe endpoint live under it. */
  baseUrl: string;
  unsubscribeMailto?: string | undefined;
  /** The clock each mail's Date header reads. */
  now: () => Date;
  /** Who sends it (publish.identity): footer, postal address, logo. */
  sender?: SenderIdentity | undefined;
}

/** The notices of one correction, waiting for their readers. */
export interface CorrectionMails {
  edition: string;
  /** The revision the correction published: the notice's key in the send log. */
  revision: number;
  envelopeFrom: string;
  /** `hadRevision`: the revision the reader had (their mail's, or a notice's they were sent); unset: the one before. */
  compose(recipient: {
    subscriberId: number;
    address: string;
    token: string;
    hadRevision?: number | null | undefined;
  }): Promise<OutgoingMail>;
}

export function prepareCorrectionMails(options: CorrectionMailOptions): CorrectionMails {
  const { edition, baseUrl } = options;
  const revision = editionRevision(edition);
  const correction = edition.corrections?.at(-1);
  if (!correction || revision < 2)
    throw new Error(`the edition of ${edition.date} has no correction to announce`);
  const envelopeFrom = envelopeSender(options.from);
  const domain = new URL(baseUrl).hostname.replace(/[^a-z0-9.-]/gi, '') || 'localhost';
  const corrected = absoluteUrl(baseUrl, `${edition.date}/`) ?? baseUrl;
  return {
    edition: edition.date,
    revision,
    envelopeFrom,
    async compose({ subscriberId, address, token, hadRevision }) {
      headerRecipient(address);
      // A reader who missed a notice in between is linked to the revision they actually had, not the one before.
      const had = hadRevision && hadRevision < revision ? hadRevision : revision - 1;
      const earlier = absoluteUrl(baseUrl, revisionPath(edition.date, had)) ?? baseUrl;
      const notice = renderCorrectionNotice({
        siteName: edition.name,
        date: edition.date,
        title: edition.title,
        revision,
        correctedAt: correction.at,
        reason: correction.reason,
        hadRevision: had,
        links: { corrected, earlier, unsubscribe: unsubscribeUrl(baseUrl, token) },
        ...(options.sender ? { sender: options.sender } : {}),
      });
      const messageId = `<correction-${edition.date}-r${revision}.${subscriberId}@${domain}>`;
      const composer = new MailComposer({
        from: options.from,
        to: address,
        subject: notice.subject,
        date: options.now(),
        messageId,
        text: crlf(notice.text),
        html: crlf(notice.html),
        textEncoding: 'quoted-printable',
        headers: listUnsubscribeHeaders({
          baseUrl,
          token,
          ...(options.unsubscribeMailto ? { mailto: options.unsubscribeMailto } : {}),
        }),
      });
      const raw = (await composer.compile().build()).toString('utf8');
      return { messageId, raw, envelope: { from: envelopeFrom, to: [address] } };
    },
  };
}

const crlf = (text: string) => text.replace(/\r?\n/g, '\r\n');
