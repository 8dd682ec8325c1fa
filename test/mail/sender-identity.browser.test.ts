// The accent colour in real Chromium: the edition's mail and the confirmation mail rendered with the configured
// publish.identity pass axe (colour contrast included) at 1280 and 390 px; a colour the config accepts is dark
// enough for its links and buttons.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load-config.js';
import { renderEmail } from '../../src/publish/email-files.js';
import { senderIdentity } from '../../src/publish/sender-identity.js';
import { renderConfirmationMail } from '../../src/publish/subscriber-mail.js';
import { launchChromium, openPage, runAxe } from '../support/browser.js';
import { chromiumPath } from '../support/environment.js';
import { referenceEdition } from '../support/reference-edition.js';

const identity = {
  postalAddress: 'Agents Weekly Ltd\n1 Main Street\nSpringfield 12345',
  footer: 'You get this because you subscribed.',
  // A lighter blue, still above the 4.5:1 the config asks for on the mail's grey (5.08:1).
  accentColor: '#2a64bd',
  logoUrl: 'https://digest.example.org/logo.png',
};

describe.skipIf(!chromiumPath())('the accent colour in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('the edition mail and the confirmation mail pass axe at 1280 and 390 px', async () => {
    const config = parseConfig({ publish: { baseUrl: 'https://digest.example.org/', identity } });
    const sender = senderIdentity(config.publish.identity);
    const edition = await renderEmail(referenceEdition(), {
      email: config.publish.email,
      baseUrl: 'https://digest.example.org/',
      sender,
    });
    const confirmation = await renderConfirmationMail({
      siteName: config.name,
      from: config.publish.email.from,
      to: 'ada@example.com',
      date: new Date('2026-05-04T09:00:00Z'),
      messageIdDomain: 'digest.example.org',
      confirmUrl: 'https://digest.example.org/confirm?token=t',
      siteUrl: 'https://digest.example.org/',
      validHours: 48,
      sender,
    });
    for (const width of [1280, 390]) {
      for (const [name, markup] of [
        ['edition', edition.html],
        ['confirmation', confirmation.html],
      ] as const) {
        expect(markup).toContain(identity.accentColor);
        const opened = await openPage(browser, { width, bypassCSP: true });
        try {
          await opened.page.setContent(markup);
          const serious = (await runAxe(opened.page)).filter(
            (violation) => violation.impact === 'serious' || violation.impact === 'critical',
          );
          expect(
            serious.map((violation) => [violation.id, violation.nodes]),
            `${name} at ${width}px`,
          ).toEqual([]);
        } finally {
          await opened.context.close();
        }
      }
    }
  });
});
