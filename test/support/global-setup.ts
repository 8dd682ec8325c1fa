// Global test setup. Helpers may extend it (e.g. to start PostgreSQL); keep each part in its own module.
export default async function setup(): Promise<() => Promise<void>> {
  const teardowns: (() => Promise<void>)[] = [];
  return async () => {
    for (const teardown of teardowns.reverse()) await teardown();
  };
}
