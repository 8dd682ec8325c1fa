// Global test setup. Helpers may extend it (e.g. to start PostgreSQL); keep each part in its own module.
import type { TestProject } from 'vitest/node';
import { setupPostgres } from './postgres.js';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const teardowns: (() => Promise<void>)[] = [];
  teardowns.push(await setupPostgres(project));
  return async () => {
    for (const teardown of teardowns.reverse()) await teardown();
  };
}
