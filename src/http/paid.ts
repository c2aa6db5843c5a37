// The single gate every paid route goes through (DESIGN.md "The paid-route pipeline"):
//   validated input -> resolve: one discriminated result (serve what it will read, a free 202 while a series is
//   provisioned, or a free answer; 404s are free too) -> quote -> the admission core (src/services/admission.ts:
//   authentication, entitlement of every read under the route's policy, rate window, or payment verification / 402)
//   -> handler -> below 400: meter or settle; otherwise release. A 200 whose route can say how to replay it is
//   recorded in the page memo (page-memo.ts), which the route's first middleware looks up: a hit is admitted and
//   rendered by this same gate with what was resolved, skipping validation, resolution and the handler.
// HEAD never reaches a paid handler: app middleware keyed on the paid() marker (request-guard.ts paidHeadRefusal)
// answers it 405, since it would be charged and return no data.
import type { RouteConfig } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import type { z, ZodType } from "zod";
import type { Deps } from "../deps";
import { quote as priceQuote, type Quote, type Serving, type Surface } from "../pricing";
import type { ProvisioningBody } from "../schemas/provisioning";
import type { Admission, Admitted, PaymentDescription, ReadPolicy, Refusal, Served, Verdict } from "../services/admission";
import { ProvisioningAnswer } from "../services/provisioning";
import type { RenderedJson } from "../services/rendered";
import type { Credential } from "../domain/keys";
import { credentialOf, refuse, setRateHeaders } from "./verdicts";
import type { App, AppEnv } from "./app-env";
import { markPaid } from "./paid-marker";
import { PageMemo } from "./page-memo";
import { provisioningAnswer, renderPage } from "./respond";

/** The validated query of a route, as its schema outputs it. */
export type QueryOf<Rt extends RouteConfig> = Rt["request"] extends { query: infer S } ? (S extends ZodType ? z.output<S> : never) : Record<string, never>;

/** What resolve decided: serve (after admission) what it will read, or answer for free (202 provisioning, a 200). */
export type Resolution<S extends Serving> =
  | { kind: "serve"; serving: S }
  | { kind: "provisioning"; body: ProvisioningBody }
  | { kind: "free"; body: unknown }
  | { kind: "answered"; response: Response };

export const serve = <S extends Serving>(serving: S): Resolution<S> => ({ kind: "serve", serving });
export const provisioning = (body: ProvisioningBody): Resolution<never> => ({ kind: "provisioning", body });
export const freeAnswer = (body: unknown): Resolution<never> => ({ kind: "free", body });
/** A refusal the route writes itself, in its own format, before any payment (a compatibility surface's 400). */
export const answered = (response: Response): Resolution<never> => ({ kind: "answered", response });

/**
 * How the gate reads a request and writes a refusal. The API's own (the default): the credential from its headers,
 * the request URL as it came, the spec's envelope. A compatibility surface (FRED's, src/http/fred-gate.ts) reads its
 * credential from a query parameter, which it keeps out of the URL the rails, the payment description and the page
 * memo see, and writes refusals in its own error shape with the same status and headers.
 */
export type GateDialect = {
  credential(c: Context<AppEnv>): Credential;
  /** The request URL without any secret it carries. */
  publicUrl(c: Context<AppEnv>): string;
  refuse(c: Context<AppEnv>, r: Refusal): Response;
};

export const API_DIALECT: GateDialect = {
  credential: (c) => credentialOf(c.req.raw.headers),
  publicUrl: (c) => c.req.url,
  refuse,
};

/**
 * serve(what `read` returns), or provisioning(...) when a series it needs is being fetched: the read services say so
 * by throwing ProvisioningAnswer from deep inside a read, which stops here.
 */
export async function serveOrProvisioning<S extends Serving>(read: () => Promise<S>): Promise<Resolution<S>> {
  try {
    return serve(await read());
  } catch (e) {
    if (e instanceof ProvisioningAnswer) return provisioning(e.body);
    throw e;
  }
}

export type PaidOptions<Q, S extends Serving> = {
  surface: Surface | ((served: S) => Surface);
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
  /** How a key is entitled to the reads `resolve` names (src/services/admission.ts ReadPolicy), fixed or per request. */
  reads: ReadPolicy | ((served: S) => ReadPolicy);
  /** Everything the request will read, before any payment is asked; never writes. A 404 is thrown (ApiError), free. */
  resolve(query: Q, c: Context<AppEnv>): Promise<Resolution<S>>;
  /** `admitted.refused`: per read of `served.reads`, the refusal of one the answer leaves out (policies any, each). */
  handler(c: Context<AppEnv>, served: S, admitted: Admitted): Promise<Response>;
  /**
   * Optional: after the handler answered 200, how the page memo may answer the same URL again: a check, without I/O,
   * that returns the body a full read would return now, or null when only a full read can tell. Null when this
   * answer cannot be replayed (it depends on more than the URL and the data version). The memo answers it with
   * renderPage(c, body, vary): the handler must answer the same way.
   */
  page?(served: S): (() => RenderedJson | null) | null;
  /** With `page`: the request headers the page varies on (its Vary header). */
  vary?: string;
  /** How requests are read and refusals written (default: the API's own, API_DIALECT). */
  dialect?: GateDialect;
};

/** What a paid answer was admitted for: the resolution, its quote and how the payment rails describe the request. */
type Priced = { serving: Serving; quote: Quote; policy: ReadPolicy; payment: () => PaymentDescription };

