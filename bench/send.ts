// `npm run bench send`: one edition to 10,000 confirmed subscribers through the real `digest send` process and a
// loopback SMTP server (smtp-server, accepting and discarding). A clean run gives wall time and the process's peak
// RSS over an idle `digest` process on the same store; a second edition is sent with three SIGKILLs at random points
// and a rerun, then every reader's mails are counted: duplicates, missing, and uncertain rows (see README). Last, a
// third edition goes to the same 10,000 readers with mixed preferences (languages, topics, levels, "only"): personal
// mails, each distinct variant rendered once, beside the identical ones.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TOPIC_NAMES } from '../src/select/topic-match.js';
import { openStore } from '../src/store/open-store.js';
import { referenceEdition } from '../test/support/reference-edition.js';
import { writeScaleConfig } from './_scale-send.js';
import { saveGermanTranslation } from './_scale-store.js';
import { type Counter, runDigest, startSink } from './_smtp-sink.js';

const READERS = 10_000;

export async function benchSend(): Promise<Record<string, number | string>> {
  const cwd = await mkdtemp(join(tmpdir(), 'digest-bench-send-'));
  const counter: Counter = { counts: new Map(), total: 0 };
  const sink = await startSink(counter);
  try {
    await writeScaleConfig(cwd, sink.port, { concurrency: 8, messagesPerSecond: 2000 });
    const store = await openStore({ dataDir: join(cwd, 'data') });
    try {
      for (const date of ['2026-05-04', '2026-05-11', PERSONAL_EDITION]) {
        await store.editions.save({ ...referenceEdition(), date });
        await store.editions.markPublished(date, `${date}T08:00:00.000Z`);
      }
      // The personal edition has a German translation, so German readers' mails are their own renders.
      await saveGermanTranslation(store, PERSONAL_EDITION);
      for (let index = 0; index < READERS; index++) {
        const address = `reader${String(index).padStart(5, '0')}@example.com`;
        await store.subscribers.put(address, address, 'confirmed');
      }
    } finally {
      await store.close();
    }

    const idle = await runDigest(cwd, ['subscribers', 'list', '--status', 'bounced']);
    const clean = await runDigest(cwd, ['send', '--week', '2026-05-04']);
    if (counter.total !== READERS) throw new Error(`clean run delivered ${counter.total} mails`);

    counter.counts.clear();
    counter.total = 0;
    const killPoints: number[] = [];
    for (let kill = 0; kill < 3; kill++) {
      const at = counter.total + 500 + Math.floor(Math.random() * 2500);
      killPoints.push(at);
      await runDigest(cwd, ['send', '--week', '2026-05-11'], {
        onChild: (child) => {
          counter.onMail = () => {
            if (counter.total >= at) child.kill('SIGKILL');
          };
        },
      });
    }
    counter.onMail = undefined;
    const final = await runDigest(cwd, ['send', '--week', '2026-05-11']);
    const uncertain = Number(/uncertain\s+(\d+)/.exec(final.stdout)?.[1] ?? 0);
    const duplicates = [...counter.counts.values()].filter((count) => count > 1).length;
    const missing = READERS - counter.counts.size;

    await choosePreferences(join(cwd, 'data'));
    counter.counts.clear();
    counter.total = 0;
    const personal = await runDigest(cwd, ['send', '--week', PERSONAL_EDITION]);
    if (counter.total !== READERS) throw new Error(`the personal run delivered ${counter.total} mails`);
    const variants = Number(/got (\d+) versions of the edition/.exec(personal.stderr)?.[1] ?? Number.NaN);
    return {
      'wall s (10,000 mails)': round(clean.wallS),
      'personal wall s (10,000 mails, mixed preferences)': round(personal.wallS),
      'personal / identical wall': Math.round((personal.wallS / clean.wallS) * 100) / 100,
      'personal variants rendered': variants,
      'mails/s': Math.round(READERS / clean.wallS),
      'send peak RSS MB': round(clean.peakMb),
      'idle digest peak RSS MB': round(idle.peakMb),
      'send RSS over idle MB': round(clean.peakMb - idle.peakMb),
      'after 3 kills: duplicates': duplicates,
      'after 3 kills: missing': missing,
      'after 3 kills: uncertain rows (not resent)': uncertain,
      'kill points (mails received)': killPoints.join(', '),
    };
  } finally {
    await sink.close();
    await rm(cwd, { recursive: true, force: true });
  }
}

const PERSONAL_EDITION = '2026-05-18';

/**
 * Mixed choices, the same every run: a third choose nothing; the rest 1–3 topics of the ranking's list, some a
 * second language, some leave Advanced out, some only their topics.
 */
async function choosePreferences(dataDir: string): Promise<void> {
  const store = await openStore({ dataDir });
  try {
    let seed = 42;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let index = 0; index < READERS; index++) {
      if (next() < 1 / 3) continue;
      const topics = [...new Set(Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(next())))];
      await store.preferences.set(index + 1, {
        language: next() < 0.3 ? 'de' : null,
        topics,
        levels: next() < 0.2 ? ['Accessible', 'Intermediate'] : [],
        onlyMyTopics: next() < 0.3,
      });
    }
  } finally {
    await store.close();
  }
}

function pick(random: number): string {
  return TOPIC_NAMES[Math.floor(random * TOPIC_NAMES.length)]!;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
