// The paid gate's FRED dialect (paid.ts Dialect) for /fred/: FRED clients send their key as the `api_key`
// query parameter. A key of this service's form there is the request's credential; anything else (a FRED key, an
// empty value) is no credential, so the request is offered the payment rails (402) as an anonymous one is. Without
// `api_key`, the API's own headers (Authorization, X-API-Key) are read. The parameter is a secret: the URL the rails,
// the payment description and the page memo see has it removed, and no answer repeats it.
// Refusals keep their status and headers (x402's PAYMENT-REQUIRED, L402's WWW-Authenticate, the rate headers) and
// take FRED's error shape in the file type asked for; a JSON one also carries the API's envelope and the x402 body
// beside FRED's two fields, for clients of either. A request the operation declined (FRED's own 400s) is FRED's
// error document alone.
import type { Context } from "hono";
import { parseKey } from "../domain/keys";
import { FRED_ERRORS, renderFredError, type FredError, type FredFileType } from "../domain/fred/errors";
import { fileTypeOf } from "../domain/fred/query";
import { ERROR_STATUS, envelope } from "../errors";
import type { Refusal } from "../services/admission";
import type { Declined } from "../services/paid-call";
import type { AppEnv } from "./app-env";
import type { Dialect } from "./paid";
import { withoutQueryParameter } from "./url-parts";
import { adviceHeaders, credentialOf } from "./verdicts";

export const FRED_KEY_PARAMETER = "api_key";

/** A refusal of the admission core in FRED's shape. */
export function fredRefusal(c: Context<AppEnv>, r: Refusal): Response {
  const status = ERROR_STATUS[r.code];
  const message = r.code === "PAYMENT_REQUIRED" ? FRED_ERRORS.paymentRequired().message : r.message;
  const fileType = fileTypeOf(c.req.query());
  const headers = adviceHeaders(r.advice) ?? {};
  const { body, contentType } = renderFredError({ status: status as never, message }, fileType);
  const text =
    fileType === "json"
      ? JSON.stringify({ ...JSON.parse(body), ...envelope(r.code, r.message, r.details), ...(r.body ?? {}) })
      : body;
  return c.body(text, status as never, { ...headers, "Content-Type": contentType });
}

/** FRED's error document in `fileType`. */
export function fredError(c: Context<AppEnv>, error: FredError, fileType: FredFileType): Response {
  const { body, contentType } = renderFredError(error, fileType);
  return c.body(body, error.status, { "Content-Type": contentType });
}

/** A request the operation declined: FRED's error document in the file type asked for. */
export function fredDecline(c: Context<AppEnv>, d: Declined): Response {
  return fredError(c, d, fileTypeOf(c.req.query()));
}

export const FRED_DIALECT: Dialect = {
  credential(c) {
    const key = c.req.query(FRED_KEY_PARAMETER);
    if (key === undefined) return credentialOf(c.req.raw.headers);
    const mode = key === "" ? null : parseKey(key);
    return mode ? { kind: "key", key, mode } : { kind: "none" };
  },
  publicUrl: (c) => withoutQueryParameter(c.req.url, FRED_KEY_PARAMETER),
  refuse: fredRefusal,
  decline: fredDecline,
};
