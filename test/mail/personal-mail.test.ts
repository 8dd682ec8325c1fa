// Personal mails: `digest send` composes each reader's mail from the edition by their choices (topics and levels
// first or only, the rest named), through a real SMTP server on loopback; parsed with mailparser.
import { simpleParser } from 'mailparser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReaderPreferences } from '../../src/core/types.js';
import { planReaderMail } from '../../src/mail/personal-mail.js';
import { itemTopics } from '../../src/select/topic-match.js';
import type { Store } from '../../src/store/types.js';
import { createSubscriberTokens } from '../../src/subscribers/tokens.js';
import { useTestStore } from '../support/database.js';
import { referenceEdition } from '../support/reference-edition.js';
import { addReaders, BASE_URL, SECRET, seedEdition, testDigest, WEEK } from '../support/send-digest.js';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server.js';

const edition = referenceEdition();
const titles = edition.items.map((item) => item.title);
const topicsOf = edition.items.map(itemTopics);
/** Items on "code" or "robotics", in edition order: the reference edition's 3rd, 9th, 11th and 12th. */
const ON_TOPICS = [2, 8, 10, 11];
const ADVANCED = edition.items.flatMap((item, index) => (item.level === 'Advanced' ? [index] : []));

const choice = (partial: Partial<ReaderPreferences>): ReaderPreferences => ({
  language: null,
  topics: [],
  levels: [],
  onlyMyTopics: false,
  ...partial,
});

describe("planning a reader's mail (pure)", () => {
  it('no choices: the edition as it is; topics first; levels not wanted only named; "only" names the rest', () => {
    const all = titles.map((_, index) => index);
    expect(
      planReaderMail({ edition, topicsOfItems: topicsOf, preferences: null, languages: ['en'] }),
    ).toEqual({
      language: 'en',
      full: all,
      also: [],
      nothingMatched: false,
    });
    expect(ON_TOPICS.every((index) => /code|robotics/.test(topicsOf[index]!.join()))).toBe(true);
    const first = planReaderMail({
      edition,
      topicsOfItems: topicsOf,
      preferences: choice({ topics: ['robotics', 'code'], levels: ['Accessible', 'Intermediate'] }),
      languages: ['en'],
    });
    expect(first.full.slice(0, 4)).toEqual(ON_TOPICS);
    expect(first.also).toEqual(ADVANCED);
    expect(new Set([...first.full, ...first.also]).size).toBe(titles.length);
    const only = planReaderMail({
      edition,
      topicsOfItems: topicsOf,
      preferences: choice({ topics: ['robotics', 'code'], onlyMyTopics: true }),
      languages: ['en', 'de'],
    });
    expect(only.full).toEqual(ON_TOPICS);
    expect(only.also).toEqual(all.filter((index) => !ON_TOPICS.includes(index)));
    // A language without a translation falls back to the written one; a topic nobody wrote about: the whole edition.
    expect(
      planReaderMail({
        edition,
        topicsOfItems: topicsOf,
        preferences: choice({ language: 'de' }),
        languages: ['en'],
      }).language,
    ).toBe('en');
    expect(
      planReaderMail({
        edition,
        topicsOfItems: topicsOf,
        preferences: choice({ language: 'de' }),
        languages: ['en', 'de'],
      }).language,
    ).toBe('de');
    expect(
      planReaderMail({
        edition,
        topicsOfItems: topicsOf,
        preferences: choice({ topics: ['life-sciences'] }),
        languages: ['en'],
      }),
    ).toMatchObject({
      full: all,
      nothingMatched: true,
    });
  });
});

