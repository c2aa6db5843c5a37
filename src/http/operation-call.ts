// Operations called directly, without an HTTP request through the app: the REST request a tool call stands for
// (path and query on the public base URL, the caller's credential, a payment from the call) is run as the operation
// its route declared (the app's route registry) and answered as the Response the REST route gives: the same status,
// body and the headers a tool result reads (rate window, payment challenge and receipt, request id).
// - a paid operation: validated by the route's own query schema, run as one call of its gate (paid-call.ts runPaid:
//   resolve, quote, the admission core, metering or settlement) with the page memo as REST uses it;
// - a free (catalog) operation: admitted as the key middleware admits a keyed route (a bad key is a 401, a key is
//   counted against its window), validated by the route's schemas, answered by its service call.
import type { Context } from "hono";
import type { ZodType } from "zod";
import type { Deps } from "../deps";
import { ApiError, envelope } from "../errors";
import type { Admitted } from "../services/admission";
import { runPaid, type Answer, type Asked, type Gated, type Outcome, type PaidCall } from "../services/paid-call";
import { provisioningCaller } from "./admission";
import type { AppEnv } from "./app-env";
import { adviceHeaders, clientIp, rateLimitHeaders } from "./verdicts";
import type { FreeDefinition } from "./free";
import { answerFromMemo, rememberPage, type PaidOperation } from "./paid";
import { pageMemoKeyFor } from "./paid";
import { refuseNulInQuery } from "./request-guard";
import { failureResponse } from "./respond";
import type { DeclaredRoute } from "./route-registry";
import { invalidParameters } from "./validation";
import { credentialOf, refusalParts } from "./verdicts";

type CallDeps = Pick<Deps, "clock" | "config" | "logger">;

/**
 * Runs the operation `declared` for the REST request `url` (absolute, GET) with `headers` (credential, payment;
 * Accept is JSON), inside the request `c` that carried the call (its admission core, client address and request id).
 */
export function callOperation(
  declared: DeclaredRoute,
  url: string,
  headers: Record<string, string>,
  c: Context<AppEnv>,
  deps: CallDeps,
): Promise<Response> {
  if (declared.paid) return callPaidOperation(declared.paid.operation as PaidOperation, url, headers, c, deps);
  return callFreeOperation(declared.free as FreeDefinition, url, headers, c, deps);
}

/** The request's headers by lower-case name. */
const lowerCased = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));

/** A free operation for `url`: admitted, checked and validated in the order REST does, then its service call. */
async function callFreeOperation(
  op: FreeDefinition,
  url: string,
  headers: Record<string, string>,
  c: Context<AppEnv>,
  deps: CallDeps,
): Promise<Response> {
  const requestId = c.get("requestId");
  const own = { "x-request-id": requestId };
  let rate: Record<string, string> = {};
  try {
    // As the key middleware (admission.ts admitKeyed): no credential, no admission; a key is counted in its window.
    const credential = credentialOf(new Headers(lowerCased(headers)));
    if (credential.kind !== "none") {
      const verdict = await c.get("admission").admit({ purpose: "keyed", credential, now: deps.clock.now() });
      if (!verdict.ok) {
        const r = refusalParts(verdict);
        return Response.json(r.body, { status: r.status, headers: { ...own, ...r.headers } });
      }
      if (verdict.rate) rate = rateLimitHeaders(verdict.rate);
    }
    const { pathname, searchParams } = new URL(url);
    refuseNulInQuery(searchParams);
    const query = queriesOf(searchParams);
    const params = pathParamsOf(op.route.path, pathname);
    // In the order the route's validators run: the query, then the path parameters.
    const querySchema = op.route.request?.query as ZodType | undefined;
    const parsedQuery = querySchema
      ? await querySchema.safeParseAsync(zodInput(query))
      : { success: true as const, data: {} };
    if (!parsedQuery.success)
      return Response.json(invalidParameters(parsedQuery.error.issues, "query", query), {
        status: 400,
        headers: { ...own, ...rate },
      });
    const paramSchema = op.route.request?.params as ZodType | undefined;
    const parsedParams = paramSchema ? await paramSchema.safeParseAsync(params) : { success: true as const, data: {} };
    if (!parsedParams.success)
      return Response.json(invalidParameters(parsedParams.error.issues, "param", query), {
        status: 400,
        headers: { ...own, ...rate },
      });
    const rendered = await op.answer({ query: parsedQuery.data, params: parsedParams.data });
    return new Response(rendered.body, {
      status: 200,
      headers: { ...own, ...rate, "Content-Type": rendered.contentType },
    });
  } catch (err) {
    if (err instanceof ApiError)
      return Response.json(envelope(err.code, err.message, err.details), {
        status: err.status,
        headers: { ...own, ...rate, ...adviceHeaders(err.advice) },
      });
    return failureResponse(deps.logger, err, { requestId, method: "GET", url });
  }
}

/**
 * Runs `op` for the REST request `url` (absolute, GET) with `headers` (credential, payment; Accept is JSON), inside
 * the request `c` that carried the call (its admission core, client address and request id).
 */
