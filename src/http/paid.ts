// The single gate every paid route goes through (DESIGN.md "The paid-route pipeline"):
//   validated input -> resolve (may 404/202 for free) -> quote -> access.authorize (key entitlement
//   and allowance, or payment verification / 402) -> handler -> settle only below 400.
// Keys (issue 4) and payments (issue 5) plug in as an AccessGate in Deps; routes never change.
import type { Context } from "hono";
import { quote as priceQuote, type Quote, type Resolved, type Surface } from "../pricing";
import type { AppEnv } from "./app-env";

/**
 * What authorize() grants. `response`: an answer instead of the handler (the 402 challenge; nothing runs, nothing
 * is charged). `settle`: runs after a handler answered below 400 and may replace the response (a failed settlement
 * withholds the data). `release`: runs instead when the handler answered 400 or more or threw, so whatever was
 * reserved for this request (a payment proof) is given back unused.
 */
export type Grant = { response?: Response; settle?(res: Response): Promise<Response>; release?(): Promise<void> };

export type AccessGate = {
  authorize(c: Context<AppEnv>, quote: Quote, resolved: Resolved): Promise<Grant>;
};

/** No access layer configured: everything is served (development before keys and payments exist). */
export const openAccess: AccessGate = { authorize: async () => ({}) };

export type PaidOptions<R extends Resolved> = {
  surface: Surface | ((resolved: R) => Surface);
  /**
   * A request to this route (path and query) that is priced in the seeded database, e.g.
   * "/v1/observations?indicator=GDP&region=US". The shared paid-route contract test calls every paid route with it.
   */
  example?: string;
  resolve(c: Context<AppEnv>): Promise<R | Response>;
  handler(c: Context<AppEnv>, resolved: R, quote: Quote): Promise<Response>;
};

/** Marks the handlers paid() builds, so the paid routes registered on an app can be listed (paidRoutes). */
const PAID_ROUTE = Symbol.for("svc.paid-route");

export type PaidRouteInfo = { method: string; path: string; surface: Surface | "dynamic"; example: string | null };

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
    return grant.settle ? grant.settle(res) : res;
  };
  Object.defineProperty(handler, PAID_ROUTE, {
    value: { surface: typeof opts.surface === "function" ? "dynamic" : opts.surface, example: opts.example ?? null },
  });
  return handler;
}

/** Every route registered on `app` whose handler was built by paid(), in registration order. */
export function paidRoutes(app: { routes: Array<{ method: string; path: string; handler: unknown }> }): PaidRouteInfo[] {
  const out: PaidRouteInfo[] = [];
  for (const r of app.routes) {
    // Hono wraps handlers of mounted sub-apps and keeps the original under a symbol key.
    const candidates = [r.handler, ...Object.getOwnPropertySymbols(r.handler ?? {}).map((s) => (r.handler as any)[s])];
    const info = candidates.map((h) => (typeof h === "function" ? (h as any)[PAID_ROUTE] : undefined)).find(Boolean);
    if (info) out.push({ method: r.method, path: r.path, ...info });
  }
  return out;
}
