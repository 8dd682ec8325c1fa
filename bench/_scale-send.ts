// One `digest send` of the scale store's last edition (personal mails: languages, topics, levels) through the
// counting sink: wall time, the process's peak RSS and its RSS when the 10,000th mail arrived (memory flat after
// the first 10,000: the peak minus that), and the rate the sink saw between its 10th and last mail.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCALE_EDITIONS } from './_scale-store.js';
import { type Counter, type DigestRunOptions, runDigest } from './_smtp-sink.js';

export interface SendSettingsForBench {
  concurrency: number;
  messagesPerSecond: number;
}

/** The folder's digest.config.json: the sink on loopback, the send's settings. */
export async function writeScaleConfig(cwd: string, port: number, send: SendSettingsForBench): Promise<void> {
  await writeFile(
    join(cwd, 'digest.config.json'),
    JSON.stringify({
      languages: ['en', 'de'],
      enrich: { enabled: false },
      publish: {
        baseUrl: 'https://digest.example.org/',
        email: {
          from: 'LLM News Digest <digest@example.org>',
          smtp: { host: '127.0.0.1', port, requireTls: false },
          send: { ...send, unsubscribeMailto: 'unsubscribe@example.org' },
        },
      },
    }),
  );
}

export async function scaleFolder(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'digest-bench-scale-'));
}

export interface TimedSend {
  wallS: number;
  cpuS: number;
  peakMb: number;
  /** RSS when the 10,000th mail arrived (null: fewer mails). */
  rssAt10kMb: number | null;
  /** Highest RSS after that. */
  rssAfter10kMb: number;
  /** Mails per second the sink saw, from its 10th mail to its last. */
  sinkRate: number;
  stdout: string;
  stderr: string;
}

export async function timedSend(
  cwd: string,
  counter: Counter,
  options: DigestRunOptions & { week?: string } = {},
): Promise<TimedSend> {
  const start = counter.total;
  let rssNow = 0;
  let rssAt10kMb: number | null = null;
  let rssAfter10kMb = 0;
  let tenthAt = 0;
  let lastAt = 0;
  const previous = counter.onMail;
  counter.onMail = () => {
    previous?.();
    const sent = counter.total - start;
    lastAt = performance.now();
    if (sent === 10) tenthAt = lastAt;
    if (sent === 10_000) rssAt10kMb = rssNow;
  };
  const run = await runDigest(cwd, ['send', '--week', options.week ?? SCALE_EDITIONS.at(-1)!], {
    ...options,
    onRss: (mb) => {
      rssNow = mb;
      if (rssAt10kMb !== null) rssAfter10kMb = Math.max(rssAfter10kMb, mb);
    },
  });
  counter.onMail = previous;
  const mails = counter.total - start;
  return {
    wallS: run.wallS,
    cpuS: run.cpuS,
    peakMb: run.peakMb,
    rssAt10kMb,
    rssAfter10kMb,
    sinkRate: mails > 10 && lastAt > tenthAt ? (mails - 10) / ((lastAt - tenthAt) / 1000) : 0,
    stdout: run.stdout,
    stderr: run.stderr,
  };
}
