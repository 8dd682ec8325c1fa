// `digest doctor` reads configuration as every other command does (the one loader: the file, then DIGEST_CONFIG_JSON
// over it; two config files named), and what `digest init --yes` writes passes it once the SMTP catcher answers.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoopbackSmtp, startSmtp } from '../server/_smtp.js';
import { runDigest } from '../support/cli.js';
import { readFixture } from '../support/fixtures.js';
import { type LoopbackServer, startLoopback } from '../support/loopback.js';

describe('digest doctor after digest init --yes', () => {
  let cwd: string;
  let smtp: LoopbackSmtp;
  let feeds: LoopbackServer;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    cwd = mkdtempSync(join(tmpdir(), 'digest-doctor-init-'));
    smtp = await startSmtp();
    const feed = readFixture('real', 'simonwillison', 'atom_everything_2026-06-25.xml');
    feeds = await startLoopback((_, response) => {
      response.writeHead(200, { 'content-type': 'application/atom+xml' }).end(feed);
    });
    // The network: the sources on a loopback server, as CI runs the README — through the documented variable.
    env = {
      DIGEST_CONFIG_JSON: JSON.stringify({
        http: { allowLoopback: true },
        sources: [{ id: 'rss-willison', type: 'feed', url: feeds.url('/feed.xml') }],
      }),
    };
    const init = await runDigest(['init', '--yes', '--smtp', `127.0.0.1:${smtp.port}`], { cwd, env });
    expect(init.code, init.stdout + init.stderr).toBe(0);
  });
  afterAll(async () => {
    await Promise.all([smtp.close(), feeds.close()]);
    rmSync(cwd, { recursive: true, force: true });
  });

  it('passes with a local SMTP catcher: exit 0, the sender accepted for it', async () => {
    const run = await runDigest(['doctor'], { cwd, env });
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toMatch(
      /✓ smtp from: LLM News Digest <digest@digest.localhost> \(fine for a mail catcher/,
    );
    expect(run.stdout).toMatch(/All is well\./);
  });

  it('reads DIGEST_CONFIG_JSON over the file, as build does, and says so', async () => {
    const run = await runDigest(['doctor', '--json'], {
      cwd,
      env: {
        DIGEST_CONFIG_JSON: JSON.stringify({ llm: { write: 'openai:gpt-4.1-mini' } }),
        OPENAI_API_KEY: '',
      },
    });
    const report = JSON.parse(run.stdout) as { checks: { area: string; detail: string; status: string }[] };
    expect(report.checks[0]!.detail).toMatch(/digest\.config\.json with DIGEST_CONFIG_JSON over it is valid/);
    // The model comes from the variable: its missing key is what doctor names (without it, "llm.write is not set").
    expect(JSON.stringify(report.checks)).toMatch(/OPENAI_API_KEY/);
    expect(run.code).toBe(2);
  });

  it('with a second config file beside the .json, doctor and every other command name the one used', async () => {
    writeFileSync(join(cwd, 'digest.config.js'), 'export default { name: "From JS" };\n');
    try {
      const doctor = await runDigest(['doctor'], { cwd, env });
      expect(doctor.stdout).toMatch(
        /! config: .*digest\.config\.js with DIGEST_CONFIG_JSON over it is valid; Config: digest\.config\.js \(digest\.config\.json in the same folder is ignored/,
      );
      const list = await runDigest(['list', '--week', '2026-05-04'], { cwd, env });
      expect(list.stderr).toMatch(
        /Config: digest\.config\.js \(digest\.config\.json in the same folder is ignored/,
      );
    } finally {
      rmSync(join(cwd, 'digest.config.js'));
    }
  });

  it('a reserved sender with a real (non-local) SMTP server fails, naming the field', async () => {
    const run = await runDigest(['doctor', '--json'], {
      cwd,
      env: {
        DIGEST_CONFIG_JSON: JSON.stringify({
          publish: {
            email: { from: 'Digest <news@example.com>', smtp: { host: 'mail.invalid', port: 587 } },
          },
        }),
      },
    });
    expect(run.stdout).toMatch(
      /publish\.email\.from is \\"Digest <news@example\.com>\\": mail needs a sender on your own domain/,
    );
  });
});
