// The apps the discovery route tests share (test/routes/discovery*.test.ts), and the paths an app serves.
import { afterAll, beforeAll } from "bun:test";
import { makeTestApp, type TestApp } from "./app";

/** The public base URL of discoveryApps' `pub`. */
export const DISCOVERY_PUBLIC = "https://api.example.com";

/**
 * Two apps over one database: `t` without PUBLIC_BASE_URL (links come from the request) and `pub` with it. A
 * function, so each file gets its own: test files may share one module registry.
 */
export function discoveryApps() {
  let t: TestApp;
  let pub: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
    pub = await makeTestApp({ database: t.database, config: { ...t.deps.config, publicBaseUrl: DISCOVERY_PUBLIC } });
    // The process's first seeded snapshot takes longer than bun's default hook timeout.
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });
  return {
    get t() {
      return t;
    },
    get pub() {
      return pub;
    },
  };
}

/** Paths the app serves (from Hono's router), in OpenAPI notation, minus middleware. */
export function servedPaths(app: TestApp["app"]): string[] {
  const paths = app.routes.filter((r) => r.method !== "ALL").map((r) => r.path.replace(/:([A-Za-z0-9_]+)/g, "{$1}"));
  return [...new Set(paths)];
}
