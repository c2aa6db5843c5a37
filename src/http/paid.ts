// The single gate every paid route goes through (DESIGN.md "The paid-route pipeline"):
//   validated input -> resolve (may 404/202 for free) -> quote -> the admission core (src/services/admission.ts:
//   authentication, entitlement, rate window, or payment verification / 402) -> handler -> below 400: meter or
//   settle; otherwise release. A 200 whose route can say how to replay it is recorded in the page memo
//   (page-memo.ts), which hands the same URL's next request to the same admission core with what was resolved.
// HEAD never reaches a paid handler: app middleware keyed on the paid() marker (request-guard.ts refusePaidHead)
// answers it 405, since it would be charged and return no data.
import type { RouteConfig } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import type { z, ZodType } from "zod";
import { withHeaders } from "payments/hono";
import type { Deps } from "../deps";
import { quote as priceQuote, type Quote, type Resolved, type Surface } from "../pricing";
import type { Admitted, PaymentDescription } from "../services/admission";
import type { RenderedJson } from "../services/rendered";
import { setContextRateHeaders } from "./admission";
import { credentialOf, refusalResponse, setRateHeaders } from "./verdicts";
import type { App, AppEnv } from "./app-env";
import { markPaid } from "./paid-marker";
import { PageMemo } from "./page-memo";
import { renderPage } from "./respond";

/** The validated query of a route, as its schema outputs it. */
export type QueryOf<Rt extends RouteConfig> = Rt["request"] extends { query: infer S } ? (S extends ZodType ? z.output<S> : never) : Record<string, never>;

export type PaidOptions<Q, R extends Resolved> = {
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
  resolve(c: Context<AppEnv>, query: Q): Promise<R | Response>;
  /** `admitted`: who was admitted (the key, for per-item entitlement in a batch). */
  handler(c: Context<AppEnv>, resolved: R, quote: Quote, admitted: Admitted): Promise<Response>;
  /**
   * Optional: after the handler answered 200, how the page memo may answer the same URL again: a check, without I/O,
   * that returns the body a full read would return now, or null when only a full read can tell. Null when this
   * answer cannot be replayed (it depends on more than the URL and the data version).
   */
  page?(resolved: R): (() => RenderedJson | null) | null;
  /** With `page`: the request headers the page varies on (its Vary header); the memo answers with renderPage. */
  vary?: string;
};

/** What a paid answer was admitted for: the resolution, its quote and how the payment rails describe the request. */
type Priced = { resolved: Resolved; quote: Quote; payment: () => PaymentDescription };

/** Registers `route` on `app` as a paid route: its handler is the gate around `opts`, its first middleware the page memo's lookup. */
export function registerPaid<Rt extends RouteConfig, R extends Resolved>(app: App, deps: Pick<Deps, "clock">, route: Rt, opts: PaidOptions<QueryOf<Rt>, R>): void {
  const handler = async (c: Context<AppEnv>): Promise<Response> => {
    const resolved = await opts.resolve(c, c.req.valid("query" as never) as QueryOf<Rt>);
    // A 202 (provisioning) or other early answer from resolve costs nothing.
    if (resolved instanceof Response) return resolved;
    const quote = priceQuote(typeof opts.surface === "function" ? opts.surface(resolved) : opts.surface, resolved);
    const priced: Priced = { resolved, quote, payment: () => describeForPayment(c) };
    const out = await servePaid(deps, c, priced, (verdict) => opts.handler(c, resolved, quote, verdict));
    const pages = c.get("pages");
    if (out.status === 200 && pages && opts.page && opts.vary && c.req.method === "GET") {
      const body = opts.page(resolved);
      if (body) pages.record(PageMemo.keyOf(c), { body, vary: opts.vary, quote, resolved, payment: describeForPayment(c) });
    }
    return out;
  };

  // A URL the memo holds is answered by the same gate, with the recorded resolution and the rendered page as the
  // handler's answer. Route middleware runs after routing and the app's middleware, before validation.
  const vary = opts.vary;
  const lookup: MiddlewareHandler<AppEnv> = async function pageMemoLookup(c, next) {
    const hit = vary && c.req.method === "GET" ? c.get("pages")?.lookup(PageMemo.keyOf(c)) : null;
    if (!hit) return next();
    const { entry, body } = hit;
    return servePaid(deps, c, { resolved: entry.resolved, quote: entry.quote, payment: () => entry.payment }, async () => renderPage(c, body, entry.vary));
  };

  const surfaces = routeSurfaces(route, opts.surface);
  markPaid(handler, { surface: typeof opts.surface === "function" ? "dynamic" : opts.surface, surfaces, example: opts.example ?? null, failing: opts.failing ?? null });
  const own = route.middleware ? (Array.isArray(route.middleware) ? route.middleware : [route.middleware]) : [];
  app.openapi(opts.page ? { ...route, middleware: [lookup, ...own] } : route, handler as never);
}

