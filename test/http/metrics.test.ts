// GET /metrics (src/http/metrics.ts): Prometheus text, only with METRICS_TOKEN and its Bearer token (404 otherwise),
// read back with an independent parser of the text format (parse-prometheus-text-format, a port of the Prometheus
// Python client's parser). Counts are checked exactly after a known sequence of requests: paid (L402), keyed, refused,
// answered by the page memo; cache, upstream, metering and dependency series are present with their labels.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { APERTURE_CHALLENGE, makePaymentsApp } from "../support/payments";
import { makeTestApp } from "../support/app";
import { bearer, testKey } from "../support/keys";
import { createConnectors } from "../../src/upstream";
import { listRegions } from "../../db/repos/regions";

setDefaultTimeout(120_000);

const TOKEN = "metrics-token-0123456789abcdef";
const PAGE = "/v1/observations?indicator=UNRATE&region=US&limit=2";
let t: Awaited<ReturnType<typeof makePaymentsApp>>;

type Family = {
  name: string;
  type: string;
  metrics: { value?: string; labels?: Record<string, string>; buckets?: Record<string, string>; count?: string }[];
};

let lastText = "";
async function scrape(): Promise<Map<string, Family>> {
  const res = await t.request("/metrics", { headers: bearer(TOKEN) });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
  lastText = await res.text();
  const families = parsePrometheusTextFormat(lastText) as Family[];
  return new Map(families.map((f) => [f.name, f]));
}

/**
 * A labelled histogram's `_count` sample. The parser merges a histogram's label sets into one set of buckets (it reads
 * unlabelled histograms only), so this one line is read from the text as the format defines it.
 */
function histogramCount(text: string, labels: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`svc_http_request_duration_seconds_count{${labels}}`));
  return line ? Number(line.slice(line.lastIndexOf(" ") + 1)) : 0;
}

/** The value of the sample of `family` whose labels include `labels` (undefined when there is none). */
function sample(m: Map<string, Family>, family: string, labels: Record<string, string>) {
  const f = m.get(family);
  if (!f) throw new Error(`no family ${family}`);
  return f.metrics.find((s) => Object.entries(labels).every(([k, v]) => s.labels?.[k] === v));
}
const valueOf = (m: Map<string, Family>, family: string, labels: Record<string, string>) =>
  Number(sample(m, family, labels)?.value ?? NaN);

beforeAll(async () => {
  // Series heads trusted for an hour: the page memo answers repeated pages (as in production, where it is 1 s).
  t = await makePaymentsApp({ config: { metricsToken: TOKEN, seriesCacheRevalidateMs: 3_600_000 } });
});
afterAll(() => t.close());

