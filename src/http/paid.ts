// The single gate every paid route goes through (DESIGN.md "The paid-route pipeline"):
//   validated input -> resolve (may 404/202 for free) -> quote -> access.authorize (key entitlement
//   and allowance, or payment verification / 402) -> handler -> settle only below 400.
// Keys (issue 4) and payments (issue 5) plug in as an AccessGate in Deps; routes never change.
import type { Context } from "hono";
import { quote as priceQuote, type Quote, type Resolved, type Surface } from "../pricing";
import type { AppEnv } from "./app-env";

/** What authorize() grants: settle runs after a successful handler, and may replace the response. */
export type Grant = { settle?(res: Response): Promise<Response> };

export type AccessGate = {
  authorize(c: Context<AppEnv>, quote: Quote, resolved: Resolved): Promise<Grant>;
};

/** No access layer configured: everything is served (development before keys and payments exist). */
export const openAccess: AccessGate = { authorize: async () => ({}) };

export type PaidOptions<R extends Resolved> = {
  surface: Surface | ((resolved: R) => Surface);
  resolve(c: Context<AppEnv>): Promise<R | Response>;
  handler(c: Context<AppEnv>, resolved: R, quote: Quote): Promise<Response>;
};

export function paid<R extends Resolved>(gate: () => AccessGate, opts: PaidOptions<R>) {
  return async (c: Context<AppEnv>): Promise<Response> => {
    const resolved = await opts.resolve(c);
    // A 202 (provisioning) or other early answer from resolve costs nothing.
    if (resolved instanceof Response) return resolved;
    const surface = typeof opts.surface === "function" ? opts.surface(resolved) : opts.surface;
    const q = priceQuote(surface, resolved);
    const grant = await gate().authorize(c, q, resolved);
    const res = await opts.handler(c, resolved, q);
    if (res.status < 400 && grant.settle) return grant.settle(res);
    return res;
  };
}
