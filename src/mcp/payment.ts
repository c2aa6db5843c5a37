// x402 over MCP (the x402 MCP transport, tool-result binding: coinbase/x402 specs/transports-v2/mcp.md):
//   - an unpaid call to a paid tool is a tool result with `isError: true` whose structuredContent is the x402
//     `PaymentRequired` (x402Version, error, resource, accepts, extensions) and whose first text is its JSON;
//   - the client retries tools/call with the signed `PaymentPayload` in `params._meta["x402/payment"]`;
//   - a settled call carries the `SettleResponse` in `result._meta["x402/payment-response"]`.
// The payment is not verified here: it goes to the paid operation as the PAYMENT-SIGNATURE header (X-PAYMENT for a v1
// payload) of its REST request, so the one admission core verifies, reserves and settles it exactly as for REST.
import { decodeBase64Json, encodeBase64Json } from "payments";
import { envelope, type ErrorEnvelope } from "../errors";

export const X402_PAYMENT_META = "x402/payment";
export const X402_RESPONSE_META = "x402/payment-response";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The REST request headers carrying a tools/call's x402 payment, null when the call carries none, or the error
 * naming what is wrong with it (the payload's contents are the payment rail's to judge).
 */
export function paymentHeadersOf(
  meta: unknown,
): { ok: true; headers: Record<string, string> } | { ok: false; error: ErrorEnvelope } | null {
  if (!isObject(meta) || meta[X402_PAYMENT_META] === undefined) return null;
  const payload = meta[X402_PAYMENT_META];
  if (!isObject(payload)) {
    return {
      ok: false,
      error: envelope(
        "INVALID_PARAMETER",
        `Invalid _meta["${X402_PAYMENT_META}"]: it must be an x402 PaymentPayload object.`,
        {
          parameter: X402_PAYMENT_META,
          parameters: [X402_PAYMENT_META],
          in: "_meta",
        },
      ),
    };
  }
  return {
    ok: true,
    headers: { [payload.x402Version === 1 ? "X-PAYMENT" : "PAYMENT-SIGNATURE"]: encodeBase64Json(payload) },
  };
}

function headerJson(res: Response, name: string): Record<string, unknown> | null {
  const header = res.headers.get(name);
  if (!header) return null;
  try {
    const value = decodeBase64Json(header);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

/** The x402 settlement receipt of a REST answer (its PAYMENT-RESPONSE header), decoded; null when there is none. */
export const settlementOf = (res: Response) => headerJson(res, "payment-response");

/**
 * The x402 PaymentRequired of a REST 402 as its PAYMENT-REQUIRED header carries it: what an HTTP x402 client signs
 * from, with the bazaar extension in its compact form. (The 402 body's full form describes every parameter and the
 * response schema; a client echoes extensions into its payment, which would then outgrow the payment header limit.)
 */
export const challengeOf = (res: Response) => headerJson(res, "payment-required");

/** The REST envelope's message about a malformed payment header, reworded for the MCP `_meta` it came in. */
export function paymentMetaMessage(message: string): string {
  return message.replace(
    /Malformed (PAYMENT-SIGNATURE|X-PAYMENT) header: /,
    `Malformed _meta["${X402_PAYMENT_META}"]: `,
  );
}

export type PaymentRequest = {
  /** The x402 PaymentRequired beside the REST envelope (absent when the x402 rail is off). */
  x402: Record<string, unknown> | null;
  code: string;
  message: string;
  details: Record<string, unknown>;
};

/**
 * A payment request as the tool result's structuredContent: the x402 PaymentRequired with `error` its message (a
 * string, as x402 clients parse it), and beside it the service's `code` and `details` (price, rails, the equivalent
 * REST URL, the L402 challenge). Without the x402 rail: `{ error, code, details }`.
 */
export function paymentStructured(p: PaymentRequest): Record<string, unknown> {
  const { error: _x402Error, ...x402 } = p.x402 ?? {};
  return { ...x402, error: p.message, code: p.code, details: p.details };
}

/**
 * Its text: the same JSON without what a model reading text cannot use in MCP (the bazaar extension's schemas, the
 * L402 invoice and macaroon, which are paid on the REST URL), so it stays short and is still an x402 PaymentRequired
 * for clients that read `content[0].text`.
 */
export function paymentText(structured: Record<string, unknown>): string {
  const { extensions: _extensions, details, ...rest } = structured;
  const { l402, ...shortDetails } = (details ?? {}) as Record<string, unknown>;
  const l402Amount = isObject(l402) ? { l402: { amount_sats: l402.amount_sats, valid_until: l402.valid_until } } : {};
  return JSON.stringify({ ...rest, details: { ...shortDetails, ...l402Amount } });
}
