// The baseline for `digest serve`: a plain node:http static server, one file read once and sent as is.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const [file] = process.argv.slice(2);
if (!file) throw new Error('usage: _static-server.ts <file>');
const body = readFileSync(file);
const server = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.byteLength });
  response.end(body);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${(server.address() as AddressInfo).port}/\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
