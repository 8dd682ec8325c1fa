// The self-hosting recipe builds and runs: the Dockerfile's own steps, in order, in a scratch folder (no Docker engine
// here: test/e2e/_dockerfile.ts plays one) — every COPY finds its source, every RUN succeeds, the runtime stage's
// ENTRYPOINT + CMD starts `digest serve` as the image's user, its HEALTHCHECK passes and /healthz answers. A renamed
// file fails this test, not a user's `docker compose up --build`. compose.yaml is held to the image and to itself.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { freePort } from '../support/loopback.js';
import {
  type BuiltStage,
  buildStage,
  commandOf,
  hostPath,
  imageEnv,
  mapPaths,
  NODE_USER,
  parseDockerfile,
  type Stage,
} from './_dockerfile.js';

const ROOT = join(import.meta.dirname, '..', '..');
const stages = parseDockerfile(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));
const runtime = stages.at(-1)!;
const last = (stage: Stage, keyword: string) =>
  stage.instructions.findLast((instruction) => instruction.keyword === keyword)?.text;

describe('the Dockerfile', () => {
  it('starts every stage from a Node.js line package.json supports, the same in each', () => {
    const engines = (
      JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }
    ).engines.node;
    const lines = new Set(stages.map((stage) => /^node:(\d+)-slim$/.exec(stage.image)?.[1]));
    expect(lines.size).toBe(1);
    const [major] = [...lines];
    expect(major).toMatch(/^\d+$/);
    // A long-term-support line (even) and one engines names: `>=22.12` takes any later line, `^20.19` only 20.
    expect(Number(major) % 2).toBe(0);
    expect(engines).toMatch(new RegExp(`(\\^${major}\\.|>=\\s*(\\d+))`));
    const floor = /\|\|\s*>=\s*(\d+)/.exec(engines)?.[1] ?? major;
    expect(Number(major)).toBeGreaterThanOrEqual(Number(floor));
  });

  describe('built step by step in a scratch folder', () => {
    let scratch: string;
    const built = new Map<string, BuiltStage>();
    let server: ChildProcess | undefined;
    beforeAll(async () => {
      scratch = mkdtempSync(join(tmpdir(), 'digest-dockerfile-'));
      // The image's user must reach its files, as it does in an image.
      chmodSync(scratch, 0o755);
      for (const stage of stages) {
        const root = join(scratch, stage.name);
        built.set(stage.name, await buildStage(stage, { root, source: ROOT, stages: built }));
      }
    }, 600_000);
    afterAll(() => {
      server?.kill('SIGKILL');
      rmSync(scratch, { recursive: true, force: true });
    }, 300_000);

    it('leaves the compiled CLI and only runtime dependencies in the image', () => {
      const image = built.get(runtime.name)!;
      const app = hostPath(image.root, image.workdir);
      expect(existsSync(join(app, 'dist', 'cli', 'main.js'))).toBe(true);
      expect(existsSync(join(app, 'bin', 'digest.js'))).toBe(true);
      // No test or build tool at run time.
      for (const devOnly of ['vitest', 'typescript', 'knip', 'playwright-core'])
        expect(existsSync(join(app, 'node_modules', devOnly)), devOnly).toBe(false);
      expect(statSync(hostPath(image.root, '/data')).uid).toBe(NODE_USER);
    });

    it('runs `digest serve` as its CMD, as the image user, and answers /healthz and its HEALTHCHECK', async () => {
      const image = built.get(runtime.name)!;
      const command = [
        ...commandOf(last(runtime, 'ENTRYPOINT') ?? '[]'),
        ...commandOf(last(runtime, 'CMD')!),
      ];
      expect(command.slice(0, 3)).toEqual(['node', 'bin/digest.js', 'serve']);
      const port = await freePort();
      const env = {
        PATH: process.env.PATH,
        ...imageEnv(image),
        PORT: String(port),
        DIGEST_SECRET: 'a-secret-of-the-operator-of-at-least-32-bytes',
      };
      // Loopback here: the image listens on every interface of its own network.
      const args = command
        .slice(1)
        .map((arg) => (arg === '0.0.0.0' ? '127.0.0.1' : mapPaths(image.root, arg)));
      // The image carries its own Node: the image user may not reach the test's (a clone in a private folder).
      const node = join(scratch, 'node');
      copyFileSync(process.execPath, node);
      chmodSync(node, 0o755);
      server = spawn(node, args, {
        cwd: hostPath(image.root, image.workdir),
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        ...(process.getuid?.() === 0 ? { uid: NODE_USER, gid: NODE_USER } : {}),
      });
      const url = await listening(server);
      const health = await fetch(new URL('/healthz', url));
      expect(health.status).toBe(200);
      const check = commandOf(last(runtime, 'HEALTHCHECK')!.replace(/^(--\S+\s+)*CMD\s+/, ''));
      const probe = spawnSync(process.execPath, check.slice(1), { env, encoding: 'utf8', timeout: 30_000 });
      expect(probe.status, probe.stderr).toBe(0);
      expect(existsSync(hostPath(image.root, '/data/db'))).toBe(true);
    });
  });
});

describe('compose.yaml', () => {
  const compose = parse(readFileSync(join(ROOT, 'compose.yaml'), 'utf8')) as Compose;
  const digest = compose.services.digest!;

  it('builds the Dockerfile and runs its CMD with what the image needs', () => {
    expect(existsSync(join(ROOT, digest.build as string, 'Dockerfile'))).toBe(true);
    expect(digest.command).toBeUndefined();
    expect(Object.keys(digest.environment ?? {})).toContain('DIGEST_SECRET');
    const port = digest.environment?.PORT ?? /PORT=(\d+)/.exec(last(runtime, 'ENV') ?? '')?.[1];
    expect(last(runtime, 'EXPOSE')).toBe(port);
    for (const mapping of digest.ports ?? [])
      expect(mapping).toMatch(new RegExp(`^127\\.0\\.0\\.1:\\d+:${port}$`));
    const volume = last(runtime, 'VOLUME');
    expect(digest.volumes?.some((mount) => `["${mount.split(':')[1]}"]` === volume)).toBe(true);
  });

  it('names services, volumes and a database that exist', () => {
    for (const name of Object.keys(digest.depends_on ?? {}))
      expect(compose.services[name], name).toBeDefined();
    for (const [, service] of Object.entries(compose.services))
      for (const mount of service.volumes ?? []) {
        const [name = ''] = mount.split(':');
        if (!name.startsWith('.') && !name.startsWith('/'))
          expect(compose.volumes, name).toHaveProperty(name);
      }
    const database = new URL(digest.environment!.DATABASE_URL!);
    const postgres = compose.services[database.hostname]!;
    expect(postgres.environment).toMatchObject({
      POSTGRES_USER: database.username,
      POSTGRES_PASSWORD: database.password,
      POSTGRES_DB: database.pathname.slice(1),
    });
  });
});

interface Compose {
  services: Record<
    string,
    {
      build?: string;
      command?: unknown;
      environment?: Record<string, string>;
      ports?: string[];
      volumes?: string[];
      depends_on?: Record<string, unknown>;
    }
  >;
  volumes: Record<string, unknown>;
}

/** The URL `digest serve` prints first; rejects with its output if it exits before. */
function listening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const [first, ...rest] = stdout.split('\n');
      if (rest.length) resolve(first!);
    });
    child.once('exit', (code) => reject(new Error(`digest serve exited (${code}):\n${stderr}`)));
  });
}
