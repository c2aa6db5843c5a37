// Every documented example works on a fresh install: for each paid or catalog operation of the served contract, the
// request built from its parameters' examples answers 200 with data on the seeded database, called as the docs say
// (paid operations with an API key). An example naming a series the seed does not hold would answer 404 here.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { listOperations, type JsonObject, type OperationEntry } from "../../src/contract/operations";
import { makeTestApp, type TestApp } from "../support/app";
import { testKey } from "../support/keys";
import { detectSignalsForIndicators } from "../../src/services/signal-detection";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

// Built at load time: one test per documented example request. GET /v1/flows's examples read the flows the test seed
// holds (db/seed/index.ts seeds them with the seed's region filter).
const t: TestApp = await makeTestApp({ keyAccess: true });
const doc = (await (await t.request("/openapi.json")).json()) as JsonObject;
let headers: Record<string, string>;
beforeAll(async () => {
  // A premium key: the docs call premium operations (signals) with one.
  headers = (await testKey(t, { scopes: ["svc-premium"] })).headers;
  // A fresh install detects signals over what it seeded (the detect job). Detection is per series, so the signals of
  // the indicators the examples name are what it writes for them; the rest of the catalog is seconds of work no
  // example reads.
  const named = new Set(operations.flatMap((e) => exampleRequests(e).flatMap(indicatorsOf)));
  const catalog = await t.deps.caches.catalog.catalog();
  const ids = [...catalog.byId.values()].filter((i) => named.has(i.code)).map((i) => i.id);
  expect(ids.length).toBeGreaterThan(0);
  await detectSignalsForIndicators({ ...t.store, now: () => t.clock.now() }, ids);
});
afterAll(() => t.close());

// Parameters an operation takes one at a time (spec: latest is either the single or the batch form): one example
// request per alternative, without the others.
const ALTERNATIVES: Record<string, string[]> = { get_latest: ["indicator", "indicators"] };

const isPaid = (op: JsonObject) => op["x-price-usd"] !== undefined;
const isCatalog = (op: JsonObject) => (op.tags ?? []).includes("Catalog");

/** The example requests of one operation: path and query filled from the parameters' examples. */
function exampleRequests(e: OperationEntry): string[] {
  const params = (e.operation.parameters ?? []) as JsonObject[];
  const exampleOf = (p: JsonObject) => p.example ?? p.schema?.example;
  const path = e.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = exampleOf(params.find((p) => p.in === "path" && p.name === name) ?? {});
    if (value === undefined) throw new Error(`${e.path}: path parameter ${name} has no example`);
    return encodeURIComponent(String(value));
  });
  const query = params.filter((p) => p.in === "query" && exampleOf(p) !== undefined);
  const alternatives = ALTERNATIVES[e.operation.operationId] ?? [];
  const variants = alternatives.length
    ? alternatives.map((keep) => query.filter((p) => p.name === keep || !alternatives.includes(p.name)))
    : [query];
  return variants.map((ps) => {
    const qs = new URLSearchParams(ps.map((p): [string, string] => [p.name, String(exampleOf(p))])).toString();
    return qs ? `${path}?${qs}` : path;
  });
}

/** The indicator codes an example request names (`indicator`, or the comma-separated `indicators`). */
function indicatorsOf(url: string): string[] {
  const q = new URL(url, "http://x").searchParams;
  return [q.get("indicator"), ...(q.get("indicators")?.split(",") ?? [])].filter((c): c is string => !!c);
}

const operations = listOperations(doc).filter(
  (e) => e.method === "get" && (isPaid(e.operation) || isCatalog(e.operation)),
);

describe("documented examples answer on a fresh install", () => {
  test("the contract has paid and catalog operations with examples", () => {
    expect(operations.filter((e) => isPaid(e.operation)).length).toBeGreaterThan(0);
    expect(operations.filter((e) => isCatalog(e.operation)).length).toBeGreaterThan(0);
    for (const alternative of Object.keys(ALTERNATIVES))
      expect(operations.map((e) => e.operation.operationId)).toContain(alternative);
  });

  for (const e of operations) {
    for (const url of exampleRequests(e)) {
      test(`${e.operation.operationId}: GET ${url}`, async () => {
        const res = await t.request(url, { headers: isPaid(e.operation) ? headers : {} });
        // A picture (GET /v1/chart) is checked as one: a 200 SVG document.
        if (res.headers.get("content-type")?.startsWith("image/svg+xml")) {
          expect({ url, status: res.status, svg: (await res.text()).trimStart().startsWith("<svg") }).toEqual({
            url,
            status: 200,
            svg: true,
          });
          return;
        }
        const body = (await res.json()) as JsonObject;
        expect({ url, status: res.status, error: body.error ?? null }).toEqual({ url, status: 200, error: null });
        // Data, not an empty page: a list has rows, a single read has its value.
        const data = body.data;
        expect({ url, empty: data === null || (Array.isArray(data) && data.length === 0) }).toEqual({
          url,
          empty: false,
        });
        if (Array.isArray(body.errors)) expect(body.errors).toEqual([]);
      });
    }
  }
});
