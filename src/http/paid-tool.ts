// A paid operation called directly, as an MCP tool call is (src/routes/mcp.ts): not a request through the app, but
// the REST request it stands for (path and query on the public base URL, the caller's credential, a payment from the
// call) run as one call of the operation (paid-call.ts runPaid), validated by the route's own query schema and
// answered as the Response the REST route would give: the same status, body and the headers a tool result reads
// (rate window, payment challenge and receipt, request id). So admission, pricing, metering and entitlement are the
// REST route's by construction, and nothing is routed, parsed or serialised a second time.
import type { Context } from "hono";
import type { ZodType } from "zod";
import type { Deps } from "../deps";
import { ApiError, envelope } from "../errors";
import type { Admitted } from "../services/admission";
import { adviceHeaders, rateLimitHeaders } from "./advice-headers";
import { provisioningCaller } from "./admission";
import type { AppEnv } from "./app-env";
import { runPaid, type Answer, type Asked, type Outcome, type PaidCall } from "./paid-call";
import type { PaidOperation } from "./paid";
import { failureResponse } from "./respond";
import { invalidParameters } from "./validation";
import { credentialOf, refusalParts } from "./verdicts";

/**
 * Runs `op` for the REST request `url` (absolute, GET) with `headers` (credential, payment; Accept is JSON), inside
 * the request `c` that carried the call (its admission core, client address and request id).
 */
export async function callPaidOperation(op: PaidOperation, url: string, headers: Record<string, string>, c: Context<AppEnv>, deps: Pick<Deps, "clock" | "config" | "logger">): Promise<Response> {
  const requestId = c.get("requestId");
  const own = { "x-request-id": requestId };
  const query = queriesOf(new URL(url).searchParams);
  const schema = op.route.request?.query as ZodType | undefined;
  const parsed = schema ? await schema.safeParseAsync(zodInput(query)) : { success: true as const, data: {} };
  if (!parsed.success) return Response.json(invalidParameters(parsed.error.issues, "query", query), { status: 400, headers: own });

  const lowered = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const asked: Asked = { header: (name) => lowered[name.toLowerCase()], param: () => undefined };
  let admitted: Admitted | null = null;
  const call: PaidCall<unknown> = {
    query: Object.freeze(parsed.data),
    asked,
    credential: credentialOf(new Headers(lowered)),
    url,
    admission: c.get("admission"),
    describe: () => ({
      method: "GET",
      query: Object.fromEntries(Object.keys(query).sort().map((k) => [k, query[k]!.join(",")])),
      pathParams: {},
      shape: c.get("operations")?.describe("GET", op.route.path) ?? null,
    }),
    caller: () => provisioningCaller(c, deps),
    admitted: (v) => void (admitted = v),
  };
  const rate = (): Record<string, string> => (admitted?.rate ? rateLimitHeaders(admitted.rate) : {});
  try {
    return await responseOf(await runPaid(op.options, () => deps.clock.now(), call), { ...own, ...rate() });
  } catch (err) {
    // As app.onError renders it for REST: the envelope and its advice, with the rate window the call was admitted in.
    if (err instanceof ApiError) return Response.json(envelope(err.code, err.message, err.details), { status: err.status, headers: { ...own, ...rate(), ...adviceHeaders(err.advice) } });
    return failureResponse(deps.logger, err, { requestId, method: "GET", url });
  }
}

/** The outcome as the REST route answers it (paid.ts renderOutcome), as a plain Response. */
function responseOf(outcome: Outcome<unknown>, headers: Record<string, string>): Response {
  if (outcome.kind === "provisioning") return Response.json(outcome.body, { status: 202, headers: { ...headers, "Retry-After": String(outcome.body.retry_after_seconds), "Cache-Control": "no-store" } });
  if (outcome.kind === "free") return Response.json(outcome.body, { status: 200, headers });
  if (outcome.kind === "refused") {
    const r = refusalParts(outcome.refusal);
    return Response.json(r.body, { status: r.status, headers: { ...headers, ...r.headers } });
  }
  return answerResponse(outcome.answer, { ...headers, ...outcome.receipt });
}

function answerResponse(answer: Answer, headers: Record<string, string>): Response {
  if (answer.kind === "page") return new Response(answer.page.body, { status: 200, headers: { ...headers, "Content-Type": answer.page.contentType } });
  return Response.json(answer.body, { status: answer.status, headers: { ...headers, ...answer.headers } });
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
