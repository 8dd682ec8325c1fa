// `digest send --correction --week D`: the correction notice of the edition's latest revision, to each reader whose
// mail of it carried an earlier revision (sent, or uncertain), at most once per reader per revision — the notices
// are rows of the send log of their own, reserved and handed over like the edition's, so a killed run is rerun
// without mailing anyone twice. Nobody gets the whole edition again.

import { ConfigError } from '../core/errors.js';
import { editionRevision } from '../core/types.js';
import { prepareCorrectionMails } from '../mail/correction-mail.js';
import { sendSettings } from '../mail/settings.js';
import { senderIdentity } from '../publish/sender-identity.js';
import type { SendDeps } from './ports.js';
import { emptyOutcome, type SendInput, type SendOutcome } from './send-outcome.js';
import { deliver, keyOfMail, previewAll, publishedEdition } from './send-rows.js';

export async function sendCorrection(deps: SendDeps, input: SendInput): Promise<SendOutcome> {
  const { week } = input;
  if (!week) throw new ConfigError('--correction: name the corrected edition with --week DATE.');
  const edition = await publishedEdition(deps, week);
  const revision = editionRevision(edition);
  if (revision < 2) {
    throw new ConfigError(
      `--correction: the edition of ${week} has no correction, so there is no notice to send. Correct it first ` +
        `(./digest correct --week ${week} --reason "…"); to mail the edition itself: ./digest send --week ${week}.`,
    );
  }
  const settings = sendSettings(deps.config, deps.env, input.baseUrl);
  const mails = prepareCorrectionMails({
    edition,
    from: deps.config.publish.email.from,
    baseUrl: settings.baseUrl,
    unsubscribeMailto: settings.send.unsubscribeMailto,
    now: () => deps.clock.now(),
    sender: senderIdentity(deps.config.publish.identity),
  });
  const mail = { edition: week, notice: revision, revision, compose: mails.compose };
  const label = `the correction notice of "${edition.title}" (revision ${revision})`;
  const base = { ...emptyOutcome(week, input.dryRun ?? false), correction: revision };
  if (input.dryRun) {
    const wouldSend = await previewAll(deps, keyOfMail(mail));
    deps.log.info(`Dry run: ${wouldSend.length} reader(s) would get ${label}; nothing written or sent.`);
    return { ...base, wouldSend, counts: await deps.store.sendLog.counts(keyOfMail(mail)) };
  }
  const delivered = await deliver(deps, {
    mail,
    label,
    settings,
    resendUncertain: input.resendUncertain ?? false,
    hooks: input,
  });
  return { ...base, ...delivered };
}
