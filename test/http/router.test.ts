// The app's routes on Hono's default router: the spec's briefing paths overlap (`/v1/briefings/public` is also an
// `{id}`), which the regular-expression router cannot hold, so Hono matches with its trie router; middleware runs in
// registration order, and 404 and 405 answers name the routes.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Hono } from "hono";
import { makeTestApp, type TestApp } from "../support/app";
import { testKey } from "../support/keys";

setDefaultTimeout(120_000);

describe("the overlapping paths in a plain Hono app", () => {
  test("the spec's overlapping paths resolve, middleware first, the route registered first answering a path both match", async () => {
    const app = new Hono();
    const seen: string[] = [];
    app.use("*", async (c, next) => {
      seen.push(c.req.path);
      await next();
    });
    app.get("/v1/briefings", (c) => c.text("list"));
    app.get("/v1/briefings/public", (c) => c.text("public list"));
    app.get("/v1/briefings/public/:slug", (c) => c.text(`public ${c.req.param("slug")}`));
    app.get("/v1/briefings/:id", (c) => c.text(`get ${c.req.param("id")}`));
    app.delete("/v1/briefings/:id", (c) => c.text(`delete ${c.req.param("id")}`));
    app.get("/v1/briefings/:id/runs", (c) => c.text(`runs ${c.req.param("id")}`));
    app.get("/v1/regions/:code", (c) => c.text(`region ${c.req.param("code")}`));
    const text = async (path: string, method = "GET") => (await app.request(path, { method })).text();
    expect(await text("/v1/briefings")).toBe("list");
    expect(await text("/v1/briefings/public")).toBe("public list");
    expect(await text("/v1/briefings/public/us-inflation")).toBe("public us-inflation");
    // Registered first, the public read answers the path both match.
    expect(await text("/v1/briefings/public/runs")).toBe("public runs");
    expect(await text("/v1/briefings/abc")).toBe("get abc");
    expect(await text("/v1/briefings/abc", "DELETE")).toBe("delete abc");
    expect(await text("/v1/briefings/abc/runs")).toBe("runs abc");
    expect(await text("/v1/regions/06")).toBe("region 06");
    expect(seen).toEqual(["/v1/briefings", "/v1/briefings/public", "/v1/briefings/public/us-inflation", "/v1/briefings/public/runs", "/v1/briefings/abc", "/v1/briefings/abc", "/v1/briefings/abc/runs", "/v1/regions/06"]);
  });
});

describe("the real app", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(() => t?.close());

  test("the app's middleware runs on the overlapping paths (request id, CORS, key admission); 405s name their methods", async () => {
    const { headers } = await testKey(t, { scopes: ["svc-premium"] });
    for (const path of ["/v1/briefings/public", "/v1/briefings/public/runs", "/v1/briefings/3b241101-e2bb-4255-8caf-4136c566a962/runs", "/v1/briefings"]) {
      const res = await t.request(path, { headers: { ...headers, origin: "https://app.example" } });
      expect({ path, id: /^[0-9a-f-]{36}$/.test(res.headers.get("x-request-id") ?? ""), cors: res.headers.get("access-control-allow-origin") }).toEqual({ path, id: true, cors: "*" });
    }
    // A bad key is refused by the key middleware there too.
    expect((await t.request("/v1/briefings/public", { headers: { "x-api-key": "svc_live_not-a-real-key" } })).status).toBe(401);
    const put = await t.request("/v1/briefings/public", { method: "PUT" });
    expect([put.status, put.headers.get("allow")]).toEqual([405, "GET, HEAD, DELETE, OPTIONS"]);
    const post = await t.request("/v1/briefings/3b241101-e2bb-4255-8caf-4136c566a962/runs", { method: "POST" });
    expect([post.status, post.headers.get("allow")]).toEqual([405, "GET, HEAD, OPTIONS"]);
    const none = await t.request("/v1/briefings/a/b/c");
    expect([none.status, ((await none.json()) as any).error.code]).toEqual([404, "RESOURCE_NOT_FOUND"]);
  });
});
