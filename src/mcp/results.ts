// The REST answer of a tool call as the tool result (MCP "Tool Result"):
//   - 2xx: the body (with MCP's additions, output.ts) as structuredContent, matching the tool's outputSchema, and a
//     text rendering of it (render.ts);
//   - a payment request (an anonymous call to a paid tool): the x402 PaymentRequired with the price, the rails and the
//     equivalent REST URL (payment.ts), `isError: true`;
//   - any other refusal: the REST error envelope `{ error: { code, message, details } }`, `isError: true`, with
//     argument errors said to be in the tool's arguments (REST says query or path).
// `_meta` carries the HTTP status, the equivalent REST URL, the request id, the key's rate-limit window and, for a
// call paid with x402, the settlement receipt.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { JsonObject } from "../contract/operations";
import { envelope, type ErrorEnvelope } from "../errors";
import { toolBody } from "./output";
import {
  X402_RESPONSE_META,
  challengeOf,
  paymentMetaMessage,
  paymentStructured,
  paymentText,
  settlementOf,
  type PaymentRequest,
} from "./payment";
import { renderBody, type JsonRecord } from "./render";
import type { McpTool } from "./tools";

export type CallContext = {
  /** Absolute URL of the equivalent REST request (on the public base URL). */
  restUrl: string;
  /** The MCP request carried no credential (so the REST request went out without one). */
  anonymous: boolean;
  /** Runs the REST request again without payment: a fresh challenge after a failed settlement. */
  rechallenge(): Promise<Response>;
};

type Meta = Record<string, unknown>;

function errorOf(body: JsonObject): ErrorEnvelope | null {
  const err = body.error;
  if (!err || typeof err !== "object" || typeof err.code !== "string" || typeof err.message !== "string") return null;
  return { error: err };
}

export function errorResult(error: ErrorEnvelope, meta: Meta = {}): CallToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(error) }],
    structuredContent: error,
    isError: true,
    _meta: meta,
  };
}

function metaOf(res: Response, restUrl: string): Meta {
  const meta: Meta = { http_status: res.status, rest_url: restUrl };
  const requestId = res.headers.get("x-request-id");
  if (requestId) meta.request_id = requestId;
  const limit = res.headers.get("x-ratelimit-limit");
  if (limit !== null) {
    meta.rate_limit = {
      limit: Number(limit),
      remaining: Number(res.headers.get("x-ratelimit-remaining")),
      reset: Number(res.headers.get("x-ratelimit-reset")),
    };
  }
  const settlement = settlementOf(res);
  if (settlement) meta[X402_RESPONSE_META] = settlement;
  return meta;
}

async function jsonOf(res: Response): Promise<JsonObject | null> {
  try {
    const body = await res.json();
    return body !== null && typeof body === "object" && !Array.isArray(body) ? (body as JsonObject) : null;
  } catch {
    return null;
  }
}

/** One line saying what the result holds and how to get more, above its text rendering. */
function summaryOf(tool: McpTool, status: number, body: JsonObject): string {
  if (status === 202 && body.status === "provisioning") {
    return `${tool.name}: the series ${body.indicator} for ${body.region} is being fetched (HTTP 202); call again in ${body.retry_after_seconds} s for its data.`;
  }
  const meta = body.meta ?? {};
  const rows = Array.isArray(body.data) ? body.data.length : null;
  let line = `${tool.name}`;
  if (rows !== null && typeof meta.total === "number") {
    const from = (meta.offset ?? 0) + 1;
    line += rows ? `: rows ${from} to ${from + rows - 1} of ${meta.total}` : `: no rows here of ${meta.total}`;
  } else if (rows !== null) line += `: ${rows} ${rows === 1 ? "row" : "rows"}`;
  else if (body.data === null) line += ": no record (data is null)";
  else if (typeof body.data === "object") line += ": one record";
  else {
    const lists = Object.entries(body).filter(([, v]) => Array.isArray(v));
    if (lists.length) line += `: ${lists.map(([k, v]) => `${k} ${(v as unknown[]).length}`).join(", ")}`;
  }
  if (status === 207) line += "; some items failed (see errors)";
  if (meta.truncated === true) {
    line +=
      tool.policy.paging === "cursor"
        ? `; more match: call again with cursor=${meta.next_cursor}`
        : `; more match: call again with offset=${(meta.offset ?? 0) + (rows ?? 0)}`;
  }
  return `${line}.`;
}

/**
 * A payment request from a REST 402 (its error envelope, and its x402 PaymentRequired when the x402 rail is on): the
 * price, how to pay it in the call (x402), with a key, or on the REST URL; `prefix` and `code` say why when it follows
 * a refused or unsettled payment.
 */
