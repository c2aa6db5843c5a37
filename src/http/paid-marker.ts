// Marks the handlers paid() builds, so the paid routes of an app can be found (the key middleware leaves them to
// paid(), HEAD is refused on them, the shared contract test calls each one) without importing the gate itself.
import type { Context } from "hono";
import { matchedRoutes } from "hono/route";
import type { Surface } from "../pricing";
import { markHandler, markReader } from "./route-marks";

const PAID_ROUTE = Symbol.for("svc.paid-route");

export type PaidRouteInfo = {
  method: string;
  path: string;
  surface: Surface | "dynamic";
  /** Every surface the route can be priced at (a dynamic surface picks one of them per request). */
  surfaces: Surface[];
  example: string | null;
  failing: string | null;
  /** The operation the route runs (paid.ts PaidOperation), for the hosts that call it without HTTP (MCP). */
  operation: object;
};

export function markPaid(handler: object, info: Omit<PaidRouteInfo, "method" | "path">): void {
  markHandler(handler, PAID_ROUTE, info);
}

/** What paid() recorded on a route handler; undefined for a handler paid() did not build. */
const paidInfoOf = markReader<Omit<PaidRouteInfo, "method" | "path">>(PAID_ROUTE);

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

/** Whether the route this request matched is a paid one. */
export function isPaidRoute(c: Context): boolean {
  return matchedRoutes(c).some((r) => r.method !== "ALL" && isPaidHandler(r.handler));
}

/** The price surfaces the paid routes registered on `app` use, each once. */
export function paidSurfaces(app: Parameters<typeof paidRoutes>[0]): Surface[] {
  return [...new Set(paidRoutes(app).flatMap((r) => r.surfaces))];
}
