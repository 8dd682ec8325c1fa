#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx, so `npx digest` never sees a stale build.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
