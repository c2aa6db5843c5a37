import type { MiddlewareHandler } from "hono";

/** Every response carries X-Request-Id; a well-formed one sent by the client is kept for tracing. */
export function requestId(): MiddlewareHandler<{ Variables: { requestId: string } }> {
  return async function requestIdMiddleware(c, next) {
    const incoming = c.req.header("x-request-id");
    const id = incoming && /^[A-Za-z0-9._:-]{8,128}$/.test(incoming) ? incoming : crypto.randomUUID();
    c.set("requestId", id);
    c.header("X-Request-Id", id);
    await next();
    c.header("X-Request-Id", id);
  };
}