describe("GET /metrics", () => {
  test("404 without the token, with a wrong one, or with an API key; the same 404 as any unknown path", async () => {
    const { key } = await testKey(t);
    const unknown = await t.request("/no-such-path");
    expect(unknown.status).toBe(404);
    const expected = (await unknown.json()) as { error: Record<string, unknown> };
    const attempts: Record<string, string>[] = [
      {},
      bearer(TOKEN.slice(0, -1)),
      bearer(`${TOKEN}x`),
      { authorization: TOKEN },
      bearer(key),
      { "x-api-key": key },
    ];
    for (const headers of attempts) {
      const res = await t.request("/metrics", { headers });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({
        ...expected,
        error: { ...expected.error, message: "No route for GET /metrics" },
      });
    }
    expect((await t.request("/metrics", { method: "POST", headers: bearer(TOKEN) })).status).toBe(404);
  });

  test("without METRICS_TOKEN there is no /metrics at all", async () => {
    const plain = await makeTestApp({ database: t.database });
    try {
      expect((await plain.request("/metrics", { headers: bearer(TOKEN) })).status).toBe(404);
      expect((await plain.request("/metrics")).status).toBe(404);
    } finally {
      await plain.deps.keys.close();
    }
  });

  test("requests by route pattern and status (page memo answers included), verdicts, payments, caches, metering", async () => {
    const before = await scrape();
    const beforeText = lastText;
    const was = (family: string, labels: Record<string, string>) =>
      sample(before, family, labels) ? valueOf(before, family, labels) : 0;
    const { key } = await testKey(t, { rateLimitPerMinute: 1000 });

    // Keyed: the same page three times, the later ones from the page memo, which answers before the router (on
    // PostgreSQL the memo may first check the catalog across processes, so it answers one or two of them).
    const served = t.app.pages!.served;
    for (let i = 0; i < 3; i++) expect((await t.request(PAGE, { headers: bearer(key) })).status).toBe(200);
    expect(t.app.pages!.served - served).toBeGreaterThanOrEqual(1);
    // Paid with L402: challenge, pay, retry.
    const challenge = await t.request("/test/paid?indicator=GDP");
    expect(challenge.status).toBe(402);
    const m = APERTURE_CHALLENGE.exec(challenge.headers.get("www-authenticate")!)!;
    const paid = t.dev.pay(m[3]!);
    if (!paid.ok) throw new Error(paid.message);
    expect(
      (await t.request("/test/paid?indicator=GDP", { headers: { authorization: `L402 ${m[2]}:${paid.preimage}` } }))
        .status,
    ).toBe(200);
    // Refused: a malformed key on a paid route.
    expect((await t.request(PAGE, { headers: { "x-api-key": "svc_live_nope" } })).status).toBe(401);

    const after = await scrape();
    const delta = (family: string, labels: Record<string, string>) =>
      valueOf(after, family, labels) - was(family, labels);
    expect(delta("svc_http_requests_total", { method: "GET", route: "/v1/observations", status: "200" })).toBe(3);
    expect(delta("svc_http_requests_total", { method: "GET", route: "/v1/observations", status: "401" })).toBe(1);
    expect(delta("svc_http_requests_total", { method: "GET", route: "/test/paid", status: "402" })).toBe(1);
    expect(delta("svc_http_requests_total", { method: "GET", route: "/test/paid", status: "200" })).toBe(1);
    // Latency histogram: one observation per request, in cumulative buckets.
    expect(after.get("svc_http_request_duration_seconds")!.type).toBe("HISTOGRAM");
    const labels = 'method="GET",route="/v1/observations",status="200"';
    expect(histogramCount(lastText, labels) - histogramCount(beforeText, labels)).toBe(3);
    expect(lastText).toContain(
      `svc_http_request_duration_seconds_bucket{le="+Inf",${labels}} ${histogramCount(lastText, labels)}\n`,
    );
    // No raw paths as labels.
    expect(after.get("svc_http_requests_total")!.metrics.every((s) => !s.labels!.route!.includes("?"))).toBe(true);

    expect(delta("svc_admission_verdicts_total", { verdict: "admitted", reason: "key" })).toBe(3);
    expect(delta("svc_admission_verdicts_total", { verdict: "admitted", reason: "payment" })).toBe(1);
    expect(delta("svc_admission_verdicts_total", { verdict: "refused", reason: "PAYMENT_REQUIRED" })).toBe(1);
    expect(delta("svc_admission_verdicts_total", { verdict: "refused", reason: "INVALID_API_KEY" })).toBe(1);
    expect(delta("svc_payments_total", { rail: "l402", step: "verified" })).toBe(1);
    expect(delta("svc_payments_total", { rail: "l402", step: "settled" })).toBe(1);
    // Every memo answer is counted (the refused request too, when the memo answered it: the verdict is the core's).
    expect(delta("svc_cache_lookups_total", { cache: "page_memo", result: "hit" })).toBe(t.app.pages!.served - served);
    expect(valueOf(after, "svc_cache_lookups_total", { cache: "series_page", result: "miss" })).toBeGreaterThan(0);
    expect(delta("svc_metered_requests_total", {})).toBe(3);
    expect(valueOf(after, "svc_dependency_up", { dependency: "database" })).toBe(1);
    expect(sample(after, "svc_dependency_up", { dependency: "redis" })).toBeUndefined();
    expect(after.get("svc_job_queue_jobs")!.type).toBe("GAUGE");
    expect(after.get("svc_metering_journal_lag_seconds")!.type).toBe("GAUGE");
  });

  test("upstream requests and errors per source, each attempt", async () => {
    let calls = 0;
    const upstream = createConnectors(t.deps.config, {
      maxAttempts: 1,
      fetch: (async () =>
        calls++ === 0
          ? new Response("not json", { status: 200 })
          : new Response("gone", { status: 404 })) as unknown as typeof fetch,
    });
    const app = await makeTestApp({ database: t.database, upstream, config: { metricsToken: TOKEN } });
    try {
      const catalog = await app.deps.caches.catalog.catalog();
      const indicator = [...catalog.byId.values()].find(
        (i) => (i.meta as any)?.upstream?.api === "worldbank" && i.defaultRegionCode,
      )!;
      const region = (await listRegions(app.database.db)).find((r) => r.code === indicator.defaultRegionCode)!;
      const ref = upstream.refFor(indicator as any, region as any)!;
      expect(ref).not.toBeNull();
      for (let i = 0; i < 2; i++) await expect(upstream.connector("worldbank").fetch([ref])).rejects.toThrow();
      const res = await app.request("/metrics", { headers: bearer(TOKEN) });
      const m = new Map((parsePrometheusTextFormat(await res.text()) as Family[]).map((f) => [f.name, f]));
      expect(valueOf(m, "svc_upstream_requests_total", { source: "worldbank", outcome: "protocol" })).toBe(1);
      expect(valueOf(m, "svc_upstream_requests_total", { source: "worldbank", outcome: "not_found" })).toBe(1);
    } finally {
      await app.deps.keys.close();
    }
  });
});
