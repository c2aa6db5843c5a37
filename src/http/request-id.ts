import type { Context } from "hono";
import type { AppEnv } from "./app-env";
import { setOnResponse } from "./late-headers";

const WELL_FORMED = /^[A-Za-z0-9._:-]{8,128}$/;

/** The id of a request: a well-formed one sent by the client is kept for tracing, else a new UUID. */
export function requestIdFor(incoming: string | null): string {
  return incoming !== null && WELL_FORMED.test(incoming) ? incoming : crypto.randomUUID();
}

/**
 * Every response carries X-Request-Id. Set before the handler, it goes into every response built through the context
 * (c.json, c.body, onError); returns the id for requestIdAfter.
 */
export function requestIdBefore(c: Context<AppEnv>): string {
  const id = requestIdFor(c.req.raw.headers.get("x-request-id"));
  c.set("requestId", id);
  c.header("X-Request-Id", id);
  return id;
}

/** After the handler: a Response returned as is (a payment challenge, the MCP transport) gets the id too. */
export function requestIdAfter(c: Context, id: string): void {
  if (c.res.headers.get("x-request-id") !== id) setOnResponse(c, { "X-Request-Id": id });
}
