// GET /metrics: Prometheus text exposition (prom-client), for operators. Answered only when METRICS_TOKEN is set and
// the request carries `Authorization: Bearer <METRICS_TOKEN>` (compared in constant time); any other request for it
// is the app's ordinary 404. It is wrapped around the app's fetch, outside the page memo, so requests answered by the
// memo are counted like the others; the route label is the pattern the app's own router matches (never the raw path).
// What other parts count (admission, caches, upstream, meter, jobs) is read from them when scraped.
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { Router } from "hono/router";
import type { Deps } from "../deps";
import type { Admission } from "../services/admission";
import { sameDigest, sha256Hex } from "../domain/keys";
import { checkHealth } from "../services/health";
import type { PageMemo } from "./page-memo";
import { requestTarget } from "./url-parts";

type Fetch = (req: Request, env?: any, ctx?: any) => Response | Promise<Response>;
type RouterRoute = { method: string; path: string };

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The route pattern a request matches in the app's router (Hono's `/v1/series/:id`), or "unmatched". */
export function routePatterns(router: Router<[unknown, RouterRoute]>): (method: string, path: string) => string {
  return (method, path) => {
    const [matched] = router.match(method === "HEAD" ? "GET" : method, path);
    let route: string | null = null;
    // The last handler for a method is the route's own; method-less ones are middleware (or an all-methods route).
    for (const m of matched) {
      const r = m[0][1];
      if (r.method !== "ALL") route = r.path;
      else if (route === null && !r.path.includes("*")) route = r.path;
    }
    return route ?? "unmatched";
  };
}

/** A counter whose values are kept elsewhere (a map of tab-joined label values to counts), read at each scrape. */
function mirroredCounter(registry: Registry, name: string, help: string, labelNames: string[], read: () => Iterable<[string, number]>): void {
  new Counter({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      for (const [k, v] of read()) {
        const values = k.split("\t");
        this.inc(Object.fromEntries(labelNames.map((l, i) => [l, values[i] ?? ""])), v);
      }
    },
  });
}

export type MetricsSources = { deps: Deps; admission: Admission; pages: PageMemo | undefined; routeOf: (method: string, path: string) => string };

function registryOf(src: MetricsSources) {
  const { deps, admission } = src;
  const registry = new Registry();
  const requests = new Counter({ name: "svc_http_requests_total", help: "HTTP requests answered, by method, route pattern and status.", labelNames: ["method", "route", "status"], registers: [registry] });
  const latency = new Histogram({
    name: "svc_http_request_duration_seconds",
    help: "Time until the response (its headers) was ready, by method, route pattern and status.",
    labelNames: ["method", "route", "status"],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  mirroredCounter(registry, "svc_admission_verdicts_total", "Verdicts of the admission core: admitted (by key, payment or anonymous) or refused (by error code); entitlement and metering refusals after a key was admitted are counted too.", ["verdict", "reason"], () => admission.counts.verdicts);
  mirroredCounter(registry, "svc_payments_total", "Payment proofs verified and reserved, settled, or failing settlement, per rail (x402, l402).", ["rail", "step"], () => admission.counts.payments);
  mirroredCounter(registry, "svc_upstream_requests_total", "Requests sent to upstream data providers (each attempt), by source and outcome (ok, or the error kind).", ["source", "outcome"], () => deps.upstream.counts ?? []);
  mirroredCounter(registry, "svc_cache_lookups_total", "In-memory cache lookups by cache and result (the page memo counts its answers, all hits).", ["cache", "result"], function* () {
    const s = deps.caches.series.stats;
    for (const [cache, c] of [["series_head", s.head], ["series", s.series], ["series_page", s.page]] as const) {
      yield [`${cache}\thit`, c.hits];
      yield [`${cache}\tmiss`, c.misses];
    }
    if (src.pages) yield ["page_memo\thit", src.pages.served];
  });
  mirroredCounter(registry, "svc_metered_requests_total", "Keyed requests counted in this process's usage journal.", [], function* () {
    const s = deps.keys.meter.stats?.();
    if (s) yield ["", s.counted];
  });
  new Gauge({
    name: "svc_metering_journal_lag_seconds",
    help: "Seconds since this process last moved its whole usage journal to the database (moves run every 1 s on PostgreSQL, 10 s on the embedded database).",
    registers: [registry],
    collect() {
      const at = deps.keys.meter.stats?.().lastMovedAt;
      if (at != null) this.set(Math.max(0, (deps.clock.now().getTime() - at) / 1000));
    },
  });
  new Gauge({
    name: "svc_job_queue_jobs",
    help: "Jobs per pg-boss queue and state as pg-boss last counted them (failed: failed jobs it still keeps).",
    labelNames: ["queue", "state"],
    registers: [registry],
    async collect() {
      this.reset();
      const counts = await deps.jobs.counts?.().catch(() => null);
      for (const q of counts ?? []) for (const state of ["queued", "active", "deferred", "failed"] as const) this.set({ queue: q.queue, state }, q[state]);
    },
  });
  const up = new Gauge({ name: "svc_dependency_up", help: "Whether a dependency answers: the database (a select within 2 s), Redis (rate-limit counters shared) when REDIS_URL is set.", labelNames: ["dependency"], registers: [registry] });
  const collectUp = async () => {
    const health = await checkHealth(deps.database, deps.rateLimits, { version: deps.version });
    up.set({ dependency: "database" }, health.database.ok ? 1 : 0);
    if (deps.rateLimits.kind === "redis") up.set({ dependency: "redis" }, health.rate_limits.shared ? 1 : 0);
  };
  return { registry, requests, latency, collectUp };
}

/** The app's fetch with /metrics in front of it and every answer counted (when METRICS_TOKEN is set). */
export function withMetrics(fetch: Fetch, token: string | null, sources: MetricsSources): Fetch {
  const expected = token ? sha256Hex(`Bearer ${token}`) : null;
  const m = token ? registryOf(sources) : null;
  const scrape = async (req: Request): Promise<Response> => {
    await m!.collectUp();
    const text = await m!.registry.metrics();
    const res = new Response(req.method === "HEAD" ? null : text, { headers: { "Content-Type": m!.registry.contentType, "Cache-Control": "no-store" } });
    if (req.method === "HEAD") res.headers.set("Content-Length", String(Buffer.byteLength(text)));
    return res;
  };
  const observe = (req: Request, res: Response, started: number) => {
    const target = requestTarget(req.url);
    const q = target.indexOf("?");
    const labels = { method: METHODS.has(req.method) ? req.method : "other", route: sources.routeOf(req.method, q < 0 ? target : target.slice(0, q)), status: String(res.status) };
    m!.requests.inc(labels);
    m!.latency.observe(labels, (performance.now() - started) / 1000);
  };
  return (req, ...rest) => {
    const target = requestTarget(req.url);
    if (target === "/metrics" || target.startsWith("/metrics?")) {
      const authorized = expected !== null && (req.method === "GET" || req.method === "HEAD") && sameDigest(sha256Hex(req.headers.get("authorization") ?? ""), expected);
      if (authorized) return scrape(req);
      // Not for this caller: whatever the app answers an unknown path (404), the credential headers set aside.
      const headers = new Headers(req.headers);
      headers.delete("authorization");
      headers.delete("x-api-key");
      return fetch(new Request(req.url, { method: req.method, headers }), ...rest);
    }
    if (!m) return fetch(req, ...rest);
    const started = performance.now();
    const out = fetch(req, ...rest);
    if (out instanceof Promise) return out.then((res) => (observe(req, res, started), res));
    observe(req, out, started);
    return out;
  };
}
