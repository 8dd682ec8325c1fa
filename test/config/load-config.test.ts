import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, parseConfig } from '../../src/config/index.js';
import { ConfigError } from '../../src/core/errors.js';

const CONFIG_MODULE = new URL('../../src/config/index.ts', import.meta.url).href;

describe('loadConfig', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('defaults reproduce the reference newsletter', async () => {
    dir = mkdtempSync(join(tmpdir(), 'digest-config-'));
    const { config, file } = await loadConfig({ cwd: dir });
    expect(file).toBeNull();
    expect(config.name).toBe('LLM News Digest');
    expect(config.audience).toBe('engineers building production AI systems');
    expect(config.itemsPerEdition).toBe(12);
    expect(config.sources.map((source) => [source.id, source.type])).toEqual([
      ['api-hf', 'hf-daily-papers'],
      ['rss-openai', 'feed'],
      ['rss-latentspace', 'feed'],
      ['rss-willison', 'feed'],
    ]);
  });

  it('reads digest.config.ts written with defineConfig', async () => {
    dir = mkdtempSync(join(tmpdir(), 'digest-config-'));
    writeFileSync(
      join(dir, 'digest.config.ts'),
      `import { defineConfig } from ${JSON.stringify(CONFIG_MODULE)};
export default defineConfig({ name: 'Weekly Agents', sources: [{ id: 'rss-willison', type: 'feed', url: 'https://simonwillison.net/atom/everything/', weight: 1.5 }] });`,
    );
    const { config, file } = await loadConfig({ cwd: dir });
    expect(file).toBe(join(dir, 'digest.config.ts'));
    expect(config.name).toBe('Weekly Agents');
    expect(config.sources[0]).toMatchObject({ id: 'rss-willison', weight: 1.5, enabled: true });
  });

  it('names every invalid field, unknown ones included', () => {
    dir = mkdtempSync(join(tmpdir(), 'digest-config-'));
    const attempt = () =>
      parseConfig({
        itemsPerEdition: 0,
        sources: [
          { id: 'a', type: 'feed' },
          { id: 'a', type: 'rss', url: 'https://example.com' },
        ],
        colour: 'blue',
      });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const paths = (error as ConfigError).issues.map((issue) => issue.path);
      expect(paths).toEqual(expect.arrayContaining(['itemsPerEdition', 'sources[0].url', 'sources[1].type']));
      expect((error as ConfigError).message).toMatch(/unknown field\(s\) "colour"/);
    }
    const duplicate = { id: 'rss-a', type: 'feed', url: 'https://example.com/feed' };
    expect(() => parseConfig({ sources: [duplicate, duplicate] })).toThrow(
      /sources\[1\]\.id: duplicate source id "rss-a"/,
    );
  });

  it('names unknown fields inside sections and source entries (a typo is never silently ignored)', () => {
    const attempt = () =>
      parseConfig({
        sources: [{ id: 'rss-a', type: 'feed', url: 'https://example.com/feed', wieght: 2 }],
        http: { timeout: 5000 },
        enrich: { enable: false },
        llm: { model: 'openai:gpt-4.1-mini', prices: { 'openai:x': { input: 1, output: 2, cached: 0 } } },
        selection: { topic: ['agents'] },
      });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const issues = (error as ConfigError).issues;
      expect(issues).toEqual(
        expect.arrayContaining([
          { path: 'sources[0]', message: 'unknown field(s) "wieght"' },
          { path: 'http', message: 'unknown field(s) "timeout"' },
          { path: 'enrich', message: 'unknown field(s) "enable"' },
          { path: 'llm', message: 'unknown field(s) "model"' },
          { path: 'llm.prices.openai:x', message: 'unknown field(s) "cached"' },
          { path: 'selection', message: 'unknown field(s) "topic"' },
        ]),
      );
    }
  });

  it('takes an embeddings model for taste, and names llm.embed for a provider without embeddings', () => {
    expect(parseConfig({ llm: { embed: 'openai:text-embedding-3-small' } }).llm.embed).toBe(
      'openai:text-embedding-3-small',
    );
    expect(parseConfig({}).llm.embed).toBeUndefined();
    const issuesOf = (llm: unknown) => {
      try {
        parseConfig({ llm });
      } catch (error) {
        return (error as ConfigError).issues;
      }
      return [];
    };
    expect(issuesOf({ embed: 'anthropic:claude-haiku-4-5' })).toEqual([
      { path: 'llm.embed', message: expect.stringMatching(/Anthropic has no embeddings model/) },
    ]);
    expect(issuesOf({ embed: 'openai-compatible:bge-m3' })).toEqual([
      { path: 'llm.embed', message: expect.stringMatching(/llm.openaiCompatible.baseURL/) },
    ]);
  });

  it('takes DIGEST_CONFIG_JSON over the file: objects merge, arrays replace, errors name it', async () => {
    dir = mkdtempSync(join(tmpdir(), 'digest-config-'));
    writeFileSync(
      join(dir, 'digest.config.json'),
      JSON.stringify({ name: 'Weekly Agents', publish: { baseUrl: 'https://agents.example.org/' } }),
    );
    const env = {
      DIGEST_CONFIG_JSON: JSON.stringify({
        sources: [{ id: 'rss-a', type: 'feed', url: 'http://127.0.0.1:9/feed.xml' }],
        publish: { feedLimit: 5 },
      }),
    };
    const { config } = await loadConfig({ cwd: dir, env });
    expect(config.name).toBe('Weekly Agents');
    expect(config.publish).toMatchObject({ baseUrl: 'https://agents.example.org/', feedLimit: 5 });
    expect(config.sources.map((source) => source.id)).toEqual(['rss-a']);
    await expect(
      loadConfig({ cwd: dir, env: { DIGEST_CONFIG_JSON: '{"itemsPerEdition": 0}' } }),
    ).rejects.toThrow(/with DIGEST_CONFIG_JSON over it:\n {2}- itemsPerEdition/);
    await expect(loadConfig({ cwd: dir, env: { DIGEST_CONFIG_JSON: '{' } })).rejects.toThrow(
      /DIGEST_CONFIG_JSON is not valid JSON/,
    );
  });

  it('says which file is missing or not JSON', async () => {
    dir = mkdtempSync(join(tmpdir(), 'digest-config-'));
    await expect(loadConfig({ cwd: dir, file: 'nope.json' })).rejects.toThrow(/not found/);
    writeFileSync(join(dir, 'digest.config.json'), '{ "name": ');
    await expect(loadConfig({ cwd: dir })).rejects.toThrow(/not valid JSON/);
  });
});
