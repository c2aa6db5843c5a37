// registerPaid's dialect: the API's own by default, where a request the operation declines (paid-call.ts Declined)
// is the envelope's 400 INVALID_PARAMETER, answered before the admission core (no credential asked for, nothing
// metered); a dialect of its own reads the credential, keeps a secret out of the public URL and writes both its
// refusals and what is declined in its own shape. (The FRED dialect itself: test/routes/fred*.test.ts.)
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createRoute, z } from "@hono/zod-openapi";
import { declined, jsonAnswer, registerPaid, serve, API_DIALECT, type Dialect } from "../../src/http/paid";
import { withoutQueryParameter } from "../../src/http/url-parts";
import { keyUsage } from "../../src/services/keys";
import type { Serving } from "../../src/pricing";
import { makeTestApp, type TestApp } from "../support/app";
import { testKey } from "../support/keys";

setDefaultTimeout(120_000);

let t: TestApp;
const urls: string[] = [];
beforeAll(async () => {
  t = await makeTestApp({ keyAccess: true });
  const route = (path: string) =>
    createRoute({
      method: "get",
      path,
      operationId: path.slice(1).replace(/\W/g, "_"),
      request: { query: z.object({ n: z.string().optional(), secret: z.string().optional() }) },
      responses: {
        200: { description: "n", content: { "application/json": { schema: z.object({ n: z.string() }) } } },
      },
    });
  type Served = Serving & { n: string };
  const spec = {
    surface: "latest" as const,
    reads: "all" as const,
    resolve: async (q: { n?: string }) =>
      q.n === "bad"
        ? declined("n may not be bad.")
        : serve<Served>({ indicator: null, region: null, resource: "/v1/x", reads: [], n: q.n ?? "" }),
    answer: async (r: Served) => jsonAnswer({ n: r.n }),
  };
  registerPaid<ReturnType<typeof route>, Served>(t.app, t.deps, route("/v1/dialect-default"), spec);
  const own: Dialect = {
    credential: (c) => API_DIALECT.credential(c),
    publicUrl: (c) => {
      const url = withoutQueryParameter(c.req.url, "secret");
      urls.push(url);
      return url;
    },
    refuse: (c, r) => c.json({ refused: r.code }, 401),
    decline: (c, d) => c.text(`declined: ${d.message}`, d.status),
  };
  registerPaid<ReturnType<typeof route>, Served>(t.app, t.deps, route("/v1/dialect-own"), { ...spec, dialect: own });
}, 120_000);
afterAll(() => t.close());

describe("registerPaid's dialect", () => {
  test("default: declined is the envelope's 400 before any credential is asked for, and not metered", async () => {
    const anonymous = await t.request("/v1/dialect-default?n=bad");
    expect(anonymous.status).toBe(400);
    expect(await anonymous.json()).toEqual({ error: { code: "INVALID_PARAMETER", message: "n may not be bad." } });
    const { headers, row } = await testKey(t);
    const keyed = await t.request("/v1/dialect-default?n=bad", { headers });
    expect(keyed.status).toBe(400);
    expect(keyed.headers.get("x-ratelimit-limit")).toBeNull();
    expect(await keyUsage(t.deps, row.id, t.deps.clock.now().toISOString().slice(0, 7))).toBe(0);
    const ok = await t.request("/v1/dialect-default?n=good", { headers });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ n: "good" });
    const refused = await t.request("/v1/dialect-default?n=good");
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("INVALID_API_KEY");
  });

  test("a dialect of its own writes what is declined and what is refused; the gate sees its public URL", async () => {
    const bad = await t.request("/v1/dialect-own?n=bad");
    expect(bad.status).toBe(400);
    expect(await bad.text()).toBe("declined: n may not be bad.");
    urls.length = 0;
    const refused = await t.request("/v1/dialect-own?secret=s3&n=good");
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ refused: "INVALID_API_KEY" });
    expect(urls.length).toBeGreaterThan(0);
    for (const u of urls) expect(u).toBe("http://localhost/v1/dialect-own?n=good");
  });
});
