// Query validation by @hono/zod-openapi's own validator with the app's hook (src/http/validation.ts): each request's
// query is validated, failures are answered in full with the envelope, and the OpenAPI document describes every
// query parameter.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createRoute, z } from "@hono/zod-openapi";
import { requestTarget } from "../../src/http/url-parts";
import { makeTestApp, type TestApp } from "../support/app";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

let t: TestApp;
let parses = 0;
const seen: object[] = [];

const probe = createRoute({
  method: "get",
  path: "/v1/test-query",
  request: {
    query: z.object({
      n: z
        .string()
        .transform((s) => {
          parses++;
          return Number(s);
        })
        .pipe(z.number().int().min(1).max(10)),
      tag: z.string().optional(),
    }),
  },
  responses: { 200: { description: "ok" } },
});

beforeAll(async () => {
  t = await makeTestApp();
  t.app.openapi(probe, (c) => {
    const q = c.req.valid("query");
    seen.push(q);
    return c.json({ n: q.n, tag: q.tag ?? null }, 200);
  });
}, 120_000);
afterAll(() => t?.close());

describe("query validation", () => {
  test("each request's query is validated; the same string gives the same value", async () => {
    const before = parses;
    const a = await t.getJson("/v1/test-query?n=3&tag=x");
    const b = await t.getJson("/v1/test-query?n=3&tag=x");
    expect(a.body).toEqual({ n: 3, tag: "x" });
    expect(b.body).toEqual(a.body);
    expect(parses - before).toBe(2);
    expect((await t.getJson("/v1/test-query?tag=x&n=3")).body).toEqual(a.body);
  });

  test("an invalid query string is refused in full every time, at the bound and just past it", async () => {
    expect((await t.getJson("/v1/test-query?n=10")).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const res = await t.getJson("/v1/test-query?n=11");
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("INVALID_PARAMETER");
      expect(res.body.error.details.parameter).toBe("n");
    }
    const repeated = await t.getJson("/v1/test-query?n=1&n=2");
    expect(repeated.status).toBe(400);
    expect(repeated.body.error.message).toContain("given 2 times");
  });

  test("the OpenAPI document lists the parameters of a route", () => {
    const doc = t.app.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "t", version: "1" } }) as any;
    const names = (doc.paths["/v1/test-query"].get.parameters as any[]).map((p) => `${p.in}:${p.name}:${p.required ?? false}`);
    expect(names.sort()).toEqual(["query:n:true", "query:tag:false"]);
    const observations = (doc.paths["/v1/observations"].get.parameters as any[]).map((p) => p.name);
    expect(observations).toContain("transform");
  });
});

test("requestTarget: the path and query, whatever the host", () => {
  expect(requestTarget("http://127.0.0.1:3000/v1/observations?indicator=X")).toBe("/v1/observations?indicator=X");
  expect(requestTarget("https://api.example.com/")).toBe("/");
});
