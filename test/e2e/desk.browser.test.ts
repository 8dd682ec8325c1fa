// The editor's desk in real Chromium against the real `digest serve` (bin/digest.js) on loopback with the sample
// week: sign in, a decision, an edit, approve → publish, then a correction of the published edition; axe-core on
// every admin page; keyboard sign-in.
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, type OpenedPage, openPage, runAxe } from '../support/browser.js';
import { runDigest } from '../support/cli.js';
import { chromiumPath } from '../support/environment.js';
import { startServe } from '../support/serve.js';
import { type LoopbackSmtp, startSmtp } from '../support/smtp-inbox.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const WEEK = '2026-05-04';
const EDITOR = { email: 'editor@example.com', password: 'a sample week passphrase' };

async function serveDesk(cwd: string): Promise<{ child: ChildProcess; url: string }> {
  const { child, url } = await startServe({ cwd, site: 'site', dataDir: 'data' });
  return { child, url: new URL(url).origin };
}

async function expectAccessible(page: Page, name: string): Promise<void> {
  const serious = (await runAxe(page)).filter(
    (violation) => violation.impact === 'serious' || violation.impact === 'critical',
  );
  expect(serious, `${name}: ${JSON.stringify(serious, null, 1)}`).toEqual([]);
}

describe.skipIf(!chromiumPath())("editor's desk in Chromium against digest serve", () => {
  let cwd: string;
  let served: { child: ChildProcess; url: string };
  let browser: Browser;
  let opened: OpenedPage;
  let smtp: LoopbackSmtp;

  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) {
      throw new Error('dist/ is not built: run "npm run build" first');
    }
    cwd = await mkdtemp(join(tmpdir(), 'digest-desk-e2e-'));
    expect((await runDigest(['demo'], { cwd })).code).toBe(0);
    smtp = await startSmtp();
    // Approving publishes, which needs the site's address; mail goes to a catcher on loopback.
    await writeFile(
      join(cwd, 'digest.config.json'),
      JSON.stringify({
        publish: {
          baseUrl: 'https://digest.example/',
          email: {
            smtp: { host: '127.0.0.1', port: smtp.port, requireTls: false },
            send: { retryDelayMs: 20, timeoutMs: 2000 },
          },
        },
        enrich: { enabled: false },
        // The outbox looks by itself once at start and then only every 10 minutes: a confirmation mail that
        // arrives sooner was woken by the change that queued it.
        server: { outbox: { pollMs: 600_000 } },
      }),
    );
    const added = await runDigest(['editors', 'add', EDITOR.email], {
      cwd,
      env: { DIGEST_EDITOR_PASSWORD: EDITOR.password },
    });
    expect(added.code, added.stderr).toBe(0);
    served = await serveDesk(cwd);
    browser = await launchChromium();
    // axe is injected as a script: the context bypasses the policy for that alone (CSP is checked in the routes tests).
    opened = await openPage(browser, { width: 1280, allowOrigin: served.url, bypassCSP: true });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    if (served && served.child.exitCode === null) {
      served.child.kill('SIGTERM');
      await new Promise((resolve) => served.child.once('exit', resolve));
    }
    await smtp?.close();
    if (cwd) await rm(cwd, { recursive: true, force: true });
  });

  // Before the week is published: a published week's board offers no reordering at all.
  it('reorders by dragging when the script runs, with no policy violation', async () => {
    const fresh = await signedInPage({ bypassCSP: false });
    const { page } = fresh;
    expect(await fresh.violations()).toEqual([]);
    expect(await page.locator('#edition-items li').first().getAttribute('draggable')).toBe('true');
    await fresh.context.close();
  }, 60_000);

  it('signs in with the keyboard, decides, edits, approves and publishes; every page passes axe', async () => {
    const { page } = opened;
    await page.goto(`${served.url}/admin`);
    expect(new URL(page.url()).pathname).toBe('/admin/login');
    await expectAccessible(page, 'sign-in');

    // Keyboard only: skip link, then the labelled fields in order.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('email');
    await page.keyboard.type(EDITOR.email);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('password');
    await page.keyboard.type(EDITOR.password);
    await Promise.all([page.waitForURL(`**/admin/week/${WEEK}`), page.keyboard.press('Enter')]);
    expect(await page.locator('h1').textContent()).toBe(`Week of ${WEEK}`);
    await expectAccessible(page, 'board');

    // A decision: pin the best candidate left out.
    const leftOut = page.locator('table.candidates tbody tr:not(.chosen)').first();
    const pinnedKey = (await leftOut.locator('.item-key').first().textContent())!.trim();
    await Promise.all([page.waitForURL(/done=pin/), leftOut.getByRole('button', { name: /^Pin / }).click()]);
    expect(await page.locator('.notice').textContent()).toContain('Pinned');
    expect(await page.locator(`#edition-items li[data-key="${pinnedKey}"]`).count()).toBe(1);
    expect(await page.locator('table.decisions').textContent()).toContain(EDITOR.email);

    // An edit of the first item's summary, with the diff shown.
    await Promise.all([
      page.waitForURL(/\/item\?key=/),
      page.locator('#edition-items li').first().getByRole('link', { name: 'Edit' }).click(),
    ]);
    await expectAccessible(page, 'item');
    await page.fill('#edit-summary', 'The editor rewrote this summary for the sample week.');
    await Promise.all([
      page.waitForURL(/done=saved/),
      page.getByRole('button', { name: "Save the editor's version" }).click(),
    ]);
    expect(await page.locator('.diff ins').first().textContent()).toContain('editor');

    await page.goto(`${served.url}/admin/week/${WEEK}/preview`);
    expect(await page.content()).toContain('The editor rewrote this summary for the sample week.');

    await page.goto(`${served.url}/admin/week/${WEEK}/approve`);
    await expectAccessible(page, 'approve');
    expect(await page.locator('main').textContent()).toContain('0 reader(s) will get the mail');
    await Promise.all([
      page.waitForURL(/done=published/),
      page.getByRole('button', { name: 'Approve and publish' }).click(),
    ]);
    const published = await readFile(join(cwd, 'site', WEEK, 'index.html'), 'utf8');
    expect(published).toContain('The editor rewrote this summary for the sample week.');

    await page.goto(`${served.url}/admin/audit`);
    await expectAccessible(page, 'audit');
    const audit = await page.locator('table.audit').textContent();
    for (const action of ['sign-in', 'pin', 'edit', 'approve', 'publish']) expect(audit).toContain(action);

    // Sign out: the session ends on the server.
    await Promise.all([
      page.waitForURL('**/admin/login'),
      page.getByRole('button', { name: 'Sign out' }).click(),
    ]);
    await page.goto(`${served.url}/admin/week/${WEEK}`);
    expect(new URL(page.url()).pathname).toBe('/admin/login');
  }, 120_000);

  /** A new browser context, signed in through the form, on the week's board. */
  /** "Send at…" from the send page: the browser's zone filled in, the board's line in two zones, then Cancel. */
  async function scheduleAndCancel(page: Page): Promise<void> {
    const browserZone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(await page.inputValue('#send-zone')).toBe(browserZone);
    await page.fill('#send-at', '2099-01-05T08:00');
    await page.fill('#send-zone', 'Europe/Berlin');
    await Promise.all([
      page.waitForURL(/done=scheduled/),
      page.getByRole('button', { name: 'Schedule the send' }).click(),
    ]);
    expect(await page.locator('.scheduled').textContent()).toContain(
      'Scheduled for 2099-01-05 08:00 Europe/Berlin (UTC 2099-01-05 07:00)',
    );
    await expectAccessible(page, 'scheduled board');
    await page.setViewportSize({ width: 390, height: 900 });
    await expectAccessible(page, 'scheduled board at 390 px');
    await page.goto(`${served.url}/admin/week/${WEEK}/send`);
    await expectAccessible(page, 'send at 390 px');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${served.url}/admin/week/${WEEK}`);
    await Promise.all([
      page.waitForURL(/done=unscheduled/),
      page.getByRole('button', { name: 'Cancel the scheduled send' }).click(),
    ]);
    expect(await page.locator('.scheduled').count()).toBe(0);
    await page.goto(`${served.url}/admin/week/${WEEK}/send`);
  }

  async function signedInPage(options: { bypassCSP: boolean }): Promise<OpenedPage> {
    const fresh = await openPage(browser, { width: 1280, allowOrigin: served.url, ...options });
    const { page } = fresh;
    await page.goto(`${served.url}/admin/login`);
    await page.fill('#email', EDITOR.email);
    await page.fill('#password', EDITOR.password);
    await Promise.all([
      page.waitForURL(/\/admin\/week\//),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    return fresh;
  }

  it('sends a test to the editor, then the edition to its reader, from the buttons; each page passes axe', async () => {
    // A reader confirmed after publication, added from the command line beside the running service.
    const added = await runDigest(['subscribers', 'add', 'reader@example.org', '--confirmed'], { cwd });
    expect(added.code, added.stderr).toBe(0);
    const fresh = await signedInPage({ bypassCSP: true });
    const { page } = fresh;
    await Promise.all([
      page.waitForURL(/done=tested/),
      page.getByRole('button', { name: 'Send a test to me' }).click(),
    ]);
    const test = await smtp.next(1);
    expect(test.to).toEqual([EDITOR.email]);
    expect(test.parsed.subject).toMatch(/^\[Test\] /);

    await Promise.all([
      page.waitForURL(new RegExp(`/admin/week/${WEEK}/send$`)),
      page.getByRole('link', { name: 'Send to 1 reader(s)…' }).click(),
    ]);
    await expectAccessible(page, 'send');
    await scheduleAndCancel(page);
    await Promise.all([
      page.waitForURL(/done=sending/),
      page.getByRole('button', { name: 'Send to 1 reader(s)' }).click(),
    ]);
    expect((await smtp.next(2)).to).toEqual(['reader@example.org']);
    await expect
      .poll(async () => {
        await page.reload();
        return page.locator('.mailing').textContent();
      })
      .toContain('sent 1 · waiting 0');
    await fresh.context.close();
  }, 90_000);

  it('corrects the published edition: from a refused rebuild to revision 2 live, revision 1 still served', async () => {
    const fresh = await signedInPage({ bypassCSP: true });
    const { page } = fresh;
    expect(await page.getByRole('link', { name: 'Correct this edition' }).count()).toBe(1);
    // A published week offers no control the server would refuse: its one editing action is the correction.
    for (const name of ['Rebuild the draft', 'Up', 'Down', 'Skip', 'Swap', 'Pin', 'Add', 'Set']) {
      expect(await page.getByRole('button', { name, exact: true }).count(), name).toBe(0);
    }
    expect(await page.getByRole('link', { name: 'Approve and publish…' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Edit', exact: true }).count()).toBe(0);
    await expectAccessible(page, 'published board');
    await Promise.all([
      page.waitForURL(new RegExp(`/admin/week/${WEEK}/correct\\??$`)),
      page.getByRole('link', { name: 'Correct this edition' }).click(),
    ]);
    await expectAccessible(page, 'correction');
    const before = await page.inputValue('#summary-0');
    await page.fill('#reason', 'The first summary overstated the result');
    await page.fill('#summary-0', 'A corrected summary, written on the desk.');
    await Promise.all([
      page.waitForURL(/done=corrected/),
      page.getByRole('button', { name: 'Approve and publish the correction' }).click(),
    ]);
    expect(await page.locator('.notice').textContent()).toContain('Corrected');

    const live = await (await fetch(`${served.url}/${WEEK}/`)).text();
    expect(live).toContain('A corrected summary, written on the desk.');
    expect(live).toContain('The first summary overstated the result');
    const earlier = await (await fetch(`${served.url}/${WEEK}-r1/`)).text();
    expect(earlier).not.toContain('A corrected summary, written on the desk.');
    expect(earlier).toContain(before.slice(0, 40).replace(/&/g, '&amp;').replace(/</g, '&lt;'));
    // The earlier revision's page says so, and links the current one.
    expect(earlier).toContain('An earlier revision.');
    expect(earlier).toContain(`<a href="../${WEEK}/">Read the current revision (2)</a>`);

    // The reader had revision 1: the board offers the notice, mailed once.
    await page.goto(`${served.url}/admin/week/${WEEK}`);
    await Promise.all([
      page.waitForURL(new RegExp(`/admin/week/${WEEK}/notice$`)),
      page.getByRole('link', { name: 'Mail the notice to 1 reader(s)…' }).click(),
    ]);
    await expectAccessible(page, 'notice');
    await Promise.all([
      page.waitForURL(/done=notice-sending/),
      page.getByRole('button', { name: 'Mail the notice to 1 reader(s)' }).click(),
    ]);
    expect((await smtp.next(3)).to).toEqual(['reader@example.org']);
    await page.goto(`${served.url}/admin/audit`);
    const audit = await page.locator('table.audit').textContent();
    expect(audit).toMatch(new RegExp(`${EDITOR.email.replace('.', '\\.')}\\s*correct`));
    expect(smtp.received.map((mail) => mail.to[0])).toEqual([
      EDITOR.email,
      'reader@example.org',
      'reader@example.org',
    ]);
    await fresh.context.close();
  }, 90_000);

  it("adds a reader on the desk: their confirmation mail goes out at once, not at the outbox's next poll", async () => {
    const fresh = await signedInPage({ bypassCSP: true });
    const { page } = fresh;
    await page.goto(`${served.url}/admin/readers`);
    await page.fill('#add-email', 'new.reader@example.org');
    const before = smtp.received.length;
    await Promise.all([
      page.waitForURL(/done=added-mailed/),
      page.getByRole('button', { name: 'Add', exact: true }).click(),
    ]);
    const confirmation = await smtp.next(before + 1);
    expect(confirmation.to).toEqual(['new.reader@example.org']);
    expect(confirmation.parsed.text).toContain('https://digest.example/confirm?token=');
    await fresh.context.close();
  }, 30_000);
});
