// The app's route registry (src/http/route-registry.ts): each paid, free and purpose-carrying route is recorded once
// by the call that registers it, and found by the route a request matched or by a request path, never by a mark on
// its handler.
import { describe, expect, test } from "bun:test";
import { RouteRegistry } from "../../src/http/route-registry";

const paidInfo = {
  surface: "panel" as const,
  surfaces: ["panel" as const],
  example: "/v1/p",
  failing: null,
  cannotFailOncePaid: null,
  operation: {},
};

describe("the route registry", () => {
  test("a route declared twice is refused when it is registered", () => {
    const r = new RouteRegistry();
    r.declare("get", "/v1/p", "paid", paidInfo);
    expect(() => r.declare("GET", "/v1/p", "ping")).toThrow("GET /v1/p is declared twice");
    expect(() => r.declareFree("GET", "/v1/p", {})).toThrow("GET /v1/p is declared twice");
  });

  test("operations are found by a request path, literal segments and parameters alike; other routes are not operations", () => {
    const r = new RouteRegistry();
    const free = { name: "region" };
    r.declareFree("GET", "/v1/regions/:code", free);
    r.declare("GET", "/v1/p", "paid", paidInfo);
    r.declare("POST", "/v1/keys/rotate", "key_management");
    expect(r.operationAt("GET", "/v1/regions/US-CA")?.free).toBe(free);
    expect(r.operationAt("get", "/v1/p")?.paid?.path).toBe("/v1/p");
    expect(r.operationAt("GET", "/v1/regions/")).toBeUndefined();
    expect(r.operationAt("GET", "/v1/regions/US/x")).toBeUndefined();
    expect(r.operationAt("POST", "/v1/p")).toBeUndefined();
    expect(r.operationAt("POST", "/v1/keys/rotate")).toBeUndefined();
  });

  test("paid routes, their surfaces and the declared purposes are listed in registration order", () => {
    const r = new RouteRegistry();
    r.declare("GET", "/v1/a", "paid", { ...paidInfo, surfaces: ["observations", "panel"] });
    r.declareFree("GET", "/v1/free", {});
    r.declare("POST", "/v1/keys/revoke", "key_management", { allowExpired: true });
    r.declare("GET", "/v1/b", "paid", paidInfo);
    expect(r.paidRoutes().map((p) => `${p.method} ${p.path}`)).toEqual(["GET /v1/a", "GET /v1/b"]);
    expect(r.paidSurfaces()).toEqual(["observations", "panel"]);
    expect(r.declaredPurposes()).toEqual([
      { method: "POST", path: "/v1/keys/revoke", purpose: "key_management", allowExpired: true },
    ]);
    expect(r.at("GET", "/v1/free")?.admission).toEqual({ purpose: "keyed", allowExpired: false });
  });
});
