// A test of the edition's mail to one address (the editor's own), before any reader gets it: the mail a reader
// with no preferences would get, its subject marked "[Test]", its item links straight to the items (an editor's
// clicks never count), its unsubscribe link leading nowhere. It is not a send: no row in the send log, no reader
// touched, the draft as welcome as a published edition.

import { ADDRESS_PROBLEMS, normaliseAddress } from '../core/email-address.js';
import { ConfigError, NotReadyError } from '../core/errors.js';
import { sendSettings } from '../mail/settings.js';
import { createSmtpSender } from '../mail/smtp-sender.js';
import type { SendDeps } from './ports.js';
import { prepareSendMail } from './send-mail.js';

export interface SendTestInput {
  week: string;
  /** Where the test goes; checked as a subscriber's address is. */
  to: string;
  baseUrl?: string;
}

export interface SendTestOutcome {
  week: string;
  to: string;
  /** The server's answer, e.g. "250 2.0.0 Ok: queued as 4F2A1". */
  response: string;
}

/** Stands where a reader's signed token goes: a test mail's unsubscribe and preferences links open no reader's page. */
const NO_READER = 'test';

export async function sendTest(deps: SendDeps, input: SendTestInput): Promise<SendTestOutcome> {
  const address = normaliseAddress(input.to);
  if (!address.ok) {
    throw new ConfigError(`--test ${JSON.stringify(input.to)}: ${ADDRESS_PROBLEMS[address.problem]}.`, [
      { path: '--test', message: ADDRESS_PROBLEMS[address.problem] },
    ]);
  }
  const edition = await deps.store.editions.get(input.week);
  if (!edition) {
    throw new NotReadyError(
      `No edition for ${input.week}: build it first (./digest build --week ${input.week}).`,
    );
  }
  const settings = sendSettings(deps.config, deps.env, input.baseUrl);
  const mail = await prepareSendMail(deps, edition, { ...settings, test: true });
  const outgoing = await mail.compose({
    subscriberId: 0,
    address: address.address,
    preferences: null,
    token: NO_READER,
    preferencesToken: NO_READER,
  });
  const sender = createSmtpSender({ ...settings.smtp, connections: 1 });
  try {
    const sent = await sender.send(outgoing);
    deps.log.info(`Test of ${input.week} sent to ${address.address}: ${sent.response}`);
    return { week: input.week, to: address.address, response: sent.response };
  } finally {
    sender.close();
  }
}
