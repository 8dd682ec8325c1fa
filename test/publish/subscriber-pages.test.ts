// The subscribe form on published pages (only when the site is served) and the subscriber pages: valid HTML, no
// script, escaped tokens and addresses.
import { HtmlValidate } from 'html-validate';
import { describe, expect, it } from 'vitest';
import type { AnalyticsMode } from '../../src/config/analytics-schema.js';
import { parseConfig } from '../../src/config/load-config.js';
import { NO_PREFERENCES } from '../../src/core/reader-choices.js';
import { siteFiles } from '../../src/publish/publish-site.js';
import { fillSubscribeSlot } from '../../src/publish/subscribe-slot.js';
import { renderSubscriberPage, type SubscriberPage } from '../../src/publish/subscriber-pages.js';
import { subscribeReadiness } from '../../src/subscribers/subscribe-readiness.js';
import { subscriptionSettings } from '../../src/subscribers/subscription-settings.js';
import { weeklyEditions } from '../support/weekly-editions.js';

const validator = new HtmlValidate({ extends: ['html-validate:recommended'] });

async function errorsOf(html: string): Promise<string[]> {
  const report = await validator.validateString(html);
  return report.results.flatMap((result) =>
    result.messages.map(
      (message) => `${message.ruleId} (${message.line}:${message.column}): ${message.message}`,
    ),
  );
}

describe('the subscribe form on the site', () => {
  const editions = weeklyEditions(2);
  const served = siteFiles({ editions, baseUrl: 'https://digest.example.org/', subscribeForm: true });
  const plain = siteFiles({ editions, baseUrl: 'https://digest.example.org/' });
  const pages: [string, string][] = [
    ['index.html', 'subscribe'],
    ['2026-05-04/index.html', '../subscribe'],
    ['search/index.html', '../subscribe'],
    ['404.html', 'https://digest.example.org/subscribe'],
  ];

  for (const [path, action] of pages) {
    it(`${path}: a plain POST form to ${action} with a hidden honeypot, valid HTML`, async () => {
      const page = served.get(path) as string;
      expect(page).toContain(`<form class="search-form" method="post" action="${action}">`);
      expect(page).toContain('<input id="subscribe-email" type="email" name="email" required');
      expect(page).toMatch(/<div class="visually-hidden" aria-hidden="true">.*name="website" tabindex="-1"/s);
      expect(await errorsOf(page)).toEqual([]);
    });
  }

  it('is left out of a static build: by default a page holds only the slot `digest serve` fills', () => {
    expect(parseConfig({}).server.subscribeForm).toBeUndefined();
    for (const [path] of pages) {
      expect(plain.get(path) as string).not.toContain('<form class="search-form" method="post"');
      expect(plain.get(path) as string).toContain('<!--digest:subscribe root=');
    }
    const off = siteFiles({ editions, baseUrl: 'https://digest.example.org/', subscribeForm: false });
    for (const [path] of pages) expect(off.get(path) as string).not.toContain('subscribe');
  });

  for (const [path, action] of pages) {
    it(`${path}: the slot filled by digest serve is the same form, valid HTML`, async () => {
      const filled = fillSubscribeSlot(plain.get(path) as string, 'LLM News Digest');
      expect(filled).toContain(`<form class="search-form" method="post" action="${action}">`);
      expect(filled).not.toContain('<!--digest:subscribe');
      expect(await errorsOf(filled)).toEqual([]);
    });
  }

  it('with several languages, the form digest serve fills offers them and posts to the site root from every section', async () => {
    const [edition] = weeklyEditions(1);
    const site = siteFiles({
      editions: [edition!],
      baseUrl: 'https://digest.example.org/',
      languages: { configured: ['en', 'de'], translated: new Map([['de', [edition!]]]) },
    });
    for (const [path, action] of [
      ['index.html', 'subscribe'],
      ['de/index.html', '../subscribe'],
      ['de/2026-05-04/index.html', '../../subscribe'],
      ['de/search/index.html', '../../subscribe'],
    ] as const) {
      const filled = fillSubscribeSlot(site.get(path) as string, 'LLM News Digest', {
        languages: ['en', 'de'],
      });
      expect(filled).toContain(`<form class="search-form" method="post" action="${action}">`);
      expect(filled).toContain('<select id="subscribe-language" name="language">');
      expect(filled).toContain('<option value="de" lang="de">Deutsch</option>');
      expect(await errorsOf(filled)).toEqual([]);
    }
  });
});

