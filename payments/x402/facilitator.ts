// The x402 rail's facilitator client: a payment is verified and settled through a facilitator's /verify and /settle
// HTTP API when the rail does not settle itself.
import type { Hex } from "viem";
import { shortError, UnavailableError } from "./errors";
import { v1NameOf } from "./networks";
import type { ParsedPayment, PaymentRequirements } from "./types";

/** Where and how the facilitator is reached. */
export type FacilitatorLink = {
  url: string;
  headers?: Record<string, string>;
  fetch: typeof fetch;
  /** Bound for one call. */
  timeoutMs: number;
};

/** POST {url}/verify or /settle with the payload as the client sent it (signature normalised) and our requirement. */
export async function facilitatorCall<T>(
  link: FacilitatorLink,
  path: "verify" | "settle",
  payment: ParsedPayment,
  req: PaymentRequirements,
  signature: Hex,
): Promise<T> {
  const paymentPayload = { ...payment.raw, payload: { ...(payment.raw.payload as object), signature } };
  const paymentRequirements =
    payment.version === 2
      ? req
      : {
          scheme: req.scheme,
          network: v1NameOf(req.network),
          maxAmountRequired: req.amount,
          resource: "",
          description: "",
          mimeType: "application/json",
          payTo: req.payTo,
          maxTimeoutSeconds: req.maxTimeoutSeconds,
          asset: req.asset,
          extra: req.extra,
        };
  let res: Response;
  try {
    res = await link.fetch(`${link.url.replace(/\/+$/, "")}/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(link.headers ?? {}) },
      body: JSON.stringify({ x402Version: payment.version, paymentPayload, paymentRequirements }, (_k, val) =>
        typeof val === "bigint" ? val.toString() : val,
      ),
      signal: AbortSignal.timeout(link.timeoutMs),
    });
  } catch (e) {
    if (path === "verify") throw new UnavailableError(`facilitator unreachable: ${shortError(e)}`);
    throw e;
  }
  const text = await res.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  // Rejections come back as 200 with isValid/success false; a non-2xx with such a body is a rejection too.
  if (body && typeof body === "object" && ("isValid" in body || "success" in body)) return body as T;
  const err = `facilitator /${path} answered ${res.status}`;
  if (path === "verify") throw new UnavailableError(err);
  throw new Error(err);
}
