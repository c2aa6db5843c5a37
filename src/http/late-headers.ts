// Headers that app middleware adds to a response a handler returned as is (not built through the context).
import type { Context } from "hono";

/**
 * Sets the headers on the response in place; only when its headers are immutable (a fetched Response) is it copied
 * once. c.header() after next() would copy the whole response (body included) on every call.
 */
export function setOnResponse(c: Context, headers: Record<string, string>): void {
  try {
    for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v);
  } catch {
    for (const [k, v] of Object.entries(headers)) c.header(k, v);
  }
}
