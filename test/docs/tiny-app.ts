// A small app whose routes are fixed here, so the contract generator (openapi.test.ts) and the llms renderers
// (openapi-llms.test.ts) can be asserted exactly (the real app's routes change as resources land).
import { OpenAPIHono, createRoute, z } from "@hono/zod-openapi";
import type { App } from "../../src/http/app-env";
import { errorResponses } from "../../src/schemas/errors";

export const BASE = "https://api.example.com";

export function tinyApp(): App {
  const app = new OpenAPIHono() as unknown as App;
  const thing = z.object({ id: z.string().uuid(), size: z.number().int().min(0).nullable() }).openapi("Thing");
  const ok = (schema: z.ZodTypeAny) => ({ 200: { description: "ok", content: { "application/json": { schema } } } });
  app.openapi(
    createRoute({
      method: "get",
      path: "/v1/things",
      operationId: "list_things",
      tags: ["Things"],
      summary: "List things",
      request: {
        query: z.object({
          limit: z.coerce
            .number()
            .int()
            .min(0)
            .max(100)
            .default(50)
            .openapi({ param: { name: "limit", in: "query" }, description: "Page size" }),
          order: z
            .enum(["asc", "desc"])
            .default("desc")
            .openapi({ param: { name: "order", in: "query" } }),
          q: z
            .string()
            .min(1)
            .max(500)
            .openapi({ param: { name: "q", in: "query" } }),
        }),
      },
      responses: {
        ...ok(z.object({ data: z.array(thing), meta: z.object({ total: z.number().int() }) }).openapi("ThingList")),
        ...errorResponses(400, 500),
      },
    }),
    (c) => c.json({ data: [], meta: { total: 0 } }, 200),
  );
  app.openapi(
    createRoute({
      method: "get",
      path: "/v1/things/{id}/observations",
      operationId: "get_thing_observations",
      tags: ["Things"],
      summary: "Thing observations",
      "x-price-surface": "observations",
      request: { params: z.object({ id: z.string().openapi({ param: { name: "id", in: "path" } }) }) },
      responses: { ...ok(z.object({ data: thing })), ...errorResponses(400, 401, 402, 403, 404, 429, 500) },
    }),
    (c) => c.json({ data: { id: "x", size: null } }, 200),
  );
  app.openapi(
    createRoute({
      method: "get",
      path: "/v1/ask",
      operationId: "ask",
      tags: ["Ask"],
      summary: "Ask a question",
      "x-price-surface": ["ask", "ask_briefing"],
      responses: { ...ok(z.object({ answer: z.string().nullable() })), ...errorResponses(400, 402, 500) },
    }),
    (c) => c.json({ answer: null }, 200),
  );
  app.openapi(
    createRoute({
      method: "get",
      path: "/v1/panel",
      operationId: "get_panel",
      tags: ["Data"],
      summary: "Panel",
      responses: { ...ok(z.object({ dates: z.array(z.string()) })), ...errorResponses(400, 402, 500) },
    }),
    (c) => c.json({ dates: [] }, 200),
  );
  return app;
}
