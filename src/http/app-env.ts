import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Deps } from "../deps";
import type { Admission } from "../services/admission";
import type { AuthenticatedKey } from "../services/keys";
import type { Turn } from "./deferred-body";
import type { OperationCatalog } from "./operations";
import type { PageMemo } from "../services/page-memo";
import type { RouteRegistry } from "./route-registry";

/** `admission` is the app's admission core; `apiKey` is the key it admitted the request with; `operations`
 *  describes routes from the OpenAPI document (for the x402 bazaar extension); `pages` is where paid() records
 *  answers the page memo may answer again (absent when PAGE_MEMO=off); `turn` is the turn of the event loop the
 *  request arrived in (deferred-body.ts). */
export type AppEnv = {
  Variables: { requestId: string; admission: Admission; apiKey?: AuthenticatedKey; operations?: OperationCatalog; pages?: PageMemo; turn?: Turn };
};
/** The app, with the registry of its declared routes (paid operations, admission purposes: route-registry.ts). */
export type App = OpenAPIHono<AppEnv> & { readonly registry: RouteRegistry };
export type RegisterRoutes = (app: App, deps: Deps) => void;
