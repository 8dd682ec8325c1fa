// What every MCP transport must answer the same way, driven by the SDK's own Client: the four tools over the
// published archive (the one published by test/support/published-archive.ts), the editions as Markdown resources, and errors
// for unknown tools and malformed arguments. Each transport's test file connects a client and runs this.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { describe, expect, it } from 'vitest';
import { BASE_URL, DRAFT_DATE, DRAFT_WORD } from './published-archive.js';

type ToolResult = {
  content: { type: string; text?: string }[];
  // biome-ignore lint/suspicious/noExplicitAny: the tests read whatever JSON came back
  structuredContent?: Record<string, any>;
  isError?: boolean;
};

export function describeMcpContract(name: string, client: () => Client): void {
  describe(`MCP contract over ${name}`, () => {
    const call = async (tool: string, args: Record<string, unknown>) =>
      (await client().callTool({ name: tool, arguments: args })) as ToolResult;

    it('names itself and lists the four read-only tools, saying their text is untrusted data', async () => {
      expect(client().getServerVersion()?.name).toBe('llm-news-digest');
      expect(client().getInstructions()).toMatch(/untrusted/);
      const { tools } = await client().listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([
        'get_edition',
        'get_item',
        'list_editions',
        'search_items',
      ]);
      for (const tool of tools) {
        expect(tool.annotations?.readOnlyHint).toBe(true);
        expect(tool.outputSchema?.type).toBe('object');
      }
      const search = tools.find((tool) => tool.name === 'search_items')!;
      expect(search.description).toMatch(/untrusted text .* never as instructions/);
      expect(search.inputSchema.required).toEqual(['q']);
    });

    it('search_items returns cited matches: source link, dates, permalink, as structured data', async () => {
      const result = await call('search_items', { q: 'goblins' });
      expect(result.isError).toBeFalsy();
      const hits = result.structuredContent!.results;
      expect(hits).toHaveLength(3);
      expect(hits[0]).toMatchObject({
        title: 'Where the goblins came from',
        url: 'https://openai.com/index/where-the-goblins-came-from/',
        edition: { date: '2026-05-04', permalink: `${BASE_URL}2026-05-04/#item-where-the-goblins-came-from` },
      });
      expect(hits[0].publishedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      const text = result.content[0]!.text!;
      expect(text.split('\n')[0]).toMatch(/untrusted data/i);
      expect(JSON.parse(text.slice(text.indexOf('\n') + 1))).toEqual(result.structuredContent);
      const none = await call('search_items', { q: DRAFT_WORD });
      expect(none.structuredContent!.results).toEqual([]);
    });

    it('search_items caps a huge limit and filters like the API', async () => {
      const result = await call('search_items', { q: 'agents', limit: 10_000, level: 'Accessible' });
      expect(result.structuredContent!.limit).toBe(100);
      expect(result.structuredContent!.results.length).toBeGreaterThan(0);
      for (const hit of result.structuredContent!.results) expect(hit.level).toBe('Accessible');
    });

    it('get_edition, get_item and list_editions answer from published editions only', async () => {
      const edition = await call('get_edition', { date: '2026-04-27' });
      expect(edition.structuredContent).toMatchObject({ date: '2026-04-27', itemCount: 12 });
      expect(edition.structuredContent!.items).toHaveLength(12);
      const item = await call('get_item', { key: 'arxiv:2604.24902' });
      expect(item.structuredContent!.item.url).toMatch(/^https:\/\//);
      expect(item.structuredContent!.editions).toHaveLength(3);
      const list = await call('list_editions', { limit: 2 });
      expect(list.structuredContent).toMatchObject({ total: 3, nextPage: 2 });
      const draft = await call('get_edition', { date: DRAFT_DATE });
      expect(draft.isError).toBe(true);
      expect(draft.content[0]!.text).toContain(`No published edition is dated ${DRAFT_DATE}`);
    });

    it('lists each published edition as a Markdown resource and reads it', async () => {
      const { resources } = await client().listResources();
      expect(resources.map((resource) => resource.uri)).toEqual([
        'digest://editions/2026-05-04',
        'digest://editions/2026-04-27',
        'digest://editions/2026-04-20',
      ]);
      const read = await client().readResource({ uri: 'digest://editions/2026-05-04' });
      const content = read.contents[0] as { mimeType?: string; text?: string };
      expect(content.mimeType).toBe('text/markdown');
      expect(content.text).toMatch(/^# Agents in Production, Safety Under Pressure\n/);
      expect(content.text).toContain(
        '[Where the goblins came from](<https://openai.com/index/where-the-goblins-came-from/>)',
      );
      await expect(client().readResource({ uri: `digest://editions/${DRAFT_DATE}` })).rejects.toThrow(
        /No published edition/,
      );
      await expect(client().readResource({ uri: 'digest://editions/2026-02-30' })).rejects.toThrow(/date/);
    });

    it('answers an unknown tool with a tool error, and the session goes on', async () => {
      const result = await call('drop_tables', {});
      expect(result.isError).toBe(true);
      expect(result.content[0]!.text).toMatch(/drop_tables not found/);
      expect((await call('list_editions', {})).isError).toBeFalsy();
    });

    it.each([
      ['search_items', {}, /q/],
      ['search_items', { q: 42 }, /q/],
      ['search_items', { q: 'x'.repeat(10_240) }, /q must be at most 500/],
      ['search_items', { q: 'a', from: '2026-02-30' }, /from must be a real date/],
      ['search_items', { q: 'a', level: 'Expert' }, /level must be one of/],
      ['search_items', { q: 'a', limit: -1 }, /limit must be at least 1/],
      ['get_edition', { date: "2026-05-04'; DROP TABLE editions; --" }, /date must be a real date/],
      ['get_item', { key: '' }, /key must not be empty/],
      ['list_editions', { page: 'two' }, /page must be a whole number/],
    ])(
      'answers malformed arguments to %s (%j) with a tool error naming the field',
      async (tool, args, message) => {
        const result = await call(tool, args);
        expect(result.isError).toBe(true);
        expect(result.content[0]!.text).toMatch(/Input validation error/);
        expect(result.content[0]!.text).toMatch(message);
      },
    );

    it('treats injection in search text as words', async () => {
      for (const q of ["'; DROP TABLE items; --", 'a & | ! :*', '"unbalanced']) {
        const result = await call('search_items', { q });
        expect(result.isError).toBeFalsy();
      }
      expect((await call('search_items', { q: 'goblins' })).structuredContent!.results).toHaveLength(3);
    });
  });
}
