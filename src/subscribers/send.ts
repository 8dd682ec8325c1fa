// `digest send`: one edition to every confirmed subscriber, through the send log (see src/mail/ and
// src/store/send-log.ts). Recipients are written as rows before the first mail; a rerun adds readers confirmed
// since, skips those who left, and resends nothing already sent. Uncertain rows (a process killed between the
// server's "250" and the log write) are reported and, by default, not resent: a reader may miss one edition
// rather than get it twice. `resendUncertain` turns that round.
import { refuseFlagged } from '../core/edition-flags.js';
import { minItemsFor, refuseThin } from '../core/edition-thin.js';
import { type Edition, editionRevision } from '../core/types.js';
import type { SendEvent } from '../mail/send-run.js';
import { sendSettings } from '../mail/settings.js';
import type { SendDeps } from './ports.js';
import { chooseEditionToSend } from './send-choice.js';
import { sendCorrection } from './send-correction.js';
import { prepareSendMail } from './send-mail.js';
import { emptyOutcome, type SendInput, type SendOutcome } from './send-outcome.js';
import { deliver, previewAll, publishedEdition } from './send-rows.js';

export type { SendInput, SendOutcome, SendProgress } from './send-outcome.js';
export type { SendEvent };

/** The input with its edition chosen. */
type WeekInput = SendInput & { week: string };

export async function send(deps: SendDeps, request: SendInput): Promise<SendOutcome> {
  const { store, log, config } = deps;
  if (request.correction) return sendCorrection(deps, request);
  let input: WeekInput;
  if (request.week) input = { ...request, week: request.week };
  else {
    const choice = await chooseEditionToSend(store);
    log.info(choice.note);
    if (!choice.week)
      return { ...emptyOutcome('', request.dryRun ?? false), complete: true, nothingToSend: true };
    input = { ...request, week: choice.week };
  }
  const edition = await sendableEdition(deps, input);
  const settings = sendSettings(config, deps.env, input.baseUrl);
  const base = emptyOutcome(input.week, input.dryRun ?? false);
  if (input.dryRun) {
    const wouldSend = await previewAll(deps, input.week);
    log.info(`Dry run: ${wouldSend.length} reader(s) would get "${edition.title}"; nothing written or sent.`);
    return { ...base, wouldSend, counts: await store.sendLog.counts(input.week) };
  }
  const mail = await prepareSendMail(deps, edition, settings);
  const delivered = await deliver(deps, {
    mail: { edition: mail.edition, revision: editionRevision(edition), compose: mail.compose },
    label: `"${edition.title}"`,
    settings,
    resendUncertain: input.resendUncertain ?? false,
    hooks: input,
  });
  if (mail.variants() > 1)
    log.info(`Readers got ${mail.variants()} versions of the edition (by their language and topics).`);
  return { ...base, ...delivered };
}

/** The week's edition, built and published (the mail links to its page), and not flagged or thin unless allowed. */
async function sendableEdition(deps: Pick<SendDeps, 'store' | 'config'>, input: WeekInput): Promise<Edition> {
  const edition = await publishedEdition(deps, input.week);
  refuseFlagged(edition, 'send', input.allowFlagged ?? false);
  const { selection, itemsPerEdition } = deps.config;
  refuseThin(edition, 'send', {
    minItems: minItemsFor(selection.minItems, itemsPerEdition),
    allowThin: input.allowThin ?? false,
  });
  return edition;
}