/**
 * The gate: the admission core's verdict on a priced request, the answer (`answer`, run only when admitted), then
 * meter or settle below 400 and release otherwise. Cold requests and page memo hits both answer through it.
 */
async function servePaid(deps: Pick<Deps, "clock">, c: Context<AppEnv>, priced: Priced, answer: (verdict: Admitted) => Promise<Response>): Promise<Response> {
  const admission = c.get("admission");
  const req = c.req.raw;
  const now = deps.clock.now();
  const verdict = await admission.admit({
    purpose: "paid",
    credential: credentialOf(req.headers),
    now,
    quote: priced.quote,
    resolved: priced.resolved,
    header: (name) => req.headers.get(name) ?? undefined,
    url: req.url,
    describe: priced.payment,
  });
  if (!verdict.ok) return refusalResponse(verdict);
  if (verdict.key) c.set("apiKey", verdict.key);
  // Set before the handler, they go into every response built through the context at no cost.
  if (verdict.rate) setContextRateHeaders(c, verdict.rate);
  let res: Response;
  try {
    res = await answer(verdict);
  } catch (e) {
    await admission.notServed(verdict);
    throw e;
  }
  if (res.status >= 400) {
    await admission.notServed(verdict);
    return res;
  }
  // Metered before the answer leaves (a usage journal that cannot be written throws: nothing is served unmetered).
  const served = await admission.served(verdict, now);
  if (!served.ok) return refusalResponse(served);
  const out = served.headers ? withHeaders(res, served.headers) : res;
  // A Response the handler built by itself gets them in place.
  if (verdict.rate && out.headers.get("x-ratelimit-limit") === null) setRateHeaders(out.headers, verdict.rate);
  return out;
}

/**
 * The surfaces a paid route can be priced at: those its definition declares in `x-price-surface` (which OpenAPI
 * prices), else its fixed surface. Published prices are derived from these, so a route whose gate and contract
 * disagree, or whose per-request surface is declared nowhere, is refused when it is registered.
 */
function routeSurfaces(route: RouteConfig, surface: Surface | ((resolved: never) => Surface)): Surface[] {
  const raw = (route as Record<string, unknown>)["x-price-surface"];
  const declared = raw === undefined ? [] : ((Array.isArray(raw) ? raw : [raw]) as Surface[]);
  const where = `${route.method.toUpperCase()} ${route.path}`;
  if (typeof surface === "function") {
    if (declared.length === 0) throw new Error(`${where} picks its price surface per request: declare them in x-price-surface`);
    return declared;
  }
  if (declared.length > 0 && !declared.includes(surface)) throw new Error(`${where} is priced at ${surface} but declares x-price-surface ${declared.join(", ")}`);
  return declared.length > 0 ? declared : [surface];
}

/** How the payment rails describe this request: its query, path parameters and the route's shape (bazaar). */
function describeForPayment(c: Context<AppEnv>): PaymentDescription {
  // A repeated key (only repeatable parameters get this far) is described by its values, comma-separated.
  const q = c.req.queries();
  const method = c.req.method.toUpperCase();
  return {
    method,
    query: Object.fromEntries(Object.keys(q).sort().map((k) => [k, q[k]!.join(",")])),
    pathParams: c.req.param() as Record<string, string>,
    shape: c.get("operations")?.describe(method, c.req.routePath) ?? null,
  };
}
