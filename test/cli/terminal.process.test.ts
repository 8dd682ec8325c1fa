// Text from feeds reaches the terminal as data: escape sequences and bidi overrides in a title are shown, not obeyed.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createCliLogger } from '../../src/cli/logger.js';
import { plainLine, plainText } from '../../src/cli/terminal.js';
import { openStore } from '../../src/store/open-store.js';
import { runDigest } from '../support/cli.js';

// Clears the screen, sets the window title, and reverses the rest of the line.
const HOSTILE = 'Agents\u001b[2J\u001b]0;pwned\u0007 in \u202eproduction\u202c\r\nfake line';
// Anything the terminal would act on: ESC, BEL, CR, C1 controls and bidi controls.
const ACTED_ON = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('terminal output of untrusted text', () => {
  it('replaces control characters and bidi overrides, and keeps the rest of the text', () => {
    const line = plainLine(HOSTILE);
    expect(line).not.toMatch(ACTED_ON);
    expect(line).not.toContain('\n');
    expect(line).toContain('Agents');
    expect(line).toContain('[2J');
    expect(line).toContain('production');
    expect(plainText('two\nlines\tand a tab\u001b[31m')).toBe('two\nlines\tand a tab\ufffd[31m');
  });

  it('in log lines on stderr', () => {
    let written = '';
    const stderr = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        written += chunk.toString();
        callback();
      },
    });
    createCliLogger(stderr).warn(`feed item "${HOSTILE}" skipped`);
    expect(written.startsWith('warning: feed item "Agents')).toBe(true);
    expect(written.slice(0, -1)).not.toMatch(ACTED_ON);
  });

  it('in `digest list`', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'digest-terminal-'));
    try {
      const store = await openStore({ dataDir: join(cwd, 'data') });
      await store.items.upsert([
        {
          sourceId: 'rss-test',
          url: 'https://example.com/hostile',
          title: HOSTILE,
          text: 'A post about evaluating agents in production before each release.',
          authors: [],
          arxivId: null,
          image: null,
          publishedAt: '2026-06-20T10:00:00.000Z',
          upvotes: null,
        },
      ]);
      await store.close();
      const run = await runDigest(['list', '--week', '2026-06-22', '--data-dir', 'data'], { cwd });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('Agents');
      expect(run.stdout).not.toMatch(ACTED_ON);
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  }, 60_000);
});
