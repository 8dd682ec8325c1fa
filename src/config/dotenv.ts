// `./.env` (what `digest init` writes: DIGEST_SECRET, keys): read at start, never overriding the real environment.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** KEY=VALUE lines; `export ` prefixes, blank lines and # comments ignored; single or double quotes removed. */
export function parseDotEnv(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match) continue;
    const [, key, raw] = match as unknown as [string, string, string];
    const quoted = /^(["'])(.*)\1$/.exec(raw);
    if (quoted) values[key] = quoted[1] === '"' ? (quoted[2] ?? '').replace(/\\n/g, '\n') : (quoted[2] ?? '');
    else values[key] = raw.replace(/\s+#.*$/, '');
  }
  return values;
}

/** The environment with `<cwd>/.env` beneath it: a variable already set (even empty) wins over the file. */
export function withDotEnv(cwd: string, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  let text: string;
  try {
    text = readFileSync(join(cwd, '.env'), 'utf8');
  } catch {
    return env;
  }
  return { ...parseDotEnv(text), ...env };
}
