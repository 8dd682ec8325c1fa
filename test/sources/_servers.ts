// Loopback servers that answer like the real services, from recorded real responses.
import { existsSync, readdirSync } from 'node:fs';
import { addDays } from '../../src/core/dates.js';
import { fixturePath, readFixture } from '../support/fixtures.js';
import { type LoopbackServer, startLoopback } from '../support/loopback.js';

/** huangboming's mirror: the capture named for day X holds list X−1, so list day D is served from capture D+1. */
export function startSeedWeekServer(): Promise<LoopbackServer> {
  return startLoopback((request, response) => {
    const day = /^\/hf-daily\/(\d{4}-\d{2}-\d{2})\.xml$/.exec(request.path)?.[1];
    const file = day && `hf-daily-rss-huangboming_${addDays(day, 1)}.xml`;
    if (!file || !existsSync(fixturePath('real', 'seed-week-2026-05-04', file))) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('no capture');
      return;
    }
    response
      .writeHead(200, { 'content-type': 'application/rss+xml' })
      .end(readFixture('real', 'seed-week-2026-05-04', file));
  });
}

/** /api/daily_papers?date=D answers the recorded list of day D, and [] for days with no recording. */
export function startHfApiServer(): Promise<LoopbackServer> {
  const byDay = new Map<string, string>();
  for (const file of readdirSync(fixturePath('real', 'hf-daily-papers'))) {
    const day = /(\d{4}-\d{2}-\d{2})\.json$/.exec(file)?.[1];
    if (day) byDay.set(day, file);
  }
  return startLoopback((request, response) => {
    if (request.path !== '/api/daily_papers') {
      response.writeHead(404).end();
      return;
    }
    const file = byDay.get(request.query.get('date') ?? '');
    const body = file ? readFixture('real', 'hf-daily-papers', file) : '[]';
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(body);
  });
}

/** Serves every file under test/fixtures/real/<folder> at /<file name>. */
export function startFixtureFolderServer(folder: string, type = 'application/xml'): Promise<LoopbackServer> {
  return startLoopback((request, response) => {
    const name = decodeURIComponent(request.path.slice(1));
    const path = fixturePath('real', folder, name);
    if (name.includes('..') || !existsSync(path)) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': type }).end(readFixture('real', folder, name));
  });
}