function paymentRequest(
  tool: McpTool,
  body: JsonObject,
  x402: JsonObject | null,
  restUrl: string,
  code: string,
  prefix: string,
  why: JsonObject = {},
): PaymentRequest {
  // The REST answer's `api_key` (where keys come from) is said in this message's own words, which keep the text short.
  const { api_key: _whereKeysComeFrom, ...restDetails } = (body.error.details ?? {}) as JsonObject;
  const details = { ...restDetails, ...why } as JsonObject;
  const rails: string[] = Array.isArray(details.rails) ? details.rails : [];
  const inCall = rails.includes("x402") && Array.isArray(x402?.accepts);
  const restRails = rails.map((r) => (r === "l402" ? "L402" : r)).join(" or ");
  const message =
    `${prefix}${tool.name} costs ${details.price_usd} USD for this call. ` +
    (inCall
      ? `Pay it in this call with x402: sign one of \`accepts\` and call again with the payment in _meta["x402/payment"]; or send`
      : "Send") +
    ` an API key with the MCP request ('Authorization: Bearer <key>' or 'X-API-Key: <key>'; free keys: POST /v1/signup)` +
    // The URL ends the message, so nothing sticks to it when it is copied.
    (restRails ? `; or pay the equivalent REST request with ${restRails}: GET ${restUrl}` : ".");
  return {
    x402: inCall ? x402 : null,
    code,
    message,
    details: { ...details, price_usd: String(details.price_usd), rest_url: restUrl, method: "GET" },
  };
}

function paymentResult(p: PaymentRequest, meta: Meta): CallToolResult {
  const structured = paymentStructured(p);
  return {
    content: [{ type: "text", text: paymentText(structured) }],
    structuredContent: structured,
    isError: true,
    _meta: meta,
  };
}

/** The REST answer as the tool result (see the header). */
export async function toolResult(tool: McpTool, res: Response, ctx: CallContext): Promise<CallToolResult> {
  const meta = metaOf(res, ctx.restUrl);
  const body = await jsonOf(res);
  if (res.status < 300 && body) {
    const out = toolBody(body, tool.policy);
    return {
      content: [{ type: "text", text: renderBody(summaryOf(tool, res.status, out), out as JsonRecord) }],
      structuredContent: out,
      _meta: meta,
    };
  }
  const err = body ? errorOf(body) : null;
  if (!err) {
    return errorResult(
      envelope(
        "INTERNAL_SERVER_ERROR",
        `The equivalent REST request answered ${res.status} without an error body (request ${meta.request_id ?? "unknown"}).`,
      ),
      meta,
    );
  }
  const { code, message, details } = err.error;
  if (ctx.anonymous && tool.priceUsd !== null) {
    if (res.status === 402) {
      const reason = typeof details?.reason === "string" ? `${message} ` : "";
      return paymentResult(
        paymentRequest(tool, body!, challengeOf(res), ctx.restUrl, "PAYMENT_REQUIRED", reason),
        meta,
      );
    }
    // This server takes no per-request payment (no rail configured): the key it needs, and what the call costs.
    if (code === "INVALID_API_KEY" && typeof details?.price_usd === "string") {
      const text =
        `${tool.name} costs ${details.price_usd} USD for this call. Send an API key with the MCP request ('Authorization: Bearer <key>' or ` +
        `'X-API-Key: <key>'; free keys: POST /v1/signup); this server takes no per-request payment (the equivalent REST request is GET ${ctx.restUrl}).`;
      return errorResult(envelope(code, text, { ...details, rest_url: ctx.restUrl, method: "GET" }), meta);
    }
    // An x402 payment that verified but did not settle: nothing was charged and the data is withheld; the transport
    // asks for the payment request again, with the failed receipt (`_meta`), so the client can pay anew.
    const settlement = meta[X402_RESPONSE_META] as { success?: boolean } | undefined;
    if (code === "INTERNAL_ERROR" && settlement?.success === false) {
      const again = await ctx.rechallenge();
      const challenge = again.status === 402 ? await jsonOf(again) : null;
      if (challenge && errorOf(challenge)) {
        return paymentResult(
          paymentRequest(tool, challenge, challengeOf(again), ctx.restUrl, code, `${message} `, {
            reason: details?.reason,
          }),
          meta,
        );
      }
    }
  }
  if (code === "INVALID_PARAMETER" && details && typeof details === "object") {
    // REST names where a bad value was (query, param); over MCP every value is an argument, and a payment is _meta.
    if (details.parameter === "payment") {
      return errorResult(
        envelope(code, paymentMetaMessage(message), {
          ...details,
          parameter: "x402/payment",
          parameters: ["x402/payment"],
          in: "_meta",
        }),
        meta,
      );
    }
    if (details.in === "query" || details.in === "param")
      return errorResult(envelope(code, message, { ...details, in: "arguments" }), meta);
  }
  return errorResult(err, meta);
}
