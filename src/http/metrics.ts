// GET /metrics: Prometheus text exposition (prom-client), for operators. Answered only when METRICS_TOKEN is set and
// the request carries `Authorization: Bearer <METRICS_TOKEN>` (compared in constant time); any other request for it
// is the app's ordinary 404. It is wrapped around the app's fetch, outside the page memo, so requests answered by the
// memo are counted like the others; the route label is the pattern the app's own router matches (never the raw path).
// What other parts count (admission, caches, upstream, meter, jobs) is read from them when scraped.
import type { Router } from "hono/router";
import { sameDigest, sha256Hex } from "../domain/keys";
import type { MetricsSources, registryOf } from "./metrics-registry";
import { requestTarget } from "./url-parts";

type Fetch = (req: Request, env?: any, ctx?: any) => Response | Promise<Response>;
type RouterRoute = { method: string; path: string };

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

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

/** The app's fetch with /metrics in front of it and every answer counted (when METRICS_TOKEN is set). */
export function withMetrics(fetch: Fetch, token: string | null, sources: MetricsSources): Fetch {
  const expected = token ? sha256Hex(`Bearer ${token}`) : null;
  // prom-client is loaded only when metrics are on (it is about 20 MB of a node's memory).
  const m = token ? (require("./metrics-registry") as { registryOf: typeof registryOf }).registryOf(sources) : null;
  const scrape = async (req: Request): Promise<Response> => {
    await m!.collectUp();
    const text = await m!.registry.metrics();
    const res = new Response(req.method === "HEAD" ? null : text, {
      headers: { "Content-Type": m!.registry.contentType, "Cache-Control": "no-store" },
    });
    if (req.method === "HEAD") res.headers.set("Content-Length", String(Buffer.byteLength(text)));
    return res;
  };
  const observe = (req: Request, res: Response, started: number) => {
    const target = requestTarget(req.url);
    const q = target.indexOf("?");
    const labels = {
      method: METHODS.has(req.method) ? req.method : "other",
      route: sources.routeOf(req.method, q < 0 ? target : target.slice(0, q)),
      status: String(res.status),
    };
    m!.requests.inc(labels);
    m!.latency.observe(labels, (performance.now() - started) / 1000);
  };
  return (req, ...rest) => {
    const target = requestTarget(req.url);
    if (target === "/metrics" || target.startsWith("/metrics?")) {
      const authorized =
        expected !== null &&
        (req.method === "GET" || req.method === "HEAD") &&
        sameDigest(sha256Hex(req.headers.get("authorization") ?? ""), expected);
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
