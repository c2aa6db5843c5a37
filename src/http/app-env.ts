import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Deps } from "../deps";

export type AppEnv = { Variables: { requestId: string } };
export type App = OpenAPIHono<AppEnv>;
export type RegisterRoutes = (app: App, deps: Deps) => void;
