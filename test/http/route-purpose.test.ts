// How each route is admitted is declared where it is registered (src/http/route-purpose.ts, recorded in the app's route registry), not derived from the
// request path: key management and ping declare theirs, the MCP envelope is not admitted, every other route is keyed.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { makeTestApp, type TestApp } from "../support/app";
import { bearer, testKey } from "../support/keys";
import { MCP_PATH } from "../../src/contract/mcp";

// bun resets the default timeout per file: this file starts a database.
setDefaultTimeout(120_000);

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp({ keyAccess: true });
});
afterAll(async () => {
  await t?.close();
});

describe("route purposes", () => {
  test("signup and every /v1/keys/ route declare key management (revoke lets an expired key through), ping its own window, MCP the envelope", () => {
    const declared = t.app.registry
      .declaredPurposes()
      .map((r) => `${r.method} ${r.path} ${r.purpose}${r.allowExpired ? " allow_expired" : ""}`);
    expect(declared.sort()).toEqual(
      [
        "POST /v1/signup key_management",
        "POST /v1/keys/rotate key_management",
        "POST /v1/keys/revoke key_management allow_expired",
        "POST /v1/keys/recover key_management",
        "POST /v1/keys/recover/confirm key_management",
        "GET /v1/ping ping",
        `POST ${MCP_PATH} envelope`,
        `ALL ${MCP_PATH} envelope`,
      ].sort(),
    );
    // No key route is left undeclared (it would be counted against the data window).
    const keyRoutes = t.app.routes.filter(
      (r) => r.method !== "ALL" && (r.path === "/v1/signup" || r.path.startsWith("/v1/keys/")),
    );
    expect(new Set(keyRoutes.map((r) => `${r.method} ${r.path}`)).size).toBe(5);
  });

  test("a declared route is admitted as declared: ping is not counted in the data window, key management not at all", async () => {
    const { key } = await testKey(t, { rateLimitPerMinute: 1 });
    expect((await t.app.request("/v1/sources", { headers: bearer(key) })).status).toBe(200);
    expect((await t.app.request("/v1/sources", { headers: bearer(key) })).status).toBe(429);
    const ping = await t.app.request("/v1/ping", { headers: bearer(key) });
    expect(ping.status).toBe(200);
    expect(ping.headers.get("x-ratelimit-remaining")).toBe("0");
    // Key management is authenticated only: no window, no rate headers.
    const rotated = await t.app.request("/v1/keys/rotate", { method: "POST", headers: bearer(key) });
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get("x-ratelimit-limit")).toBeNull();
  });
});
