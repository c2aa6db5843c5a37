// Every resource registers its routes here, in the order they appear in the spec.
import type { App } from "../http/app-env";
import type { Deps } from "../deps";

export function registerRoutes(app: App, deps: Deps): void {
  void app;
  void deps;
}
