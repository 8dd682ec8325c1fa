// A published site on disk for the server tests: three weekly editions through the real publishSite().
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { publishSite } from '../../src/publish/publish-site.js';
import { nodeFileSystem } from '../../src/publish/write-site.js';
import { weeklyEditions } from './weekly-editions.js';

export interface TempSite {
  dir: string;
  remove(): Promise<void>;
}

export async function publishTempSite(): Promise<TempSite> {
  const dir = await mkdtemp(join(tmpdir(), 'digest-serve-site-'));
  await publishSite({
    fs: nodeFileSystem,
    outDir: dir,
    editions: weeklyEditions(3),
    baseUrl: 'https://digest.example.org/',
  });
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