async function callPaidOperation(
  op: PaidOperation,
  url: string,
  headers: Record<string, string>,
  c: Context<AppEnv>,
  deps: CallDeps,
): Promise<Response> {
  const requestId = c.get("requestId");
  const own = { "x-request-id": requestId };
  const lowered = lowerCased(headers);
  const pathParams = pathParamsOf(op.route.path, new URL(url).pathname);
  const asked: Asked = {
    header: (name) => lowered[name.toLowerCase()],
    param: (name) => pathParams[name],
    client: clientIp(c, deps.config),
  };
  let admitted: Admitted | null = null;
  const credential = credentialOf(new Headers(lowered));
  const admission = c.get("admission");
  const now = () => deps.clock.now();
  const rate = (): Record<string, string> => (admitted?.rate ? rateLimitHeaders(admitted.rate) : {});
  try {
    // A URL the page memo holds is answered as REST answers it: the same gate, the recorded resolution, the page.
    const memoKey = pageMemoKeyFor("json", url);
    const fromMemo = answerFromMemo(
      c.get("pages"),
      memoKey,
      () => ({ admission, credential, asked, url, admitted: (v: Admitted) => void (admitted = v) }),
      now,
    );
    if (fromMemo) return responseOf(await fromMemo, { ...own, ...rate() });
    const params = new URL(url).searchParams;
    refuseNulInQuery(params);
    const query = queriesOf(params);
    const schema = op.route.request?.query as ZodType | undefined;
    const parsed = schema ? await schema.safeParseAsync(zodInput(query)) : { success: true as const, data: {} };
    if (!parsed.success)
      return Response.json(invalidParameters(parsed.error.issues, "query", query), { status: 400, headers: own });
    const call: PaidCall<unknown> = {
      query: Object.freeze(parsed.data),
      asked,
      credential,
      url,
      admission,
      describe: () => ({
        method: "GET",
        query: Object.fromEntries(
          Object.keys(query)
            .sort()
            .map((k) => [k, query[k]!.join(",")]),
        ),
        pathParams,
        shape: c.get("operations")?.describe("GET", op.route.path.replace(/\{([^}]+)\}/g, ":$1")) ?? null,
      }),
      caller: () => provisioningCaller(c, deps),
      admitted: (v) => void (admitted = v),
    };
    const outcome = await runPaid(op.options, now, call);
    const res = responseOf(outcome, { ...own, ...rate() });
    if (res.status === 200) rememberPage(c.get("pages"), memoKey, op.options, outcome, call.describe);
    return res;
  } catch (err) {
    // As app.onError renders it for REST: the envelope and its advice, with the rate window the call was admitted in.
    if (err instanceof ApiError)
      return Response.json(envelope(err.code, err.message, err.details), {
        status: err.status,
        headers: { ...own, ...rate(), ...adviceHeaders(err.advice) },
      });
    return failureResponse(deps.logger, err, { requestId, method: "GET", url });
  }
}

/** The outcome as the REST route answers it (paid.ts renderOutcome), as a plain Response. */
function responseOf(outcome: Outcome<unknown> | Gated, headers: Record<string, string>): Response {
  if (outcome.kind === "provisioning")
    return Response.json(outcome.body, {
      status: 202,
      headers: { ...headers, "Retry-After": String(outcome.body.retry_after_seconds), "Cache-Control": "no-store" },
    });
  if (outcome.kind === "free") return Response.json(outcome.body, { status: 200, headers });
  if (outcome.kind === "declined")
    return Response.json(envelope("INVALID_PARAMETER", outcome.declined.message), {
      status: outcome.declined.status,
      headers,
    });
  if (outcome.kind === "refused") {
    const r = refusalParts(outcome.refusal);
    return Response.json(r.body, { status: r.status, headers: { ...headers, ...r.headers } });
  }
  return answerResponse(outcome.answer, { ...headers, ...outcome.receipt });
}

function answerResponse(answer: Answer, headers: Record<string, string>): Response {
  if (answer.kind === "page")
    return new Response(answer.page.body, {
      status: 200,
      headers: { ...headers, "Content-Type": answer.page.contentType },
    });
  return Response.json(answer.body, { status: answer.status, headers: { ...headers, ...answer.headers } });
}

/** The path parameters of `pathname` under the route path `template` (`/v1/briefings/public/{slug}`), decoded. */
function pathParamsOf(template: string, pathname: string): Record<string, string> {
  const names = template.split("/");
  const values = pathname.split("/");
  const out: Record<string, string> = {};
  names.forEach((n, k) => {
    const m = /^\{(.+)\}$/.exec(n);
    if (m && values[k] !== undefined) out[m[1]!] = decodeURIComponent(values[k]!);
  });
  return out;
}

function queriesOf(params: URLSearchParams): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of params) (out[k] ??= []).push(v);
  return out;
}

/** The query as a validator hands it to a schema: one string per name, an array when repeated. */
function zodInput(queries: Record<string, string[]>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(queries)) out[k] = v.length === 1 ? v[0]! : v;
  return out;
}
