// Process-wide cleanups (databases created on PostgreSQL, servers), run once after all test files.
const cleanups: Array<() => Promise<void>> = [];

export function registerCleanup(fn: () => Promise<void>): void {
  cleanups.push(fn);
}

export async function runCleanups(): Promise<void> {
  for (const fn of cleanups.splice(0).reverse()) await fn().catch(() => {});
}
