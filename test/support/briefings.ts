// Test askers for briefing runs (the Asker contract of src/services/ask.ts): one that answers with a fixed, valid Ask
// response built here, and one that fails as a database fault would. Tests that check what a run stores use these,
// never the ask service's own answers. And the app the briefing route tests share (briefingsApp).
import { afterAll, beforeAll } from "bun:test";
import { createLogger } from "../../src/logger";
import type { Asker, AskInput } from "../../src/services/ask";
import { askResponseSchema, type AskResponse } from "../../src/schemas/ask";
import { runBriefing } from "../../src/services/briefings";
import { jsonBody, testKey } from "./keys";
import { makePaymentsApp, offlineX402 } from "./payments";

/** A covered answer to `q`, as the ask service shapes one (validated against the contract's schema). */
export function okAnswer(label: string, input?: Pick<AskInput, "depth" | "window">): AskResponse {
  return askResponseSchema.parse({
    answer: `Texas unemployment rate, ${label}: 4.1 percent.`,
    citations: [
      {
        tool: "get_latest",
        args: { indicator: "LASST48", region: "48" },
        summary: `Texas, unemployment rate ${label}: 4.1 percent`,
      },
    ],
    resolved: {
      indicators: [{ code: "LASST48", source: "bls", name: "Unemployment rate" }],
      regions: [{ code: "48", name: "Texas", type: "state" }],
      window: input?.window ?? "5y",
    },
    grounded: true,
    truncated: false,
    status: "ok",
    meta: { depth: input?.depth ?? "briefing", rounds: 2, toolCalls: 3, model: "test" },
  });
}

/** Answers every question with okAnswer(label), recording what it was asked. */
export function answeringAsker(
  label = "2025-09",
): Asker & { asked: { input: AskInput; signals: boolean | undefined }[] } {
  const asked: { input: AskInput; signals: boolean | undefined }[] = [];
  return {
    asked,
    async answer(input, opts) {
      asked.push({ input, signals: opts?.signals });
      return okAnswer(label, input);
    },
  };
}

/** Throws as the ask service does when its database fails. */
export function failingAsker(message = "connection terminated unexpectedly"): Asker & { calls: number } {
  const out = {
    calls: 0,
    async answer(): Promise<AskResponse> {
      out.calls++;
      throw new Error(message);
    },
  };
  return out;
}

/** The x402 address the briefings app is paid to. */
export const BRIEFINGS_PAY_TO = "0x4374713F62239c69e6912a4D7235B2a365397004";
/** The cadence of a weekly briefing, and how far runOnce moves the clock. */
export const WEEK_MS = 7 * 86_400_000;

/**
 * The payments app of the briefings tests (x402 by a facilitator that is never reached) with a premium key, and
 * requests on it. A function, so each file gets its own: test files may share one module registry.
 */
export function briefingsApp() {
  let t: Awaited<ReturnType<typeof makePaymentsApp>>;
  let premium: Awaited<ReturnType<typeof testKey>>;
  beforeAll(async () => {
    t = await makePaymentsApp({
      testRoute: false,
      x402: offlineX402(BRIEFINGS_PAY_TO),
    });
    premium = await testKey(t, { scopes: ["svc-premium"] });
  }, 120_000);
  afterAll(() => t?.close());

  const call = async (path: string, init: RequestInit = {}) => {
    const res = await t.request(path, init);
    return { res, status: res.status, body: (await res.json()) as any };
  };
  return {
    get t() {
      return t;
    },
    get premium() {
      return premium;
    },
    call,
    get: (path: string, headers: Record<string, string> = premium.headers) => call(path, { headers }),
    post: (body: unknown, headers: Record<string, string> = premium.headers) =>
      call("/v1/briefings", jsonBody(body, headers)),
    del: (id: string, headers: Record<string, string> = premium.headers) =>
      call(`/v1/briefings/${id}`, { method: "DELETE", headers }),
    /** Runs a briefing once with `asker` (the job's runner), a week after the previous call, so each run is another week's. */
    runOnce(id: string, asker: Asker) {
      t.clock.advance(WEEK_MS);
      return runBriefing({ db: t.database.db, clock: t.clock, logger: createLogger("silent") }, asker, id);
    },
  };
}

/** A valid saved briefing's body. */
export const VALID_BRIEFING = {
  name: "Texas jobs",
  question: "How is the unemployment rate in Texas moving?",
  cadence: "weekly",
};
