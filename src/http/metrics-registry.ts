// The Prometheus registry behind GET /metrics (src/http/metrics.ts), made only when METRICS_TOKEN is set.
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { Deps } from "../deps";
import type { Admission } from "../services/admission";
import { checkHealth } from "../services/health";
import type { PageMemo } from "../services/page-memo";

const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** A counter whose values are kept elsewhere (a map of tab-joined label values to counts), read at each scrape. */
function mirroredCounter(
  registry: Registry,
  name: string,
  help: string,
  labelNames: string[],
  read: () => Iterable<[string, number]>,
): void {
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

export type MetricsSources = {
  deps: Deps;
  admission: Admission;
  pages: PageMemo | undefined;
  routeOf: (method: string, path: string) => string;
};

export function registryOf(src: MetricsSources) {
  const { deps, admission } = src;
  const registry = new Registry();
  const requests = new Counter({
    name: "svc_http_requests_total",
    help: "HTTP requests answered, by method, route pattern and status.",
    labelNames: ["method", "route", "status"],
    registers: [registry],
  });
  const latency = new Histogram({
    name: "svc_http_request_duration_seconds",
    help: "Time until the response (its headers) was ready, by method, route pattern and status.",
    labelNames: ["method", "route", "status"],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  mirroredCounter(
    registry,
    "svc_admission_verdicts_total",
    "Verdicts of the admission core: admitted (by key, payment or anonymous) or refused (by error code); entitlement and metering refusals after a key was admitted are counted too.",
    ["verdict", "reason"],
    () => admission.counts.verdicts,
  );
  mirroredCounter(
    registry,
    "svc_payments_total",
    "Payment proofs verified and reserved, settled, or failing settlement, per rail (x402, l402).",
    ["rail", "step"],
    () => admission.counts.payments,
  );
  mirroredCounter(
    registry,
    "svc_upstream_requests_total",
    "Requests sent to upstream data providers (each attempt), by source and outcome (ok, or the error kind).",
    ["source", "outcome"],
    () => deps.upstream.counts ?? [],
  );
  mirroredCounter(
    registry,
    "svc_cache_lookups_total",
    "In-memory cache lookups by cache and result (the page memo counts its answers, all hits).",
    ["cache", "result"],
    function* () {
      const s = deps.caches.series.stats;
      for (const [cache, c] of [
        ["series_head", s.head],
        ["series", s.series],
        ["series_page", s.page],
      ] as const) {
        yield [`${cache}\thit`, c.hits];
        yield [`${cache}\tmiss`, c.misses];
      }
      if (src.pages) yield ["page_memo\thit", src.pages.served];
    },
  );
  mirroredCounter(
    registry,
    "svc_metered_requests_total",
    "Keyed requests counted in this process's usage journal.",
    [],
    function* () {
      const s = deps.keys.meter.stats?.();
      if (s) yield ["", s.counted];
    },
  );
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
      for (const q of counts ?? [])
        for (const state of ["queued", "active", "deferred", "failed"] as const)
          this.set({ queue: q.queue, state }, q[state]);
    },
  });
  const up = new Gauge({
    name: "svc_dependency_up",
    help: "Whether a dependency answers: the database (a select within 2 s), Redis (rate-limit counters shared) when REDIS_URL is set.",
    labelNames: ["dependency"],
    registers: [registry],
  });
  const collectUp = async () => {
    const health = await checkHealth(deps.database, deps.rateLimits, { version: deps.version });
    up.set({ dependency: "database" }, health.database.ok ? 1 : 0);
    if (deps.rateLimits.kind === "redis") up.set({ dependency: "redis" }, health.rate_limits.shared ? 1 : 0);
  };
  return { registry, requests, latency, collectUp };
}
