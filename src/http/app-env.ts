import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Deps } from "../deps";
import type { Admission } from "../services/admission";
import type { AuthenticatedKey } from "../services/key-auth";
import type { OperationCatalog } from "./operations";
import type { PageMemo } from "../services/page-memo";
import type { RouteRegistry } from "./route-registry";

/** `admission` is the app's admission core; `apiKey` is the key it admitted the request with; `operations`
 *  describes routes from the OpenAPI document (for the x402 bazaar extension); `pages` is where paid() records
 *  answers the page memo may answer again (absent when PAGE_MEMO=off), and `pageKey` the memo's key of a request it
 *  looked up and could not answer (paid.ts), for the answer to be recorded under; `turn` is the turn of the event loop the
 *  request arrived in (content-coding.ts bodyToWrite). */
export type AppEnv = {
  Variables: {
    requestId: string;
    admission: Admission;
    apiKey?: AuthenticatedKey;
    operations?: OperationCatalog;
    pages?: PageMemo;
    pageKey?: string;
    turn?: Turn;
  };
};
/** The app, with the registry of its declared routes (paid operations, admission purposes: route-registry.ts). */
export type App = OpenAPIHono<AppEnv> & { readonly registry: RouteRegistry };
/** A turn of the event loop in which requests arrived: `ended` once it is over (content-coding.ts eventLoopTurns). */
export type Turn = { ended: boolean };
export type RegisterRoutes = (app: App, deps: Deps) => void;
