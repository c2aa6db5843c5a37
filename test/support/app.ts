// makeTestApp(overrides): the real app over a fresh seeded database, a manual clock and a
// seeded random source. Nothing is mocked; dependencies are injected.
import { createApp } from "../../src/app";
import { loadConfig, type Config } from "../../src/config";
import type { Deps } from "../../src/deps";
import { createLogger } from "../../src/logger";
import { SERVICE_VERSION } from "../../src/version";
import { openAccess } from "../../src/http/paid";
import { ManualClock, seededRandom } from "./clock";
import { makeTestDatabase } from "./db";

export type TestApp = Awaited<ReturnType<typeof makeTestApp>>;

export async function makeTestApp(overrides: Partial<Deps> & { config?: Partial<Config> } = {}) {
  const database = overrides.database ?? (await makeTestDatabase());
  const clock = (overrides.clock as ManualClock | undefined) ?? new ManualClock();
  const config: Config = { ...loadConfig({ NODE_ENV: "test", DATA_DIR: "/tmp/svc-test-unused", LOG_LEVEL: "silent" }), ...overrides.config };
  const deps: Deps = {
    config,
    database,
    clock,
    random: overrides.random ?? seededRandom(),
    logger: overrides.logger ?? createLogger(config.logLevel),
    version: SERVICE_VERSION,
    access: overrides.access ?? openAccess,
  };
  const app = createApp(deps);
  const request = (path: string, init?: RequestInit) => app.request(path, init);
  const getJson = async (path: string, init?: RequestInit) => {
    const res = await app.request(path, init);
    return { res, status: res.status, body: (await res.json()) as any };
  };
  return { app, deps, database, clock, request, getJson, close: () => database.close() };
}
