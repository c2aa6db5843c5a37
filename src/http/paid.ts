// Paid operations as REST routes: the single gate every paid route goes through (DESIGN.md "The paid-route pipeline"),
// run by src/services/paid-call.ts runPaid without a framework object and rendered here through the Hono context:
//   validated input -> resolve, which only reads: one discriminated result (serve what it will read, heads included;
//   a series to provision, which this gate starts and answers 202, free; or a free answer; 404s are free too) ->
//   quote -> the admission core (src/services/admission.ts:
//   authentication, entitlement of every read under the route's policy, rate window, or payment verification / 402)
//   -> handler -> below 400: meter or settle; otherwise release. A 200 whose route can say how to replay it is
//   recorded in the page memo (services/page-memo.ts), which the route's first middleware looks up: a hit is admitted and
//   rendered by this same gate with what was resolved, skipping validation, resolution and the handler.
// A paid operation is declared once (PaidDefinition: its route, price surface and service call, in its area's list in
// src/routes/*); registering it yields the Hono route and records it in the app's route registry
// (route-registry.ts), which the key middleware, the MCP endpoint and the contract tests read. HEAD never reaches a
// paid handler: app middleware reading that registry (methods.ts refusePaidHead) answers it 405, since it would be
// charged and return no data.
import type { RouteConfig } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import type { z, ZodType } from "zod";
import type { Deps } from "../deps";
import type { Serving, Surface } from "../pricing";
import type { Credential } from "../domain/keys";
import { envelope } from "../errors";
import type { Admitted, PaymentDescription, Refusal } from "../services/admission";
import { clientIp, credentialOf, refuse, setRateHeaders } from "./verdicts";
import type { App, AppEnv } from "./app-env";
import { provisioningCaller } from "./admission";
import { honoPath } from "./route-registry";
import type { PageCheck, PageMemo } from "../services/page-memo";
import {
  gate,
  runPaid,
  type Answer,
  type Asked,
  type Declined,
  type Gated,
  type Outcome,
  type PaidCall,
  type PaidSpec,
  type Priced,
} from "../services/paid-call";
import { acceptedFormat, prefersHtml, renderPage } from "./content-coding";
import { requestTarget } from "./url-parts";
import { provisioningAnswer } from "./respond";

export {
  declined,
  freeAnswer,
  jsonAnswer,
  pageAnswer,
  provisioning,
  serve,
  serveHeld,
  type Answer,
  type Resolution,
} from "../services/paid-call";

/** The validated query of a route, as its schema outputs it. */
export type QueryOf<Rt extends RouteConfig> = Rt["request"] extends { query: infer S }
  ? S extends ZodType
    ? z.output<S>
    : never
  : Record<string, never>;

/**
 * How a REST call is read and its refusals written. The API's own (API_DIALECT, the default): the credential from its
 * headers, the request URL as it came, the spec's envelope. A compatibility surface (FRED's, src/http/fred-gate.ts)
 * reads its credential from a query parameter, which it keeps out of the URL the rails, the payment description and
 * the page memo see, and writes refusals in its own error shape with the same status and headers.
 */
export type Dialect = {
  credential(c: Context<AppEnv>): Credential;
  /** The request URL without any secret it carries. */
  publicUrl(c: Context<AppEnv>): string;
  /** A refusal of the admission core (401, 402, 403, 429, ...). */
  refuse(c: Context<AppEnv>, r: Refusal): Response;
  /** A request the operation declined before any payment (paid-call.ts Declined). */
  decline(c: Context<AppEnv>, d: Declined): Response;
};

export const API_DIALECT: Dialect = {
  credential: (c) => credentialOf(c.req.raw.headers),
  publicUrl: (c) => c.req.url,
  refuse,
  decline: (c, d) => c.json(envelope("INVALID_PARAMETER", d.message), d.status),
};

