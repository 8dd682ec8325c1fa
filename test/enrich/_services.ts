// Loopback stand-ins for the enrichment services, answering with recorded real responses where they exist.
import { readFixture } from '../support/fixtures.js';
import { type LoopbackServer, startLoopback } from '../support/loopback.js';

/** The JSON body of a VCR.py cassette's first response (a YAML single-quoted, line-folded scalar). */
export function cassetteBody(yaml: string): string {
  const start = yaml.indexOf("string: '");
  if (start < 0) throw new Error('no response body in cassette');
  let index = start + "string: '".length;
  let raw = '';
  for (; index < yaml.length; index++) {
    const char = yaml[index];
    if (char === "'") {
      if (yaml[index + 1] === "'") {
        raw += "'";
        index++;
        continue;
      }
      break;
    }
    raw += char;
  }
  // YAML folding: a single line break inside the scalar is a space, an empty line is a newline.
  return raw
    .split('\n')
    .map((line) => line.trim())
    .reduce(
      (text, line, position) =>
        position === 0
          ? line
          : line === ''
            ? `${text}\n`
            : `${text.endsWith('\n') ? text : `${text} `}${line}`,
      '',
    );
}

export interface ServiceOptions {
  /** arXiv API answer file under test/fixtures/real/arxiv-api. */
  arxivFile?: string;
  /** Citation counts the batch endpoint answers (synthetic, built by the test); unknown ids answer null. */
  citations?: Record<string, number>;
  /** HTTP status for the batch endpoint instead of an answer. */
  citationStatus?: number;
  /** Extra routes (pages) as path → HTML. */
  pages?: Record<string, string>;
}

export function startServices(options: ServiceOptions): Promise<LoopbackServer> {
  return startLoopback((request, response) => {
    if (request.path === '/api/query' && options.arxivFile) {
      response
        .writeHead(200, { 'content-type': 'application/atom+xml; charset=utf-8' })
        .end(readFixture('real', 'arxiv-api', options.arxivFile));
      return;
    }
    if (request.path === '/graph/v1/paper/batch' && request.method === 'POST') {
      if (options.citationStatus) {
        response
          .writeHead(options.citationStatus, { 'content-type': 'application/json' })
          .end('{"message":"Internal Server Error"}');
        return;
      }
      const ids = (JSON.parse(request.body) as { ids: string[] }).ids;
      const answer = ids.map((id) => {
        const arxivId = id.replace(/^ARXIV:/, '');
        const count = options.citations?.[arxivId];
        return count === undefined
          ? null
          : { paperId: `fake-${arxivId}`, externalIds: { ArXiv: arxivId }, citationCount: count };
      });
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      return;
    }
    const page = options.pages?.[request.path];
    if (page !== undefined) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
      return;
    }
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
}