describe('subscriber pages', () => {
  const hostileToken = '"><script>alert(1)</script>';
  const cases: SubscriberPage[] = [
    { kind: 'check-inbox' },
    { kind: 'invalid-address', message: 'expected an address like name@example.com' },
    { kind: 'confirmed' },
    { kind: 'unsubscribe', token: hostileToken, address: '<b>eve</b>@example.com' },
    { kind: 'unsubscribed' },
    { kind: 'invalid-link' },
    { kind: 'too-many-requests' },
  ];
  for (const content of cases) {
    it(`${content.kind}: valid HTML, no script, text escaped`, async () => {
      const page = renderSubscriberPage(content, {
        siteName: 'A <Digest>',
        root: 'https://digest.example.org/',
      });
      expect(await errorsOf(page)).toEqual([]);
      expect(page).not.toContain('<script');
      expect(page).not.toContain('<b>');
      expect(page).toContain('A &lt;Digest&gt;');
    });
  }

  it('the unsubscribe page masks the address and posts the token back', () => {
    const page = renderSubscriberPage(
      { kind: 'unsubscribe', token: 'u.MQ.abc.sig', address: 'ada@example.com' },
      { root: '/' },
    );
    expect(page).toContain('to a…@example.com?');
    expect(page).not.toContain('ada@example.com');
    expect(page).toContain('<form method="post" action="/unsubscribe">');
    expect(page).toContain('<input type="hidden" name="token" value="u.MQ.abc.sig">');
  });
});

describe('the preferences page', () => {
  const page = (languages: readonly string[]) =>
    renderSubscriberPage(
      {
        kind: 'preferences',
        token: 'p.token',
        address: 'ada@example.org',
        preferences: NO_PREFERENCES,
        languages,
      },
      { root: '/' },
    );

  it('offers "your language" only when there is a language to choose', async () => {
    expect(page(['en'])).not.toContain('your language');
    expect(page(['en'])).toContain('puts first: your topics and levels.');
    expect(page(['en', 'de'])).toContain('puts first: your language, your topics and levels.');
    expect(await errorsOf(page(['en']))).toEqual([]);
  });
});

describe('what the subscribe form and the preferences page say about counted clicks', () => {
  const served = siteFiles({ editions: weeklyEditions(1), baseUrl: 'https://digest.example.org/' });
  const form = (clicks: AnalyticsMode) =>
    fillSubscribeSlot(served.get('index.html') as string, 'LLM News Digest', { clicks });
  const preferences = (clicks: AnalyticsMode, countMyClicks: boolean) =>
    renderSubscriberPage(
      {
        kind: 'preferences',
        token: 'p.token',
        address: 'ada@example.org',
        preferences: NO_PREFERENCES,
        languages: ['en'],
        countMyClicks,
      },
      { root: '/', clicks },
    );
  const SWITCH = /<input type="checkbox" name="countMyClicks" value="1"( checked)?> Count my clicks/;

  it('per-reader: both say clicks are counted per reader and can be turned off; the page has the switch', async () => {
    const sentence = 'counted per reader; you can turn that off on your preferences page.';
    expect(form('per-reader')).toContain(sentence);
    const on = preferences('per-reader', true);
    expect(on).toContain(sentence);
    expect(on.match(SWITCH)?.[1]).toBe(' checked');
    expect(on).toContain('<input type="hidden" name="clicksOffered" value="1">');
    expect(preferences('per-reader', false).match(SWITCH)?.[1]).toBeUndefined();
    expect(await errorsOf(on)).toEqual([]);
    expect(await errorsOf(form('per-reader'))).toEqual([]);
  });

  it('aggregate: one sentence naming nobody, no switch; off: nothing about clicks', () => {
    for (const page of [form('aggregate'), preferences('aggregate', true)]) {
      expect(page).toContain('Clicks on links in the mail are counted without naming anyone.');
      expect(page).not.toContain('per reader');
      expect(page).not.toMatch(SWITCH);
    }
    for (const page of [form('off'), preferences('off', true)]) {
      expect(page).not.toContain('click-note');
      expect(page).not.toMatch(/counted/i);
      expect(page).not.toMatch(SWITCH);
    }
  });

  it('with analytics.site the sentence names the pages too, as the config says (form and preferences page)', () => {
    const said = (analytics: Record<string, unknown>) => {
      const config = parseConfig({
        name: 'LLM News Digest',
        server: { baseUrl: 'https://digest.example.org/' },
        publish: { email: { from: 'd@example.org', smtp: { host: '127.0.0.1', port: 2525 } } },
        analytics,
      });
      const settings = subscriptionSettings(config)!;
      const fill = subscribeReadiness(config, null).transformHtml!;
      const pages = [
        fill(served.get('index.html') as string),
        renderSubscriberPage(
          {
            kind: 'preferences',
            token: 't',
            address: 'ada@example.org',
            preferences: NO_PREFERENCES,
            languages: ['en'],
          },
          { root: '/', clicks: settings.clicks, clicksOnSite: settings.clicksOnSite },
        ),
      ];
      return pages.map((page) => /<p class="click-note">([^<]*)<\/p>/.exec(page)?.[1]);
    };
    const mailOnly = 'Clicks on links in the mail are counted without naming anyone.';
    const withSite = 'Clicks on links in the mail and on this site are counted without naming anyone.';
    expect(said({ mode: 'aggregate' })).toEqual([mailOnly, mailOnly]);
    expect(said({ mode: 'aggregate', site: true })).toEqual([withSite, withSite]);
    const perReader = said({ mode: 'per-reader', site: true });
    for (const sentence of perReader) {
      expect(sentence).toContain(
        'per reader, those on this site without naming anyone; you can turn that off',
      );
    }
    expect(said({ mode: 'off', site: true })).toEqual([undefined, undefined]);
  });
});