export type PaidOptions<Q, S extends Serving> = PaidSpec<Q, S> & {
  /** How requests are read and refusals written (default: the API's own, API_DIALECT). REST only: MCP calls use the API's. */
  dialect?: Dialect;
  /**
   * A request to this route (path and query) that is priced in the seeded database, e.g.
   * "/v1/observations?indicator=GDP&region=US". The shared paid-route contract test calls every paid route with it.
   */
  example?: string;
  /**
   * Optional: a request to this route that passes resolve and payment and then fails in the answer (a 4xx that
   * only the data can reveal, e.g. an index base date the series does not have), bought with the same binding and
   * price as `example`. The contract test checks that such a failure is never settled on either rail.
   */
  failing?: string;
  /**
   * Instead of `failing`: why no request that passes resolve and payment can fail in the answer (everything the data
   * can refuse is decided in resolve, before the 402). The contract test holds every paid route to one of the two.
   */
  cannotFailOncePaid?: string;
  /**
   * Optional: after an answer of 200, how the page memo may answer the same URL again: found without I/O, the body a
   * full read returns now and until when it holds (services/page-memo.ts PageCheck). Null when this answer cannot be
   * replayed (it depends on more than the URL and the data version). The memo answers it as pageAnswer(body, vary):
   * the answer must be that page.
   */
  page?(served: S): PageCheck | null;
  /** With `page`: the request headers the page varies on (its Vary header). */
  vary?: string;
};

/** A paid operation as registered: its route and options, for the hosts that call it (REST here, MCP in routes/mcp.ts). */
export type PaidOperation<S extends Serving = Serving> = { route: RouteConfig; options: PaidOptions<any, S> };

/**
 * A paid operation declared once: its route (method, path, query and response schemas, `x-price-surface`) and its
 * gate (price surface, how its reads are entitled, resolve and answer: the service calls). Each area of src/routes
 * lists its definitions; registering one (registerOperations) makes the REST route, its OpenAPI operation and price,
 * its MCP tool's operation and its page memo entries, and records it in the app's route registry.
 */
export type PaidDefinition = { route: RouteConfig } & PaidOptions<any, any>;

/** A definition of the paid operation `route`, checked against it (its query is what the route's schema outputs). */
export function paidOperation<Rt extends RouteConfig, S extends Serving>(
  route: Rt,
  opts: PaidOptions<QueryOf<Rt>, S>,
): PaidDefinition {
  return { route, ...opts } as PaidDefinition;
}

/** Registers each of `definitions` on `app` (registerPaid), in order. */
export function registerOperations(
  app: App,
  deps: Pick<Deps, "clock" | "config">,
  definitions: readonly PaidDefinition[],
): void {
  for (const { route, ...opts } of definitions) registerPaid(app, deps, route, opts);
}

/**
 * Registers `route` on `app` as a paid route: its handler runs a call of `opts` (src/services/paid-call.ts runPaid) and renders
 * the outcome through the context; its first middleware is the page memo's lookup. Returns the operation.
 */
