// Exactly once at a list's size: one send with three SIGKILLs at random points and a rerun (PGlite), then two
// `digest send` processes sharing one send on PostgreSQL; each reader's mails counted at the sink.
import { postgresBinDir, startPostgresCluster } from '../test/support/postgres.js';
import { prepareScalePostgres, SCALE_EDITIONS } from './_scale-store.js';
import { type Counter, runDigest } from './_smtp-sink.js';

function tally(counter: Counter, readers: number) {
  const duplicates = [...counter.counts.values()].filter((count) => count > 1).length;
  return { duplicates, missing: readers - counter.counts.size };
}

/** Three kills of `digest send` while it sends the second edition, then a rerun to the end. */
export async function killedSends(cwd: string, counter: Counter, readers: number) {
  counter.counts.clear();
  counter.total = 0;
  const week = SCALE_EDITIONS[1]!;
  for (let kill = 0; kill < 3; kill++) {
    const at = counter.total + Math.floor(((kill + Math.random()) * readers) / 4);
    await runDigest(cwd, ['send', '--week', week], {
      onChild: (child) => {
        counter.onMail = () => {
          if (counter.total >= at) child.kill('SIGKILL');
        };
      },
    });
  }
  counter.onMail = undefined;
  const final = await runDigest(cwd, ['send', '--week', week]);
  const uncertain = Number(/uncertain\s+(\d+)/.exec(final.stdout)?.[1] ?? 0);
  const { duplicates, missing } = tally(counter, readers);
  return {
    'after 3 kills: duplicates': duplicates,
    // An uncertain mail was handed over before the kill and the sink counted it: delivered, not resent.
    'after 3 kills: missing': missing,
    'after 3 kills: uncertain rows (not resent)': uncertain,
  };
}

/** Two senders at once on one PostgreSQL database holding `readers` readers (a row saying so without a server). */
export async function twoSendersOnPostgres(cwd: string, counter: Counter, readers: number) {
  const binDir = postgresBinDir();
  if (!binDir) return { 'PostgreSQL two senders: skipped (no server installed)': 1 };
  const cluster = await startPostgresCluster(binDir);
  try {
    const env = { DATABASE_URL: cluster.url };
    await prepareScalePostgres(cluster.url, readers);
    counter.counts.clear();
    counter.total = 0;
    const started = performance.now();
    const week = SCALE_EDITIONS[0]!;
    await Promise.all([0, 1].map(() => runDigest(cwd, ['send', '--week', week], { env })));
    const wallS = (performance.now() - started) / 1000;
    const { duplicates, missing } = tally(counter, readers);
    return {
      'PostgreSQL two senders: duplicates': duplicates,
      'PostgreSQL two senders: missing': missing,
      'PostgreSQL two senders: wall s': Math.round(wallS * 10) / 10,
    };
  } finally {
    await cluster.stop();
  }
}
