// The floor under the /r/ figure: a bare node:http server answering every request with a 302 and nothing else, for
// the same open-loop load on the same machine at the same time. What it measures is the machine (its load, the
// generator, the loopback), not the service: the service's figure can be no better.
import { createServer } from 'node:http';

const server = createServer((_request, response) => {
  response.writeHead(302, { location: 'https://example.com/', 'content-length': 0 });
  response.end();
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${server.address().port}/\n`));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
