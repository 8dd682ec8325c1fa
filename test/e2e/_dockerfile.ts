// Reads a Dockerfile into its stages and runs their steps without a Docker engine: each stage is a folder standing
// for the image's file system, COPY copies from the build context (or an earlier stage's folder), RUN runs its shell
// command in the stage's WORKDIR with its ENV, and a path the image owns (/app, /data, /home/node) names the same
// place inside the stage's folder. What the base image brings is what the test runs on: its Node and npm.
import { spawn } from 'node:child_process';
import { chownSync, cpSync, existsSync, mkdirSync } from 'node:fs';
import { join, posix } from 'node:path';

export interface Instruction {
  keyword: string;
  /** The text after the keyword, continuation lines joined. */
  text: string;
}

export interface Stage {
  name: string;
  image: string;
  instructions: Instruction[];
}

/** The Dockerfile's stages, in order; comments dropped, `\` continuations joined. */
export function parseDockerfile(source: string): Stage[] {
  const logical: string[] = [];
  let pending = '';
  for (const raw of source.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#') || (line === '' && pending === '')) continue;
    if (line.endsWith('\\')) pending += `${line.slice(0, -1).trim()} `;
    else {
      logical.push(pending + line);
      pending = '';
    }
  }
  const stages: Stage[] = [];
  for (const line of logical.filter(Boolean)) {
    const [keyword = '', ...rest] = line.split(/\s+/);
    const text = rest.join(' ');
    if (keyword.toUpperCase() === 'FROM') {
      const [image = '', , name = String(stages.length)] = rest;
      stages.push({ name, image, instructions: [] });
    } else stages.at(-1)?.instructions.push({ keyword: keyword.toUpperCase(), text });
  }
  return stages;
}

/** An exec-form argument list (`["node", "x"]`), or the shell form as `sh -c`. */
export function commandOf(text: string): string[] {
  return text.startsWith('[') ? (JSON.parse(text) as string[]) : ['/bin/sh', '-c', text];
}

/** Top-level folders of a Debian image that are the system's, not the image's own files. */
const SYSTEM = new Set(['bin', 'dev', 'etc', 'lib', 'proc', 'sbin', 'sys', 'tmp', 'usr', 'var']);

/** A path in the image, in the folder that stands for it. */
export function hostPath(root: string, imagePath: string): string {
  const first = imagePath.split('/')[1] ?? '';
  return SYSTEM.has(first) ? imagePath : join(root, imagePath);
}

/** Every image path in a shell command or value, rewritten into `root`. */
export function mapPaths(root: string, text: string): string {
  return text.replace(
    /(^|[\s=:'"])(\/[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]*)*)/g,
    (_all, before: string, path: string) => `${before}${hostPath(root, path)}`,
  );
}

/** The user the node images run as (`USER node`): uid and gid 1000. */
export const NODE_USER = 1000;

/** A built stage: its folder, working directory and environment as its last instruction left them. */
export interface BuiltStage {
  root: string;
  workdir: string;
  env: Record<string, string>;
  user: string | null;
}

/** Runs one stage's instructions in `root`; earlier stages by name for `COPY --from`. */
export async function buildStage(
  stage: Stage,
  context: { root: string; source: string; stages: Map<string, BuiltStage> },
): Promise<BuiltStage> {
  const built: BuiltStage = { root: context.root, workdir: '/', env: {}, user: null };
  // What a node image brings: its user's home.
  mkdirSync(join(built.root, 'home', 'node'), { recursive: true });
  chownSync(join(built.root, 'home', 'node'), NODE_USER, NODE_USER);
  for (const { keyword, text } of stage.instructions) {
    if (keyword === 'WORKDIR') {
      built.workdir = posix.resolve(built.workdir, text);
      mkdirSync(hostPath(built.root, built.workdir), { recursive: true });
    } else if (keyword === 'ENV') Object.assign(built.env, parseEnv(text));
    else if (keyword === 'USER') built.user = text;
    else if (keyword === 'COPY') copy(built, text, context);
    else if (keyword === 'RUN') await run(built, text);
  }
  return built;
}

/** `A=b C="d e"`, or the old `KEY value`. */
function parseEnv(text: string): Record<string, string> {
  if (!/^[A-Za-z_][A-Za-z0-9_]*=/.test(text)) {
    const [key = '', ...value] = text.split(' ');
    return { [key]: value.join(' ') };
  }
  const env: Record<string, string> = {};
  for (const match of text.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S*)/g))
    env[match[1]!] = match[2]!.replace(/^"|"$/g, '');
  return env;
}

function copy(built: BuiltStage, text: string, context: { source: string; stages: Map<string, BuiltStage> }) {
  const words = text.split(/\s+/);
  const from = words.find((word) => word.startsWith('--from='))?.slice('--from='.length);
  const paths = words.filter((word) => !word.startsWith('--'));
  const destination = paths.pop()!;
  const target = posix.resolve(built.workdir, destination);
  const intoFolder = destination.endsWith('/') || paths.length > 1;
  const origin = from ? context.stages.get(from) : undefined;
  if (from && !origin) throw new Error(`COPY --from=${from}: no such stage before this one`);
  for (const path of paths) {
    const source = origin
      ? hostPath(origin.root, posix.resolve(origin.workdir, path))
      : join(context.source, path);
    if (!existsSync(source))
      throw new Error(`COPY ${path}: not in ${origin ? `stage ${from}` : 'the build context'}`);
    const into = intoFolder ? posix.join(target, posix.basename(path)) : target;
    cpSync(source, hostPath(built.root, into), { recursive: true });
  }
}

/**
 * The shell the RUN steps get: npm's cache is the machine's (shared, warm: no download), so `npm cache clean` leaves
 * it alone; `chown` to the image's node user by its ids, which need no entry in this machine's /etc/passwd.
 */
const SHELL_PRELUDE = [
  'npm() { if [ "$1" = cache ]; then return 0; fi; command npm "$@"; }',
  `chown() { command chown "\${@//node:node/${NODE_USER}:${NODE_USER}}"; }`,
].join('\n');

async function run(built: BuiltStage, text: string): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...imageEnv(built), npm_config_prefer_offline: 'true' };
  const command = `${SHELL_PRELUDE}\nset -e\n${mapPaths(built.root, text)}`;
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn('bash', ['-c', command], { cwd: hostPath(built.root, built.workdir), env });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8192)));
    child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8192)));
    child.once('close', (exit) => resolve({ code: exit, output }));
  });
  if (code !== 0) throw new Error(`RUN ${text}\nexited ${code}:\n${output}`);
}

/** The stage's ENV, its image paths in its folder. */
export function imageEnv(built: BuiltStage): Record<string, string> {
  return Object.fromEntries(
    Object.entries(built.env).map(([key, value]) => [key, mapPaths(built.root, value)]),
  );
}
