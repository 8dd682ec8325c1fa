#!/usr/bin/env node
import { parseArgs } from 'node:util';
// A mail catcher for trying the service on your own machine, without Docker: an SMTP server on loopback that accepts
// every mail and prints it (from, to, subject and the links in its text, so a confirmation link is one click away).
// Nothing is relayed: mail sent here never leaves the machine. Point the config at it (`digest init --smtp
// 127.0.0.1:1025`, or publish.email.smtp = { host: "127.0.0.1", port: 1025, requireTls: false }).
//
//   npm run catch-mail                          SMTP on 127.0.0.1:1025 until Ctrl-C
//   node scripts/catch-mail.mjs --port 0        any free port; the first line says which
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

const { values: args } = parseArgs({ options: { port: { type: 'string', default: '1025' } } });
const port = Number(args.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  process.stderr.write(`--port: "${args.port}" is not a port (0-65535)\n`);
  process.exit(2);
}

/** The http(s) links of a text, each once, in order: a plain scan, no regex over the whole mail. */
function linksOf(text) {
  const links = [];
  for (const word of text.split(/\s+/)) {
    const start = word.search(/https?:\/\//);
    if (start < 0) continue;
    const link = word.slice(start).replace(/[)>\].,;]+$/, '');
    if (!links.includes(link)) links.push(link);
  }
  return links;
}

let received = 0;

async function show(raw, envelope) {
  const mail = await simpleParser(raw);
  received += 1;
  const lines = [
    `── mail ${received}`,
    `from:    ${mail.from?.text ?? envelope.mailFrom?.address ?? ''}`,
    `to:      ${envelope.rcptTo.map((rcpt) => rcpt.address).join(', ')}`,
    `subject: ${mail.subject ?? ''}`,
    ...linksOf(mail.text ?? '').map((link) => `link:    ${link}`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  // Any login is accepted: the catcher stands in for a real server, so a config with a user works unchanged.
  onAuth: (_auth, _session, callback) => callback(null, { user: 'catcher' }),
  allowInsecureAuth: true,
  logger: false,
  onData(stream, session, callback) {
    const chunks = [];
    stream.on('data', (chunk) => chunks.push(chunk));
    stream.on('end', () => {
      show(Buffer.concat(chunks), session.envelope).then(
        () => callback(),
        (error) => callback(error),
      );
    });
  },
});
server.on('error', (error) => {
  process.stderr.write(`catch-mail: ${error.message}\n`);
  process.exit(1);
});
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(
    `catch-mail: listening smtp://127.0.0.1:${server.server.address().port} (Ctrl-C stops)\n`,
  );
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));
