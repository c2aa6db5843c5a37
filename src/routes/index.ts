// Every resource registers its routes here, in the order they appear in the spec.
import type { App } from "../http/app-env";
import type { Deps } from "../deps";
import { registerDiscoveryRoutes } from "./discovery";
import { registerHealthRoutes } from "./health";
import { registerSourceRoutes } from "./sources";
import { registerRegionRoutes } from "./regions";
import { registerIndicatorRoutes } from "./indicators";
import { registerObservationRoutes } from "./observations";
import { registerFredRoutes } from "./fred";
import { registerFlowRoutes } from "./flows";
import { registerPanelRoutes } from "./panel";
import { registerChartRoutes } from "./chart";
import { registerInsightRoutes } from "./insights";
import { registerSignalRoutes } from "./signals";
import { registerAskRoutes } from "./ask";
import { registerBriefingRoutes } from "./briefings";
import { registerKeyRoutes } from "./keys";
import { registerCheckoutRoutes } from "./checkout";
import { registerSelfServiceRoutes } from "./self-service";
import { registerMcpRoutes } from "./mcp";

export function registerRoutes(app: App, deps: Deps): void {
  registerDiscoveryRoutes(app, deps);
  registerHealthRoutes(app, deps);
  registerSourceRoutes(app, deps);
  registerRegionRoutes(app, deps);
  registerIndicatorRoutes(app, deps);
  registerObservationRoutes(app, deps);
  registerFredRoutes(app, deps);
  registerFlowRoutes(app, deps);
  registerPanelRoutes(app, deps);
  registerChartRoutes(app, deps);
  registerInsightRoutes(app, deps);
  registerSignalRoutes(app, deps);
  registerAskRoutes(app, deps);
  registerBriefingRoutes(app, deps);
  registerKeyRoutes(app, deps);
  registerCheckoutRoutes(app, deps);
  registerSelfServiceRoutes(app, deps);
  registerMcpRoutes(app, deps);
}
