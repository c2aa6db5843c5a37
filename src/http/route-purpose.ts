// What a route is admitted as, declared where it is registered (src/routes/*) and read by the key middleware
// (admission.ts admitKeyed), which runs before the route: the marks travel on the route's handler (route-marks.ts),
// like the paid marker. A route that declares nothing is a keyed one; a paid() route is admitted by paid() itself.
import type { Context } from "hono";
import { matchedRoutes } from "hono/route";
import type { Purpose } from "../services/admission";
import { isPaidHandler } from "./paid-marker";
import { markHandler, markReader } from "./route-marks";

const ROUTE_PURPOSE = Symbol.for("svc.route-purpose");

/**
 * How a request to a route is admitted: a purpose of the admission core (src/services/admission.ts Purpose), or
 * `envelope` (the MCP endpoint: not admitted itself; each tool call is admitted as its REST twin is: a paid tool by
 * the paid operation's own gate, a free one by running its REST request through the app).
 */
export type RoutePurpose = Purpose | "envelope";

export type RouteAdmission = {
  readonly purpose: RoutePurpose;
  /** An expired key is still let through (revoking a lapsed key). */
  readonly allowExpired: boolean;
};

/** Declares how requests to the route `handler` answers are admitted; returns the handler, for registration. */
export function withPurpose<H extends object>(purpose: Exclude<RoutePurpose, "paid" | "keyed">, handler: H, opts: { allowExpired?: boolean } = {}): H {
  markHandler(handler, ROUTE_PURPOSE, Object.freeze({ purpose, allowExpired: opts.allowExpired === true }));
  return handler;
}

const declaredOf = markReader<RouteAdmission>(ROUTE_PURPOSE);
const PAID: RouteAdmission = Object.freeze({ purpose: "paid", allowExpired: false });
const KEYED: RouteAdmission = Object.freeze({ purpose: "keyed", allowExpired: false });

/** How the route this request matched is admitted (no route matched, or one that declared nothing: keyed). */
export function routeAdmission(c: Context): RouteAdmission {
  for (const r of matchedRoutes(c)) {
    // App middleware (method ALL) carries no mark; a route registered for every method (app.all) may.
    if (r.method !== "ALL" && isPaidHandler(r.handler)) return PAID;
    const declared = declaredOf(r.handler);
    if (declared) return declared;
  }
  return KEYED;
}

/** Every route registered on `app` that declared how it is admitted, in registration order (for tests and docs). */
export function declaredPurposes(app: { routes: Array<{ method: string; path: string; handler: unknown }> }): Array<{ method: string; path: string } & RouteAdmission> {
  const out: Array<{ method: string; path: string } & RouteAdmission> = [];
  for (const r of app.routes) {
    const declared = declaredOf(r.handler);
    if (declared) out.push({ method: r.method, path: r.path, ...declared });
  }
  return out;
}
