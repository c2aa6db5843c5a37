// The app's table of declared routes: every paid operation (paid.ts registerPaid), every free operation (free.ts
// registerFreeOperations) and every route with an admission purpose of its own (route-purpose.ts registerWithPurpose)
// is recorded here by the call that registers it on Hono, once, under its method and route path. The app middleware
// that runs before a route's handler (the key middleware, HEAD refusal, 405's Allow), the MCP endpoint, and the tests
// that call every paid route read it from here, keyed by the route the request matched (Hono's matchedRoutes): a
// route that declared nothing is a keyed one.
// One table per app (App.registry), filled while routes are registered and only read once the app serves.
import type { Context } from "hono";
import { matchedRoutes } from "hono/route";
import type { Surface } from "../pricing";
import type { Purpose } from "../services/admission";

/**
 * How a request to a route is admitted: a purpose of the admission core (src/services/admission.ts Purpose), or
 * `envelope` (the MCP endpoint: not admitted itself; each tool call is admitted as its REST twin is, by the paid
 * operation's own gate or, for a free tool, as the keyed catalog route it stands for).
 */
export type RoutePurpose = Purpose | "envelope";

export type RouteAdmission = {
  readonly purpose: RoutePurpose;
  /** An expired key is still let through (revoking a lapsed key). */
  readonly allowExpired: boolean;
};

export type PaidRouteInfo = {
  method: string;
  path: string;
  surface: Surface | "dynamic";
  /** Every surface the route can be priced at (a dynamic surface picks one of them per request). */
  surfaces: Surface[];
  example: string | null;
  failing: string | null;
  /** Why it cannot fail once paid, when it names no `failing` example (paid.ts PaidOptions). */
  cannotFailOncePaid: string | null;
  /** The operation the route runs (paid.ts PaidOperation), for the hosts that call it without HTTP (MCP). */
  operation: object;
};

/**
 * One declared route: its method (upper case, `ALL` for every method) and Hono path (`/v1/regions/:code`); a paid
 * operation's description, or a free operation (free.ts FreeDefinition) that hosts other than REST may call.
 */
export type DeclaredRoute = {
  method: string;
  path: string;
  admission: RouteAdmission;
  paid: PaidRouteInfo | null;
  free: object | null;
};

const PAID: RouteAdmission = Object.freeze({ purpose: "paid", allowExpired: false });
const KEYED: RouteAdmission = Object.freeze({ purpose: "keyed", allowExpired: false });

/** An OpenAPI route path (`/v1/regions/{code}`) as Hono routes it (`/v1/regions/:code`). */
export const honoPath = (path: string) => path.replace(/\{([^}]+)\}/g, ":$1");

export class RouteRegistry {
  // Bounded: one entry per route the app registers, all recorded before it serves.
  private readonly byRoute = new Map<string, DeclaredRoute>();

  /** Records how requests to a route are admitted, with its paid operation when it has one. Once per route. */
  declare(
    method: string,
    path: string,
    admission: Exclude<RoutePurpose, "paid" | "keyed">,
    opts?: { allowExpired?: boolean },
  ): void;
  declare(method: string, path: string, admission: "paid", paid: Omit<PaidRouteInfo, "method" | "path">): void;
  declare(
    method: string,
    path: string,
    purpose: RoutePurpose,
    extra: { allowExpired?: boolean } | Omit<PaidRouteInfo, "method" | "path"> = {},
  ): void {
    const m = method.toUpperCase();
    const key = `${m} ${path}`;
    if (this.byRoute.has(key)) throw new Error(`${key} is declared twice`);
    const paid = purpose === "paid" ? { method: m, path, ...(extra as Omit<PaidRouteInfo, "method" | "path">) } : null;
    const admission = paid
      ? PAID
      : Object.freeze({ purpose, allowExpired: (extra as { allowExpired?: boolean }).allowExpired === true });
    this.byRoute.set(key, { method: m, path, admission, paid, free: null });
  }

  /** Records a free operation (admitted as any keyed route), which hosts other than REST call directly. Once per route. */
  declareFree(method: string, path: string, operation: object): void {
    const m = method.toUpperCase();
    const key = `${m} ${path}`;
    if (this.byRoute.has(key)) throw new Error(`${key} is declared twice`);
    this.byRoute.set(key, { method: m, path, admission: KEYED, paid: null, free: operation });
  }

  /**
   * The paid or free operation that answers `method` on the request path `pathname` (`/v1/regions/US-CA`), or
   * undefined: for the hosts that call operations without routing a request (MCP), once every route is registered.
   */
  operationAt(method: string, pathname: string): DeclaredRoute | undefined {
    const m = method.toUpperCase();
    const segments = pathname.split("/");
    for (const r of this.byRoute.values()) {
      if (r.method !== m || (!r.paid && !r.free)) continue;
      const parts = r.path.split("/");
      if (
        parts.length === segments.length &&
        parts.every((p, k) => p === segments[k] || (p.startsWith(":") && segments[k] !== ""))
      )
        return r;
    }
    return undefined;
  }

  /** The route declared for `method` (as Hono matched it: GET for a HEAD) and the Hono path `path`. */
  at(method: string, path: string): DeclaredRoute | undefined {
    return this.byRoute.get(`${method} ${path}`);
  }

  /** The declared route this request matched (app middleware, method ALL, is never one), if any. */
  matched(c: Context): DeclaredRoute | undefined {
    for (const r of matchedRoutes(c)) {
      const found = this.byRoute.get(`${r.method} ${r.path}`);
      if (found) return found;
    }
    return undefined;
  }

  /** How the route this request matched is admitted (no route matched, or one that declared nothing: keyed). */
  admission(c: Context): RouteAdmission {
    return this.matched(c)?.admission ?? KEYED;
  }

  /** Every paid route, in registration order. */
  paidRoutes(): PaidRouteInfo[] {
    return [...this.byRoute.values()].flatMap((r) => (r.paid ? [r.paid] : []));
  }

  /** The price surfaces the paid routes use, each once. */
  paidSurfaces(): Surface[] {
    return [...new Set(this.paidRoutes().flatMap((r) => r.surfaces))];
  }

  /** Every route that declared a purpose of its own (not paid, not keyed), in registration order (for tests and docs). */
  declaredPurposes(): Array<{ method: string; path: string } & RouteAdmission> {
    return [...this.byRoute.values()].flatMap((r) =>
      r.paid || r.free ? [] : [{ method: r.method, path: r.path, ...r.admission }],
    );
  }
}
