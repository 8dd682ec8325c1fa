#!/usr/bin/env node
// Runs the TypeScript sources through tsx, so `npx digest` never sees a stale build.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
await main();
