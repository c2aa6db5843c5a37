// What a route is admitted as, declared where it is registered (src/routes/*) and read by the key middleware
// (admission.ts admitKeyed), which runs before the route: registering the route records its purpose in the app's
// route registry (route-registry.ts) under its method and path. A route that declares nothing is a keyed one; a
// paid route (paid.ts registerPaid) is admitted by its own gate.
import type { RouteConfig, RouteHandler } from "@hono/zod-openapi";
import type { App, AppEnv } from "./app-env";
import { honoPath, type RoutePurpose } from "./route-registry";

export type { RouteAdmission, RoutePurpose } from "./route-registry";

/** Registers `route` on `app` with `handler`, admitted as `purpose` (recorded in the app's route registry). */
export function registerWithPurpose<R extends RouteConfig>(
  app: App,
  route: R,
  purpose: Exclude<RoutePurpose, "paid" | "keyed">,
  handler: RouteHandler<R, AppEnv>,
  opts: { allowExpired?: boolean } = {},
): void {
  app.registry.declare(route.method, honoPath(route.path), purpose, opts);
  app.openapi(route, handler as never);
}
