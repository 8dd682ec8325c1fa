// Serves a site built in memory over loopback HTTP, as a static host would (index.html for folders, 404.html).
import { extname } from 'node:path';
import { type LoopbackServer, startLoopback } from '../support/loopback.js';
import type { MemoryFileSystem } from '../support/memory-fs.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json',
  '.js': 'text/javascript; charset=utf-8',
  '.xml': 'application/xml',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
};

export function serveSite(fs: MemoryFileSystem, root: string): Promise<LoopbackServer> {
  return startLoopback((request, response) => {
    const path = decodeURIComponent(request.path);
    const file = `${root}${path.endsWith('/') ? `${path}index.html` : path}`;
    const data = fs.files.get(file);
    if (!data) {
      response.writeHead(404, { 'content-type': TYPES['.html']! });
      response.end(fs.files.get(`${root}/404.html`) ?? 'not found');
      return;
    }
    response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    response.end(data);
  });
}
