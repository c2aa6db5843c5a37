// makeTestApp(overrides): the real app over a fresh seeded database, a manual clock and a
// seeded random source. Nothing is mocked; dependencies are injected.
import { createApp, type AppOptions } from "../../src/app";
import { loadConfig, type Config } from "../../src/config";
import type { Deps } from "../../src/deps";
import { createLogger } from "../../src/logger";
import { SERVICE_VERSION } from "../../src/version";
import { noFetcher, noJobs, openAccess, type PaymentGate } from "../../src/ports";
import { buildRuntimeDeps } from "../../src/runtime-setup";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ManualClock, seededRandom } from "./clock";
import { registerCleanup } from "./cleanup";
import { makeTestDatabase } from "./db";

export type TestApp = Awaited<ReturnType<typeof makeTestApp>>;

/**
 * `middleware` is registered on every route after the app's own (createApp). `keyAccess: true` admits paid requests
 * as the real service does (keys entitled and metered; payment rails when `payments` is given) instead of
 * openAccess. Keys are authenticated and counted in every test app.
 */
export async function makeTestApp(overrides: Omit<Partial<Deps>, "config"> & { config?: Partial<Config>; keyAccess?: boolean; payments?: PaymentGate } & AppOptions = {}) {
  const database = overrides.database ?? (await makeTestDatabase());
  const clock = (overrides.clock as ManualClock | undefined) ?? new ManualClock();
  // A data directory of its own: the usage journal (DATA_DIR/usage-journal.sqlite) belongs to one app, like one process.
  const dataDir = overrides.config?.dataDir ?? mkdtempSync(join(tmpdir(), "svc-test-"));
  if (!overrides.config?.dataDir) registerCleanup(async () => rmSync(dataDir, { recursive: true, force: true }));
  // Upstream providers default to an address nothing listens on: no test reaches the internet by accident. A test that
  // ingests passes `upstream` (connectors over the fake upstream, test/support/fake-upstream.ts) or config.upstream.
  const offline = Object.fromEntries(["FRED", "BLS", "CENSUS", "WORLDBANK"].map((p) => [`${p}_BASE_URL`, `http://127.0.0.1:9/${p.toLowerCase()}`]));
  const config: Config = { ...loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, LOG_LEVEL: "silent", ...offline }), ...overrides.config };
  const base = { database, clock, random: overrides.random ?? seededRandom(), logger: overrides.logger ?? createLogger(config.logLevel) };
  const built = buildRuntimeDeps(config, base);
  const keys = overrides.keys ?? built.keys;
  if (overrides.keys) await built.keys.close();
  const deps: Deps = {
    config,
    ...base,
    version: SERVICE_VERSION,
    access: overrides.access ?? (overrides.keyAccess || overrides.payments ? { keys: true, payments: overrides.payments ?? null, publicBaseUrl: null } : openAccess),
    mail: overrides.mail ?? built.mail,
    rateLimits: overrides.rateLimits ?? built.rateLimits,
    billing: overrides.billing !== undefined ? overrides.billing : built.billing,
    keys,
    caches: overrides.caches ?? built.caches,
    upstream: overrides.upstream ?? built.upstream,
    fetcher: overrides.fetcher ?? noFetcher,
    jobs: overrides.jobs ?? noJobs,
  };
  deps.caches.catalog.useFetchVia(deps.fetcher);
  const app = createApp(deps, { middleware: overrides.middleware });
  const request = (path: string, init?: RequestInit) => app.request(path, init);
  const getJson = async (path: string, init?: RequestInit) => {
    const res = await app.request(path, init);
    return { res, status: res.status, body: (await res.json()) as any };
  };
  // What the data services read through: this app's database and caches.
  const store = { db: database.db, caches: deps.caches };
  return { app, deps, database, store, clock, request, getJson, close: async () => {
    await deps.jobs.stop();
    await deps.caches.compute.close();
    await deps.keys.close();
    await deps.mail.close();
    deps.rateLimits.close();
    await database.close();
  } };
}