export function registerPaid<Rt extends RouteConfig, S extends Serving>(
  app: App,
  deps: Pick<Deps, "clock" | "config">,
  route: Rt,
  opts: PaidOptions<QueryOf<Rt>, S>,
): PaidOperation<S> {
  const now = () => deps.clock.now();
  const dialect = opts.dialect ?? API_DIALECT;
  const handler = async (c: Context<AppEnv>): Promise<Response> => {
    const call = restCall<QueryOf<Rt>>(c, deps, dialect, c.req.valid("query" as never) as QueryOf<Rt>);
    const outcome = await runPaid(opts, now, call);
    const out = await renderOutcome(c, dialect, outcome);
    // The memo's key, found by its lookup (set only for a GET, with the memo on, to a route that may be replayed).
    const key = c.get("pageKey");
    if (key !== undefined && out.status === 200) rememberPage(c.get("pages"), key, opts, outcome, call.describe);
    return out;
  };

  // A URL the memo holds is answered by the same gate, with the recorded resolution and the rendered page as the
  // answer. Route middleware runs after routing and the app's middleware, before validation.
  const lookup: MiddlewareHandler<AppEnv> = async function pageMemoLookup(c, next) {
    const pages = c.get("pages");
    if (!pages || c.req.method !== "GET") return next();
    const url = dialect.publicUrl(c);
    const key = pageMemoKey(c, url);
    const gated = answerFromMemo(pages, key, () => restCall(c, deps, dialect, null, url), now);
    if (!gated) {
      c.set("pageKey", key);
      return next();
    }
    return gated instanceof Promise ? gated.then((g) => renderGated(c, dialect, g)) : renderGated(c, dialect, gated);
  };

  const surfaces = routeSurfaces(route, opts.surface);
  const operation: PaidOperation<S> = { route, options: opts as PaidOptions<any, S> };
  const declared = {
    surface: typeof opts.surface === "function" ? ("dynamic" as const) : opts.surface,
    surfaces,
    example: opts.example ?? null,
    failing: opts.failing ?? null,
    cannotFailOncePaid: opts.cannotFailOncePaid ?? null,
    operation,
  };
  app.registry.declare(route.method, honoPath(route.path), "paid", declared);
  const own = route.middleware ? (Array.isArray(route.middleware) ? route.middleware : [route.middleware]) : [];
  // The surfaces it is priced at go into its OpenAPI operation (x-price-usd is derived from them): declared once.
  const priced = { ...route, "x-price-surface": surfaces.length === 1 ? surfaces[0] : surfaces };
  app.openapi(opts.page && opts.vary ? { ...priced, middleware: [lookup, ...own] } : priced, handler as never);
  return operation;
}

/** The page memo's key of a request for `url` in `format` (content-coding.ts acceptedFormat; an MCP call asks for JSON). */
export function pageMemoKeyFor(format: string, url: string): string {
  return `${format} ${requestTarget(url)}`;
}

/** The page memo's key of a REST request: `url` (the dialect's public URL) in the format its Accept header chose. */
function pageMemoKey(c: Context, url: string): string {
  return pageMemoKeyFor(acceptedFormat(c.req.header("accept")), url);
}

/**
 * The page memo's answer to a call of the URL `key` names (pageMemoKeyFor): the same gate, with the resolution
 * recorded for it and its page as the answer; null when the memo cannot answer it.
 */
export function answerFromMemo(
  pages: PageMemo | undefined,
  key: string,
  call: () => Parameters<typeof gate>[0],
  now: () => Date,
): Gated | Promise<Gated> | null {
  if (!pages) return null;
  const at = now();
  const hit = pages.lookup(key, at.getTime());
  if (!hit) return null;
  return gate(call(), at, hit, () => ({ kind: "page", page: hit.body, vary: hit.vary }));
}

/** After a GET was answered 200: what the memo needs to answer `key` again, for an operation that says how (`page`). */
export function rememberPage(
  pages: PageMemo | undefined,
  key: string,
  opts: PaidOptions<any, any>,
  outcome: Outcome<unknown>,
  payment: () => PaymentDescription,
): void {
  if (!pages || !opts.page || !opts.vary || outcome.kind !== "served") return;
  const check = opts.page(outcome.served);
  if (!check) return;
  const described = payment();
  const { quote, serving, policy } = outcome.priced;
  pages.record(key, { ...check, vary: opts.vary, quote, serving, policy, payment: () => described });
}

/** A REST request as a call: its headers, path parameters and URL (`url`: the dialect's public URL, found once a request); the key and rate headers it is admitted with go on the context. */
function restCall<Q>(
  c: Context<AppEnv>,
  deps: Pick<Deps, "clock" | "config">,
  dialect: Dialect,
  query: Q,
  url = dialect.publicUrl(c),
): PaidCall<Q> {
  const headers = c.req.raw.headers;
  const asked: Asked = {
    header: (name) => headers.get(name) ?? undefined,
    param: (name) => c.req.param(name),
    client: clientIp(c, deps.config),
  };
  return {
    query,
    asked,
    credential: dialect.credential(c),
    url,
    admission: c.get("admission"),
    describe: () => describeForPayment(c, dialect, url),
    caller: () => provisioningCaller(c, deps),
    admitted: (v: Admitted) => {
      if (v.key) c.set("apiKey", v.key);
      if (v.rate) setRateHeaders(c, v.rate);
    },
  };
}

