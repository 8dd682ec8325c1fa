// digest.config.ts as docs/configuration.md shows it, loaded by plain Node 20 (no TypeScript loader): the compiled dist/ is what
// bin/digest.js runs, so that is what this test imports, in a child process without vitest's transform.
import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

/** Loads the config in `cwd` with dist/'s loadConfig in a plain `node` process; prints the result as JSON. */
async function loadInNode(cwd: string): Promise<{ name?: string; sources?: unknown[]; error?: string }> {
  const loader = new URL('../../dist/config/load-config.js', import.meta.url).href;
  const script = `import(${JSON.stringify(loader)}).then((m) => m.loadConfig({ cwd: process.cwd() }))
    .then(({ config }) => console.log(JSON.stringify({ name: config.name, sources: config.sources, llm: config.llm })),
          (error) => console.log(JSON.stringify({ error: error.name + ': ' + error.message })));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd });
  return JSON.parse(stdout) as { name?: string; sources?: unknown[]; error?: string };
}

describe('digest.config.ts on plain Node', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('loads the documented example in a clone (its ./src import included) and leaves no compiled file behind', async () => {
    expect(existsSync(join(ROOT, 'dist', 'config', 'load-config.js')), 'run npm run build').toBe(true);
    dir = mkdtempSync(join(tmpdir(), 'digest-ts-config-'));
    // The README's config sits at the root of a clone, beside src/.
    symlinkSync(join(ROOT, 'src'), join(dir, 'src'));
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    // The configuration page's example, exactly as it is printed there.
    const page = readFileSync(join(ROOT, 'docs', 'configuration.md'), 'utf8');
    const example = /```ts\n(\/\/ digest\.config\.ts\n[\s\S]*?)```/.exec(page)?.[1];
    expect(example, 'docs/configuration.md shows a digest.config.ts').toBeDefined();
    writeFileSync(join(dir, 'digest.config.ts'), example!);
    const loaded = await loadInNode(dir);
    expect(loaded.error).toBeUndefined();
    expect(loaded.sources).toEqual([expect.objectContaining({ id: 'rss-willison', weight: 1.2 })]);
    expect(loaded).toMatchObject({ llm: { write: 'openai:gpt-4.1-mini', check: 'openai:gpt-4.1-nano' } });
    expect(readdirSync(dir).sort()).toEqual(['digest.config.ts', 'node_modules', 'src']);
  });

  it('reports a config that does not compile as a config error naming the file', async () => {
    dir = mkdtempSync(join(tmpdir(), 'digest-ts-config-'));
    writeFileSync(join(dir, 'digest.config.ts'), 'export default { name: "x", ;\n');
    const loaded = await loadInNode(dir);
    expect(loaded.error).toMatch(/^ConfigError: Could not load .*digest\.config\.ts/);
  });
});
