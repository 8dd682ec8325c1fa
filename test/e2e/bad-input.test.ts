// Bad input end to end: broken feeds are reported and the others still make the edition; bad config names the field.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Edition } from '../../src/core/types.js';
import { runDigest } from '../support/cli.js';
import { fixturePath, readFixture } from '../support/fixtures.js';
import { type LoopbackServer, startLoopback } from '../support/loopback.js';

const MALFORMED = fixturePath('real', 'malformed');
const malformedFiles = readdirSync(MALFORMED, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile())
  .map((entry) => relative(MALFORMED, join(entry.parentPath, entry.name)));

// simonwillison.net's feed captured 2026-06-25: its entries fall in the week ending Monday 2026-06-22.
const WEEK = '2026-06-22';

describe('a build with every malformed feed beside one good feed', () => {
  let server: LoopbackServer;
  let cwd: string;

  beforeAll(async () => {
    server = await startLoopback((request, response) => {
      if (request.path === '/good.xml') {
        response
          .writeHead(200, { 'content-type': 'application/atom+xml' })
          .end(readFixture('real', 'simonwillison', 'atom_everything_2026-06-25.xml'));
        return;
      }
      if (request.path === '/xss.xml') {
        response.writeHead(200, { 'content-type': 'application/rss+xml' }).end(XSS_FEED);
        return;
      }
      const file = decodeURIComponent(request.path.replace(/^\/malformed\//, ''));
      if (!malformedFiles.includes(file)) return void response.writeHead(404).end();
      response.writeHead(200, { 'content-type': 'application/xml' }).end(readFileSync(join(MALFORMED, file)));
    });
    cwd = mkdtempSync(join(tmpdir(), 'digest-bad-'));
  });
  afterAll(async () => {
    await server.close();
    rmSync(cwd, { recursive: true, force: true });
  });

  it('parses or reports each broken source, never crashes, and still builds the edition', async () => {
    const sources = [
      { id: 'rss-good', type: 'feed', url: server.url('/good.xml') },
      ...malformedFiles.map((file, index) => ({
        id: `bad-${index}`,
        type: 'feed',
        url: server.url(`/malformed/${encodeURIComponent(file)}`),
      })),
    ];
    writeFileSync(join(cwd, 'digest.config.json'), JSON.stringify({ sources, http: { retries: 0 } }));
    const run = await runDigest(['build', '--week', WEEK, '--no-enrich'], { cwd });
    expect(run.code, run.stderr).toBe(0);
    const edition = JSON.parse(readFileSync(join(cwd, 'drafts', WEEK, 'edition.json'), 'utf8')) as Edition;
    expect(edition.sources).toHaveLength(sources.length);
    expect(edition.sources.find((source) => source.id === 'rss-good')).toMatchObject({ status: 'ok' });
    expect(edition.items.length).toBeGreaterThan(0);
    for (const report of edition.sources.filter((source) => source.status === 'error')) {
      expect(report.error, report.id).toMatch(/\w{4,}/);
    }
    expect(run.stderr).toMatch(/warning\(s\):/);
  }, 120_000);

  it('exits non-zero with a clear message when no source works', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'digest-none-'));
    try {
      const sources = [
        {
          id: 'bad-empty',
          type: 'feed',
          url: server.url('/malformed/feedparser%2Fillformed_rss_empty_document.xml'),
        },
        { id: 'bad-missing', type: 'feed', url: server.url('/nothing-here.xml') },
      ];
      writeFileSync(join(dir, 'digest.config.json'), JSON.stringify({ sources, http: { retries: 0 } }));
      const run = await runDigest(['build', '--week', WEEK, '--no-enrich'], { cwd: dir });
      expect(run.code).not.toBe(0);
      expect(run.stderr).toMatch(/Every source failed/);
      expect(run.stderr).toContain('bad-missing');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('escapes script, event handlers and javascript: links from a feed on the page', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'digest-xss-'));
    try {
      writeFileSync(
        join(dir, 'digest.config.json'),
        JSON.stringify({ sources: [{ id: 'rss-xss', type: 'feed', url: server.url('/xss.xml') }] }),
      );
      const run = await runDigest(['build', '--week', WEEK, '--no-enrich'], { cwd: dir });
      // Built, and thin (one feed, few items): it needs a look before anything goes out.
      expect(run.code, run.stderr).toBe(3);
      expect(run.stderr).toContain('The edition is thin');
      const html = readFileSync(join(dir, 'drafts', WEEK, 'index.html'), 'utf8');
      expect(html).not.toMatch(/<script/i);
      expect(html).not.toMatch(/<img[^>]+onerror/i);
      expect(html).not.toMatch(/href="javascript:/i);
      expect(html).not.toMatch(/<img src=x/i);
      expect(html).toContain('Safe title');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('config errors', () => {
  it('names the invalid field and exits 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'digest-config-'));
    try {
      writeFileSync(
        join(dir, 'digest.config.json'),
        JSON.stringify({
          itemsPerEdition: 'twelve',
          sources: [{ id: 'rss-x', type: 'feed', url: 'ftp://example.com/feed' }],
        }),
      );
      const run = await runDigest(['build', '--offline'], { cwd: dir });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('itemsPerEdition');
      expect(run.stderr).toContain('sources[0].url');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('accepts the documented JSON config', async () => {
    const { parseConfig } = await import('../../src/config/index.js');
    const config = parseConfig(
      JSON.parse(
        readFileSync(fixturePath('..', '..', 'docs', 'configuration.md'), 'utf8').match(
          /```json\n([\s\S]*?)```/,
        )![1]!,
      ),
    );
    expect(config.sources.map((source) => source.id)).toEqual([
      'api-hf',
      'rss-openai',
      'rss-latentspace',
      'rss-willison',
    ]);
    expect(config.itemsPerEdition).toBe(12);
    expect(config.audience).toBe('engineers building production AI systems');
  });

  it('explains itself with --help', async () => {
    const run = await runDigest(['--help'], { cwd: tmpdir() });
    expect(run.code).toBe(0);
    for (const command of ['demo', 'build', 'list', 'add', 'pin', 'skip'])
      expect(run.stdout).toContain(command);
  });
});

const XSS_FEED = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>x</title><link>https://example.com/</link><description>x</description>
<item><title>&lt;script&gt;alert(1)&lt;/script&gt; Agents in production</title>
<link>javascript:alert(2)</link><guid>xss-1</guid><pubDate>Sat, 20 Jun 2026 10:00:00 GMT</pubDate>
<description>&lt;img src=x onerror=alert(3)&gt; We evaluate agents in production. &lt;a href="javascript:alert(4)"&gt;click&lt;/a&gt; The results show reliability matters.</description></item>
<item><title>Safe title &lt;img src=x onerror=alert(5)&gt;</title>
<link>https://example.com/post-2</link><guid>xss-2</guid><pubDate>Sat, 20 Jun 2026 10:00:00 GMT</pubDate>
<description>&lt;script&gt;alert(6)&lt;/script&gt;Agents need evaluation. We measure tool use. Deployment is hard.</description></item>
</channel></rss>`;
