// The single gate every paid route goes through (DESIGN.md "The paid-route pipeline"):
//   validated input -> resolve (may 404/202 for free) -> quote -> access.authorize (key entitlement
//   and allowance, or payment verification / 402) -> handler -> settle only below 400 -> a 200 whose route says how it
//   can be replayed is recorded for the hot-read lane (hot-reads.ts), which answers the same URL again ahead of all this.
// Keys (issue 4) and payments (issue 5) plug in as an AccessGate in Deps; routes never change.
// HEAD never reaches a paid handler: app middleware keyed on the paid() marker (request-guard.ts refusePaidHead)
// answers it 405, since it would be charged and return no data.
import type { Context } from "hono";
import { quote as priceQuote, type Quote, type Resolved, type Surface } from "../pricing";
import type { AppEnv } from "./app-env";
import type { AuthenticatedKey } from "./auth";

/**
 * What authorize() grants. `response`: an answer instead of the handler (the 402 challenge; nothing runs, nothing
 * is charged). `settle`: runs after a handler answered below 400 and may replace the response (a failed settlement
 * withholds the data). `release`: runs instead when the handler answered 400 or more or threw, so whatever was
 * reserved for this request (a payment proof) is given back unused.
 */
export type Grant = { response?: Response; settle?(res: Response): Promise<Response>; release?(): Promise<void> };

/**
 * What a gate grants the hot-read lane (src/http/hot-reads.ts): `settle` runs once the answer is certain to leave,
 * with the request's key and time (so one grant serves every request: nothing is built per request).
 */
export type HotGrant = { settle?(key: AuthenticatedKey | null, now: Date): void };

export type AccessGate = {
  authorize(c: Context<AppEnv>, quote: Quote, resolved: Resolved): Promise<Grant>;
  /**
   * The same decision for the hot-read lane, made without I/O from the request's key (already authenticated from
   * the key cache) or its absence: a grant, or null when only the full pipeline can decide (a payment to verify, a
   * refusal to explain). A gate without it sends every request through the full pipeline. The answer must depend
   * on the arguments alone: the lane keeps it for the same key object and URL.
   */
  authorizeHot?(key: AuthenticatedKey | null, quote: Quote, resolved: Resolved): HotGrant | null;
};

/** No access layer configured: everything is served (development before keys and payments exist). */
export const openAccess: AccessGate = { authorize: async () => ({}), authorizeHot: () => ({}) };

export type PaidOptions<R extends Resolved> = {
  surface: Surface | ((resolved: R) => Surface);
  /**
   * A request to this route (path and query) that is priced in the seeded database, e.g.
   * "/v1/observations?indicator=GDP&region=US". The shared paid-route contract test calls every paid route with it.
   */
  example?: string;
  /**
   * Optional: a request to this route that passes resolve and payment and then fails in the handler (a 4xx that
   * only the data can reveal, e.g. an index base date the series does not have), bought with the same binding and
   * price as `example`. The contract test checks that such a failure is never settled on either rail.
   */
  failing?: string;
  resolve(c: Context<AppEnv>): Promise<R | Response>;
  handler(c: Context<AppEnv>, resolved: R, quote: Quote): Promise<Response>;
  /**
   * Optional: after the handler answered 200, how the hot-read lane may answer the same URL again: a check, without
   * I/O, that returns the body a full read would return now, or null when only a full read can tell. Null when this
   * answer cannot be replayed (it depends on more than the URL and the data version).
   */
  hot?(resolved: R): (() => Blob | null) | null;
};

/** Marks the handlers paid() builds, so the paid routes registered on an app can be listed (paidRoutes). */
const PAID_ROUTE = Symbol.for("svc.paid-route");

export type PaidRouteInfo = { method: string; path: string; surface: Surface | "dynamic"; example: string | null; failing: string | null };

export function paid<R extends Resolved>(gate: () => AccessGate, opts: PaidOptions<R>) {
  const handler = async (c: Context<AppEnv>): Promise<Response> => {
    const resolved = await opts.resolve(c);
    // A 202 (provisioning) or other early answer from resolve costs nothing.
    if (resolved instanceof Response) return resolved;
    const surface = typeof opts.surface === "function" ? opts.surface(resolved) : opts.surface;
    const q = priceQuote(surface, resolved);
    const grant = await gate().authorize(c, q, resolved);
    if (grant.response) return grant.response;
    let res: Response;
    try {
      res = await opts.handler(c, resolved, q);
    } catch (e) {
      await grant.release?.();
      throw e;
    }
    if (res.status >= 400) {
      await grant.release?.();
      return res;
    }
    const out = grant.settle ? await grant.settle(res) : res;
    if (out.status === 200 && opts.hot) {
      const body = opts.hot(resolved);
      if (body) c.get("hotReads")?.record(c.req.url, { body, contentType: out.headers.get("content-type") ?? "application/json", quote: q, resolved });
    }
    return out;
  };
  Object.defineProperty(handler, PAID_ROUTE, {
    value: { surface: typeof opts.surface === "function" ? "dynamic" : opts.surface, example: opts.example ?? null, failing: opts.failing ?? null },
  });
  return handler;
}

/** What paid() recorded on a route handler; undefined for a handler paid() did not build. */
function paidInfoOf(handler: unknown): Omit<PaidRouteInfo, "method" | "path"> | undefined {
  if (typeof handler !== "function") return undefined;
  // Hono wraps handlers of mounted sub-apps and keeps the original under a symbol key.
  const candidates = [handler, ...Object.getOwnPropertySymbols(handler).map((s) => (handler as any)[s])];
  return candidates.map((h) => (typeof h === "function" ? (h as any)[PAID_ROUTE] : undefined)).find(Boolean);
}

/** Whether a route handler (as Hono's router or `app.routes` holds it) is a paid route's. */
export function isPaidHandler(handler: unknown): boolean {
  return paidInfoOf(handler) !== undefined;
}

/** Every route registered on `app` whose handler was built by paid(), in registration order. */
export function paidRoutes(app: { routes: Array<{ method: string; path: string; handler: unknown }> }): PaidRouteInfo[] {
  const out: PaidRouteInfo[] = [];
  for (const r of app.routes) {
    const info = paidInfoOf(r.handler);
    if (info) out.push({ method: r.method, path: r.path, ...info });
  }
  return out;
}
