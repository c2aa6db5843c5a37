// Free operations (the catalog: sources, regions, indicators) declared once, as paid ones are (paid.ts
// PaidDefinition): the route (method, path, schemas) and the service call that renders its body. Registering one
// makes the REST route, answered with the catalog's cache headers and ETag (respond.ts catalogResponse), and records
// it in the app's route registry, where MCP finds it and calls the same service function without an HTTP request
// (operation-call.ts). Admission is a keyed route's in both: the key middleware for REST, the same core for MCP.
import type { RouteConfig } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { z, ZodType } from "zod";
import type { RenderedJson } from "../services/rendered";
import type { App, AppEnv } from "./app-env";
import type { QueryOf } from "./paid";
import { catalogResponse } from "./respond";
import { honoPath } from "./route-registry";

/** The validated path parameters of a route, as its schema outputs them. */
export type ParamsOf<Rt extends RouteConfig> = Rt["request"] extends { params: infer S }
  ? S extends ZodType
    ? z.output<S>
    : never
  : Record<string, never>;

export type FreeDefinition = {
  route: RouteConfig;
  /** The 200's body, from the validated query and path parameters (a 4xx is thrown as an ApiError). */
  answer(input: { query: any; params: any }): Promise<RenderedJson>;
  /** The body is rendered once and kept by the service (compressed once per coding), not built per request. */
  cached: boolean;
};

/** A definition of the free operation `route`, checked against it. */
export function freeOperation<Rt extends RouteConfig>(
  route: Rt,
  answer: (input: { query: QueryOf<Rt>; params: ParamsOf<Rt> }) => Promise<RenderedJson>,
  opts: { cached?: boolean } = {},
): FreeDefinition {
  return { route, answer: answer as FreeDefinition["answer"], cached: opts.cached ?? true };
}

/** Registers each of `definitions` on `app` as a REST route, recorded in its route registry, in order. */
export function registerFreeOperations(app: App, definitions: readonly FreeDefinition[]): void {
  for (const op of definitions) {
    app.registry.declareFree(op.route.method, honoPath(op.route.path), op);
    const handler = async (c: Context<AppEnv>) => {
      const valid = (target: string) => (c.req.valid as (t: string) => unknown).call(c.req, target) ?? {};
      return catalogResponse(c, await op.answer({ query: valid("query"), params: valid("param") }), op.cached);
    };
    app.openapi(op.route, handler as never);
  }
}
