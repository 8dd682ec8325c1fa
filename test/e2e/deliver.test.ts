// `digest publish` (posting to chat), `digest chat` and `digest push` end to end: the real CLI in-process on a PGlite
// store in a temp folder, with Slack, Discord, Telegram, listmonk and Buttondown on loopback. Every captured line of
// output is checked for the webhook URLs and tokens.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { type Platforms, secretValues, startPlatforms } from '../support/chat-platforms.js';
import { type CliRun, runDigest } from '../support/cli.js';
import { seedPgliteDataDir } from '../support/database.js';
import { WEEK } from '../support/delivery-editions.js';
import { referenceEdition } from '../support/reference-edition.js';

describe('digest chat / digest push', () => {
  let cwd: string;
  let platforms: Platforms;
  const outputs: CliRun[] = [];

  async function digest(args: string[], env: NodeJS.ProcessEnv = platforms.env): Promise<CliRun> {
    const result = await runDigest([...args, '--verbose'], { cwd, env });
    outputs.push(result);
    return result;
  }

  beforeAll(async () => {
    platforms = await startPlatforms();
    cwd = await mkdtemp(join(tmpdir(), 'digest-deliver-'));
    await seedPgliteDataDir(join(cwd, 'data'));
    const store = await openStore({ dataDir: join(cwd, 'data') });
    try {
      await store.editions.save(referenceEdition());
    } finally {
      await store.close();
    }
    await writeFile(
      join(cwd, 'digest.config.json'),
      JSON.stringify({
        http: { retries: 0 },
        publish: { baseUrl: 'https://digest.example.com/' },
        chat: [
          { id: 'team-slack', type: 'slack', urlEnv: 'TEST_SLACK_WEBHOOK_URL' },
          { id: 'community', type: 'discord', urlEnv: 'TEST_DISCORD_WEBHOOK_URL' },
          {
            id: 'tg',
            type: 'telegram',
            tokenEnv: 'TEST_TELEGRAM_BOT_TOKEN',
            chatId: '-1001234567890',
            apiUrl: platforms.server.origin,
          },
        ],
        push: {
          listmonk: {
            url: platforms.server.origin,
            userEnv: 'TEST_LISTMONK_USER',
            tokenEnv: 'TEST_LISTMONK_TOKEN',
            listIds: [3],
          },
          buttondown: { url: platforms.server.origin, tokenEnv: 'TEST_BUTTONDOWN_KEY' },
        },
      }),
    );
  });

  afterAll(async () => {
    // Whatever happened, no secret reached stdout or stderr of any run.
    const everything = outputs.map((run) => `${run.stdout}\n${run.stderr}`).join('\n');
    for (const secret of secretValues(platforms)) expect(everything).not.toContain(secret);
    await platforms.close();
    await rm(cwd, { recursive: true, force: true });
  });

  it('refuses to post an edition that is not published yet (exit 1: publish it first)', async () => {
    const run = await digest(['chat', '--week', WEEK]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`The edition of ${WEEK} is not published yet`);
    expect(platforms.hits).toMatchObject({ slack: 0, discord: 0, telegram: 0 });
  });

  it('publish posts the edition to every channel; a failed channel exits 3 and does not undo the publish', async () => {
    platforms.script('slack', [{ status: 503 }]);
    const run = await digest(['publish', '--week', WEEK, '--out', 'out']);
    expect(run.code, run.stderr).toBe(3);
    expect(run.stdout).toContain(join(cwd, 'out', WEEK, 'index.html'));
    expect(run.stderr).toContain('Published "Agents in Production, Safety Under Pressure"');
    expect(run.stderr).toMatch(/✗ slack "team-slack": failed — HTTP 503 from slack channel "team-slack"/);
    expect(run.stderr).toContain(`Run "./digest chat --week ${WEEK}" to retry only those`);
    expect(platforms.posts.discord.length).toBeGreaterThan(0);
    expect(platforms.posts.telegram.length).toBeGreaterThan(0);
    expect(platforms.posts.slack).toHaveLength(0);
    expect(platforms.violations).toEqual([]);
  });

  it('digest chat retries only the failed channel, then has nothing left to do', async () => {
    const discord = platforms.hits.discord;
    const telegram = platforms.hits.telegram;
    const retry = await digest(['chat', '--week', WEEK]);
    expect(retry.code, retry.stderr).toBe(0);
    expect(retry.stdout).toBe('team-slack\tposted\t1/1\ncommunity\talready\t0/2\ntg\talready\t0/2\n');
    expect(platforms.posts.slack).toHaveLength(1);
    expect(platforms.hits).toMatchObject({ discord, telegram });

    const again = await digest(['publish', '--week', WEEK, '--out', 'out']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('already posted on an earlier run');
    expect(platforms.posts.slack).toHaveLength(1);
  });

  it('digest chat --channel --again posts to one channel again on purpose', async () => {
    const run = await digest(['chat', '--week', WEEK, '--channel', 'team-slack', '--again']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('team-slack\tposted\t1/1\n');
    expect(platforms.posts.slack).toHaveLength(2);
    const unknown = await digest(['chat', '--week', WEEK, '--channel', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      '--channel "nope" is not in the config\'s chat list (team-slack, community, tg)',
    );
  });

  it('digest push --to listmonk creates a draft, then updates the same one', async () => {
    const first = await digest(['push', '--to', 'listmonk', '--week', WEEK]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toBe('listmonk\tcreated\t42\n');
    const second = await digest(['push', '--to', 'listmonk', '--week', WEEK]);
    expect(second.stdout).toBe('listmonk\tupdated\t42\n');
    expect(platforms.campaigns.size).toBe(1);
    const buttondown = await digest(['push', '--to', 'buttondown', '--week', WEEK]);
    expect(buttondown.code, buttondown.stderr).toBe(0);
    expect(buttondown.stdout).toMatch(/^buttondown\tcreated\t[0-9a-f-]+\n$/);
    expect(platforms.violations).toEqual([]);
  });

  it('digest push names what is wrong: an unknown service, a missing key (exit 2)', async () => {
    const unknown = await digest(['push', '--to', 'mailchimp', '--week', WEEK]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("argument 'mailchimp' is invalid");
    const missing = await digest(['push', '--to', 'buttondown', '--week', WEEK], {
      ...platforms.env,
      TEST_BUTTONDOWN_KEY: '',
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('TEST_BUTTONDOWN_KEY (named by push.buttondown.tokenEnv) is not set');
  });
});