describe('digest send: personal mails', () => {
  const getStore = useTestStore('pglite');
  let smtp: TestSmtpServer;
  let store: Store;

  beforeEach(async () => {
    smtp = await startSmtpServer();
    store = getStore();
    await seedEdition(store);
  });
  afterEach(async () => {
    await smtp.close();
  });

  const choose = async (address: string, preferences: ReaderPreferences) => {
    const row = (await store.subscribers.get({ address }))!;
    expect(await store.preferences.set(row.id, preferences)).toBe(true);
  };
  const mailTo = async (address: string) => {
    const received = smtp.mails.filter((mail) => mail.to[0] === address);
    expect(received, address).toHaveLength(1);
    return simpleParser(received[0]!.raw);
  };
  /** The item headings of the text part ("1. Title"), in order. */
  const headings = (text: string) =>
    text
      .split('\n')
      .filter((line) => /^\d+\. /.test(line))
      .map((line) => line.replace(/^\d+\. /, ''));

  it('each reader gets their topics first, levels they did not want named below, and a link to their page', async () => {
    await addReaders(store, [
      'plain@example.com',
      'first@example.com',
      'only@example.com',
      'alike@example.com',
    ]);
    await choose(
      'first@example.com',
      choice({ topics: ['robotics', 'code'], levels: ['Accessible', 'Intermediate'] }),
    );
    await choose(
      'alike@example.com',
      choice({ topics: ['code', 'robotics'], levels: ['Intermediate', 'Accessible'] }),
    );
    await choose('only@example.com', choice({ topics: ['robotics', 'code'], onlyMyTopics: true }));
    const outcome = await testDigest(store, smtp.port).send({ week: WEEK });
    expect(outcome.run).toMatchObject({ sent: 4, failed: 0 });

    const plain = await mailTo('plain@example.com');
    expect(plain.text).not.toContain('Also in this edition');
    expect(headings(plain.text ?? '').map((line) => line.slice(0, 20))).toEqual(
      titles.map((title) => title.slice(0, 20)),
    );

    const first = await mailTo('first@example.com');
    const firstHeadings = headings(first.text ?? '');
    expect(firstHeadings.slice(0, 4).map((line) => line.slice(0, 20))).toEqual(
      ON_TOPICS.map((index) => titles[index]!.slice(0, 20)),
    );
    expect(firstHeadings).toHaveLength(titles.length - ADVANCED.length);
    expect(first.text).toContain('Also in this edition');
    expect(first.html).toContain('Also in this edition');
    // Named, linked to its place on the edition page, never shown in full.
    expect(first.html).toContain(`${BASE_URL}${WEEK}/#`);
    expect(first.text).toContain(`- ${titles[ADVANCED[0]!]!.slice(0, 30)}`);
    expect(first.subject).toBe(plain.subject);
    expect((await mailTo('alike@example.com')).text?.replace(/token=[^\s]+/g, '')).toBe(
      first.text?.replace(/token=[^\s]+/g, ''),
    );

    const only = await mailTo('only@example.com');
    expect(headings(only.text ?? '')).toHaveLength(ON_TOPICS.length);
    // Every mail still links to the full edition.
    for (const mail of [plain, first, only])
      expect(mail.text).toContain(`Read it on the web: ${BASE_URL}${WEEK}/`);

    // The "your edition" link carries the reader's own signed 'preferences' token.
    const link = /Choose your topics and language: (https:\/\/\S+)/.exec(first.text ?? '')?.[1];
    expect(link).toMatch(new RegExp(`^${BASE_URL}preferences\\?token=`));
    const token = new URL(link!).searchParams.get('token')!;
    const row = (await store.subscribers.get({ address: 'first@example.com' }))!;
    const check = await createSubscriberTokens(Buffer.from(SECRET), Date.now).verify(
      token,
      'preferences',
      () => ({
        id: String(row.id),
        address: row.address,
      }),
    );
    expect(check.ok).toBe(true);
  });

  it("preferences changed after a reader's mail went out send nothing again (exactly once per edition)", async () => {
    await addReaders(store, ['ada@example.com', 'bob@example.com']);
    await choose('ada@example.com', choice({ topics: ['code'] }));
    expect((await testDigest(store, smtp.port).send({ week: WEEK })).run.sent).toBe(2);
    await choose('ada@example.com', choice({ topics: ['agents'], language: 'de', onlyMyTopics: true }));
    await choose('bob@example.com', choice({ topics: ['safety'] }));
    const again = await testDigest(store, smtp.port).send({ week: WEEK });
    expect(again.run.sent).toBe(0);
    expect(smtp.mails).toHaveLength(2);
    expect(again.counts).toMatchObject({ sent: 2, queued: 0 });
  });
});