/** An outcome as the HTTP answer, built through the context (every header set on it goes out). */
function renderOutcome(c: Context<AppEnv>, dialect: Dialect, outcome: Outcome<unknown>): Response | Promise<Response> {
  if (outcome.kind === "provisioning") return provisioningAnswer(c, outcome.body);
  if (outcome.kind === "free") return c.json(outcome.body as never, 200);
  if (outcome.kind === "declined") return dialect.decline(c, outcome.declined);
  return renderGated(c, dialect, outcome);
}

/**
 * A refusal, or the answer: a page in the coding the client accepts; JSON, or its HTML form when the client prefers
 * HTML; with its payment receipt.
 */
function renderGated(c: Context<AppEnv>, dialect: Dialect, gated: Gated): Response | Promise<Response> {
  if (gated.kind === "refused") return dialect.refuse(c, gated.refusal);
  const { answer, receipt } = gated;
  let res: Response | Promise<Response>;
  if (answer.kind === "page") res = renderPage(c, answer.page, answer.vary ?? "Accept-Encoding");
  else if (answer.html && prefersHtml(c)) res = answer.html().then((html) => c.html(html, 200, answer.headers));
  else res = c.json(answer.body as never, answer.status, answer.headers);
  if (!receipt) return res;
  // A payment receipt: the answer was built through the context just now, its headers are its own to add to.
  const withReceipt = (r: Response) => {
    for (const k in receipt) r.headers.set(k, receipt[k]!);
    return r;
  };
  return res instanceof Promise ? res.then(withReceipt) : withReceipt(res);
}

/**
 * The surfaces a paid route can be priced at: its fixed surface, or (a surface picked per request) those its route
 * declares in `x-price-surface`; registered into its OpenAPI operation, which publishes their prices. A route whose
 * gate and contract disagree, or whose per-request surface is declared nowhere, is refused when it is registered.
 */
function routeSurfaces(route: RouteConfig, surface: Surface | ((resolved: never) => Surface)): Surface[] {
  const raw = (route as Record<string, unknown>)["x-price-surface"];
  const declared = raw === undefined ? [] : ((Array.isArray(raw) ? raw : [raw]) as Surface[]);
  const where = `${route.method.toUpperCase()} ${route.path}`;
  if (typeof surface === "function") {
    if (declared.length === 0)
      throw new Error(`${where} picks its price surface per request: declare them in x-price-surface`);
    return declared;
  }
  if (declared.length > 0 && !declared.includes(surface))
    throw new Error(`${where} is priced at ${surface} but declares x-price-surface ${declared.join(", ")}`);
  return declared.length > 0 ? declared : [surface];
}

/** How the payment rails describe this request: its query, path parameters and the route's shape (bazaar). */
function describeForPayment(c: Context<AppEnv>, dialect: Dialect, url: string): PaymentDescription {
  // A repeated key (only repeatable parameters get this far) is described by its values, comma-separated; a secret
  // another dialect keeps out of the public URL is kept out of the description too (the API's has none: the query
  // Hono already parsed is read).
  const q = dialect === API_DIALECT ? c.req.queries() : queriesOf(url);
  const method = c.req.method.toUpperCase();
  return {
    method,
    query: Object.fromEntries(
      Object.keys(q)
        .sort()
        .map((k) => [k, q[k]!.join(",")]),
    ),
    pathParams: c.req.param() as Record<string, string>,
    shape: c.get("operations")?.describe(method, c.req.routePath) ?? null,
  };
}

function queriesOf(url: string): Record<string, string[]> {
  const q: Record<string, string[]> = {};
  new URL(url).searchParams.forEach((v, k) => (q[k] ??= []).push(v));
  return q;
}
