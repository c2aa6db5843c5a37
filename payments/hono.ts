// Thin Hono adapter: reads the payment headers from a Hono context and decorates responses. The decision logic is in
// core.ts; how a refusal is rendered (error envelope, status codes) is the host application's choice.
import type { Context } from "hono";
import type { PaymentRequest } from "./types";

export function paymentRequest(c: Context): PaymentRequest {
  return { header: (name) => c.req.header(name) };
}

/** The same response with extra headers (a handler's Response may have immutable headers). */
export function withHeaders(res: Response, headers: Record<string, string>): Response {
  const out = new Response(res.body, res);
  for (const [k, v] of Object.entries(headers)) out.headers.set(k, v);
  return out;
}
