import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Deps } from "../deps";
import type { AuthenticatedKey } from "./auth";
import type { HotReads } from "./hot-reads";
import type { OperationCatalog } from "./operations";

/** `apiKey` is set by identify() when the request carries a valid key; `operations` describes routes from the
 *  OpenAPI document (for the x402 bazaar extension); `hotReads` is where paid() records answers the hot-read lane
 *  may replay. */
export type AppEnv = { Variables: { requestId: string; apiKey?: AuthenticatedKey; operations?: OperationCatalog; hotReads?: HotReads } };
export type App = OpenAPIHono<AppEnv>;
export type RegisterRoutes = (app: App, deps: Deps) => void;
