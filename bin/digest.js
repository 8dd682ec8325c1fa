#!/usr/bin/env node
// Runs the compiled CLI (dist/, built by `npm install` through `prepare`, or `npm run build`).
import { existsSync } from 'node:fs';

const main = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write(
    'digest: dist/ is missing. Run "npm install" (or "npm run build") in the project folder.\n',
  );
  process.exit(2);
}
const { main: run } = await import(main.href);
await run();
