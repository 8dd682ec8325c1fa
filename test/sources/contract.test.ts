// Every source kind passes the same contract, fed by recorded real responses over loopback HTTP.
import { editionWindow } from '../../src/core/dates.js';
import { createSource } from '../../src/sources/index.js';
import { startFixtureFolderServer, startHfApiServer, startSeedWeekServer } from './_servers.js';
import { describeSource } from './contract.js';

describeSource('hf-daily-papers (recorded API answers)', async () => {
  const server = await startHfApiServer();
  return {
    source: createSource({
      id: 'api-hf',
      type: 'hf-daily-papers',
      url: server.url('/api/daily_papers'),
      weight: 1,
      enabled: true,
    }),
    window: editionWindow('2026-06-14'),
    minItems: 30,
    close: server.close,
  };
});

describeSource('hf-daily-papers-rss (seed week, per-day captures)', async () => {
  const server = await startSeedWeekServer();
  return {
    source: createSource({
      id: 'hf-rss',
      type: 'hf-daily-papers-rss',
      url: server.url('/hf-daily/{date}.xml'),
      weight: 1,
      enabled: true,
    }),
    window: editionWindow('2026-05-04'),
    minItems: 100,
    close: server.close,
  };
});

describeSource('feed (Atom: simonwillison.net)', async () => {
  const server = await startFixtureFolderServer('simonwillison');
  return {
    source: createSource({
      id: 'rss-willison',
      type: 'feed',
      url: server.url('/atom_everything_2026-08-22.xml'),
      weight: 1,
      enabled: true,
    }),
    window: editionWindow('2026-08-22'),
    minItems: 5,
    close: server.close,
  };
});

describeSource('feed (RSS 2.0 with content:encoded: Substack)', async () => {
  const server = await startFixtureFolderServer('substack');
  return {
    source: createSource({
      id: 'rss-substack',
      type: 'feed',
      url: server.url('/interconnects.ai_feed_2026-08-02.xml'),
      weight: 1,
      enabled: true,
    }),
    window: { start: '2026-06-01', end: '2026-08-02' },
    minItems: 5,
    close: server.close,
  };
});

describeSource('feed (RSS 1.0/RDF: bio.rdf)', async () => {
  const server = await startFixtureFolderServer('malformed/netnewswire');
  return {
    source: createSource({ id: 'rdf', type: 'feed', url: server.url('/bio.rdf'), weight: 1, enabled: true }),
    window: { start: '2019-08-01', end: '2019-09-30' },
    minItems: 10,
    close: server.close,
  };
});

describeSource('manual (fetches nothing)', async () => ({
  source: createSource({ id: 'manual', type: 'manual', weight: 1, enabled: true }),
  window: editionWindow('2026-05-04'),
  minItems: 0,
}));
