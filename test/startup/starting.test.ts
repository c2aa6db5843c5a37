// What the server answers between listening and serving data (src/startup/starting.ts).
import { describe, expect, test } from "bun:test";
import { errorEnvelopeSchema } from "../../src/schemas/errors";
import { healthStartingSchema } from "../../src/schemas/discovery";
import { STARTING_RETRY_AFTER_SECONDS, startingFetch, type StartupState } from "../../src/startup/starting";
import { CONTRACT_VERSION } from "../../src/version";

const state: StartupState = { step: "observations", done: 1200, total: 601268, started_at: "2026-11-26T10:00:00.000Z" };
const fetchStarting = startingFetch(state, { version: "9.9.9", database: "pglite" });

describe("while starting", () => {
  test("/api/health answers 200 with the step under way, never cached", async () => {
    const res = fetchStarting(new Request("http://localhost/api/health"));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(healthStartingSchema.parse(await res.json())).toEqual({
      status: "starting",
      version: "9.9.9",
      contract_version: CONTRACT_VERSION,
      database: { kind: "pglite" },
      startup: { step: "observations", done: 1200, total: 601268, started_at: "2026-11-26T10:00:00.000Z" },
    });
  });

  test("the progress shown is the state's at the time of the request", async () => {
    const live: StartupState = { ...state };
    const f = startingFetch(live, { version: "1", database: "postgres" });
    live.step = "signal detection";
    live.done = 0;
    live.total = 1;
    const body = healthStartingSchema.parse(await f(new Request("http://localhost/api/health")).json());
    expect(body.startup).toEqual({ step: "signal detection", done: 0, total: 1, started_at: state.started_at });
    expect(body.database.kind).toBe("postgres");
  });

  test("every other path answers 503 SERVICE_UNAVAILABLE with Retry-After and the step", async () => {
    for (const path of ["/v1/indicators", "/v1/observations?indicator=UNRATE", "/", "/mcp", "/api/healthz"]) {
      const res = fetchStarting(new Request(`http://localhost${path}`, { method: path === "/mcp" ? "POST" : "GET" }));
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe(String(STARTING_RETRY_AFTER_SECONDS));
      const body = errorEnvelopeSchema.parse(await res.json());
      expect(body.error.code).toBe("SERVICE_UNAVAILABLE");
      expect(body.error.message).toBe("The service is starting (observations); retry in a few seconds.");
    }
  });
});