/** Registers `route` on `app` as a paid route: its handler is the gate around `opts`, its first middleware the page memo's lookup. */
export function registerPaid<Rt extends RouteConfig, S extends Serving>(app: App, deps: Pick<Deps, "clock">, route: Rt, opts: PaidOptions<QueryOf<Rt>, S>): void {
  const dialect = opts.dialect ?? API_DIALECT;
  const handler = async (c: Context<AppEnv>): Promise<Response> => {
    const resolution = await opts.resolve(c.req.valid("query" as never) as QueryOf<Rt>, c);
    // What is being provisioned, and what needs no data, costs nothing.
    if (resolution.kind === "provisioning") return provisioningAnswer(c, resolution.body);
    if (resolution.kind === "free") return c.json(resolution.body as never, 200);
    if (resolution.kind === "answered") return resolution.response;
    const served = resolution.serving;
    const quote = priceQuote(typeof opts.surface === "function" ? opts.surface(served) : opts.surface, served);
    const policy = typeof opts.reads === "function" ? opts.reads(served) : opts.reads;
    const priced: Priced = { serving: served, quote, policy, payment: () => describeForPayment(c, dialect) };
    const out = await servePaid(deps, c, dialect, priced, (admitted) => opts.handler(c, served, admitted));
    const pages = c.get("pages");
    if (out.status === 200 && pages && opts.page && opts.vary && c.req.method === "GET") {
      const body = opts.page(served);
      if (body) {
        const payment = describeForPayment(c, dialect);
        pages.record(PageMemo.keyOf(c, dialect.publicUrl(c)), { body, vary: opts.vary, quote, serving: served, policy, payment: () => payment });
      }
    }
    return out;
  };

  // A URL the memo holds is answered by the same gate, with the recorded resolution and the rendered page as the
  // handler's answer. Route middleware runs after routing and the app's middleware, before validation.
  const lookup: MiddlewareHandler<AppEnv> = async function pageMemoLookup(c, next) {
    const hit = c.req.method === "GET" ? c.get("pages")?.lookup(PageMemo.keyOf(c, dialect.publicUrl(c))) : null;
    if (!hit) return next();
    const { entry, body } = hit;
    return servePaid(deps, c, dialect, entry, () => renderPage(c, body, entry.vary));
  };

  const surfaces = routeSurfaces(route, opts.surface);
  markPaid(handler, { surface: typeof opts.surface === "function" ? "dynamic" : opts.surface, surfaces, example: opts.example ?? null, failing: opts.failing ?? null });
  const own = route.middleware ? (Array.isArray(route.middleware) ? route.middleware : [route.middleware]) : [];
  app.openapi(opts.page && opts.vary ? { ...route, middleware: [lookup, ...own] } : route, handler as never);
}

/**
 * The gate: the admission core's verdict on a priced request, the answer (`answer`, run only when admitted), then
 * meter or settle below 400 and release otherwise. Cold requests and page memo hits both answer through it; every
 * header is set once, through the context. Synchronous while every step is (a memo hit of a cached key): each await
 * costs a promise and a turn on every request (issue 27).
 */
function servePaid(deps: Pick<Deps, "clock">, c: Context<AppEnv>, dialect: GateDialect, priced: Priced, answer: (admitted: Admitted) => Response | Promise<Response>): Response | Promise<Response> {
  const admission = c.get("admission");
  const req = c.req.raw;
  const now = deps.clock.now();
  const verdict = admission.admit({
    purpose: "paid",
    credential: dialect.credential(c),
    now,
    quote: priced.quote,
    serving: priced.serving,
    policy: priced.policy,
    header: (name) => req.headers.get(name) ?? undefined,
    url: dialect.publicUrl(c),
    describe: priced.payment,
  });
  const admitted = (v: Verdict): Response | Promise<Response> => {
    if (!v.ok) return dialect.refuse(c, v);
    if (v.key) c.set("apiKey", v.key);
    if (v.rate) setRateHeaders(c, v.rate);
    let res: Response | Promise<Response>;
    try {
      res = answer(v);
    } catch (e) {
      return admission.notServed(v).then(() => Promise.reject(e));
    }
    if (res instanceof Promise) return res.then((r) => settled(admission, c, dialect, v, now, r), (e) => admission.notServed(v).then(() => Promise.reject(e)));
    return settled(admission, c, dialect, v, now, res);
  };
  return verdict instanceof Promise ? verdict.then(admitted) : admitted(verdict);
}

/** After the answer: released when it is 400 or more, else metered (or settled) before it leaves. */
function settled(admission: Admission, c: Context<AppEnv>, dialect: GateDialect, verdict: Admitted, now: Date, res: Response): Response | Promise<Response> {
  if (res.status >= 400) return admission.notServed(verdict).then(() => res);
  // Metered before the answer leaves (a usage journal that cannot be written throws: nothing is served unmetered).
  const served = admission.served(verdict, now);
  const withReceipt = (s: Served): Response => {
    if (!s.ok) return dialect.refuse(c, s);
    // A payment receipt: the answer was built through the context just now, its headers are its own to add to.
    if (s.receipt) for (const k in s.receipt) res.headers.set(k, s.receipt[k]!);
    return res;
  };
  return served instanceof Promise ? served.then(withReceipt) : withReceipt(served);
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
function describeForPayment(c: Context<AppEnv>, dialect: GateDialect): PaymentDescription {
  // A repeated key (only repeatable parameters get this far) is described by its values, comma-separated; a secret
  // the dialect keeps out of the public URL is kept out of the description too.
  const q: Record<string, string[]> = {};
  new URL(dialect.publicUrl(c)).searchParams.forEach((v, k) => (q[k] ??= []).push(v));
  const method = c.req.method.toUpperCase();
  return {
    method,
    query: Object.fromEntries(Object.keys(q).sort().map((k) => [k, q[k]!.join(",")])),
    pathParams: c.req.param() as Record<string, string>,
    shape: c.get("operations")?.describe(method, c.req.routePath) ?? null,
  };
}
