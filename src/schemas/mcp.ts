// The JSON-RPC 2.0 messages of POST /api/mcp, for the OpenAPI contract only: the MCP SDK's transport parses and
// validates the body itself (and answers its own JSON-RPC errors), so no zod validator runs on this route.
import { z } from "@hono/zod-openapi";

const id = z.union([z.string(), z.number().int()]);

export const jsonRpcRequestSchema = z
  .object({
    jsonrpc: z.literal("2.0"),
    id: id.optional().openapi({ description: "Absent for notifications (answered 202 with no body)." }),
    method: z.string().openapi({ description: "`initialize`, `tools/list`, `tools/call`, `ping`, or a notification.", example: "tools/call" }),
    params: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({ example: { name: "get_latest", arguments: { indicator: "PAYEMS", region: "US" } } }),
  })
  .openapi("JsonRpcRequest");

export const jsonRpcResponseSchema = z
  .object({
    jsonrpc: z.literal("2.0"),
    id: id.nullable(),
    result: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({
        description:
          "tools/call: `{ content: [{ type: 'text', text }], structuredContent, isError? }`; structuredContent is the REST " +
          "response body, or the error envelope `{ error: { code, message, details } }` when isError is true.",
      }),
    error: z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }).optional(),
  })
  .openapi("JsonRpcResponse");
