// Test wiring of the payment rail: the real payments package (x402 and L402 rails, the development Lightning
// backend with an in-memory invoice store) over the test database's proof store, behind the real access gate.
// `addTestPaidRoute` defines a tiny paid route in the test app itself, so payments are tested before and
// independently of the real data routes. `outage: true` lets a test make the real routes' handlers fail (HandlerOutage).
import { createRoute, z } from "@hono/zod-openapi";
import {
  DevLightning,
  L402Rail,
  Payments,
  X402Rail,
  decodeBase64Json,
  fixedRate,
  memoryInvoiceStore,
  type PaymentRequired,
  type X402Options,
} from "payments";
import { paymentProofStore } from "../../db/repos/payments";
import type { Database } from "../../db/client";
import type { Deps } from "../../src/deps";
import type { App } from "../../src/http/app-env";
import { envelope, ERROR_STATUS, fail, type ErrorCode } from "../../src/errors";
import { errorResponses } from "../../src/schemas/errors";
import type { Config } from "../../src/config";
import { jsonAnswer, registerPaid, serve } from "../../src/http/paid";
import type { Serving } from "../../src/pricing";
import type { PaymentGate } from "../../src/ports";
import { makeTestApp } from "./app";
import { ManualClock, seededRandom } from "./clock";
import { makeTestDatabase } from "./db";

export const TEST_ROOT_SECRET = new Uint8Array(32).fill(7);
export const TEST_NODE_KEY = new Uint8Array(32).fill(9);
export const TEST_BASE_URL = "https://api.example.test";
/** USD per BTC in tests: $0.01 = 10 sat, $0.05 = 50 sat. */
export const TEST_BTC_USD = "100000";

export type RouteHooks = {
  /** Runs inside the handler, before it answers (e.g. drains the payer to make settlement fail). */
  beforeAnswer?: () => Promise<void>;
};

export function addTestPaidRoute(app: App, deps: Deps, hooks: RouteHooks = {}) {
  const counter = { served: 0 };
  const route = createRoute({
    method: "get",
    path: "/test/paid",
    operationId: "test_paid",
    summary: "A paid route defined by the payment tests",
    request: {
      query: z.object({
        indicator: z.string().min(1).optional().openapi({ description: "Indicator code; MISSING answers a free 404" }),
        status: z.coerce.number().int().min(200).max(599).optional(),
      }),
    },
    responses: {
      200: {
        description: "Served",
        content: {
          "application/json": {
            schema: z
              .object({ data: z.object({ indicator: z.string().nullable(), served: z.number().int() }) })
              .openapi("TestPaidResponse"),
          },
        },
      },
      ...errorResponses(400, 402, 404, 500, 502),
    },
  });
  registerPaid<typeof route, Serving & { status: number }>(app, deps, route, {
    surface: "observations",
    reads: "all",
    example: "/test/paid?indicator=GDP",
    async resolve(query) {
      const indicator = query.indicator ?? null;
      if (indicator === "MISSING") fail("RESOURCE_NOT_FOUND", "No indicator MISSING.");
      return serve({
        indicator,
        region: null,
        resource: "/test/paid",
        reads: [{ indicator, region: null, premium: false, surface: "observations" }],
        status: query.status ?? 200,
      });
    },
    async answer(resolved) {
      await hooks.beforeAnswer?.();
      const status = resolved.status;
      if (status >= 400) {
        const code =
          (Object.keys(ERROR_STATUS) as ErrorCode[]).find((k) => ERROR_STATUS[k] === status) ?? "INTERNAL_SERVER_ERROR";
        fail(code, `The handler answered ${status}.`);
      }
      counter.served++;
      return jsonAnswer({ data: { indicator: resolved.indicator, served: counter.served } });
    },
  });
  return counter;
}

/**
 * A database outage that starts once a payment has been granted and ends when the gate settles or releases: the
 * route's own handler then fails at its first read (Error "injected database outage", a 500) with its proof
 * reserved, which is how a real handler fails after payment (its store or an upstream going away). Only the app's
 * data reads go through the failing handle; the payment proof store keeps the real one, as it would in production
 * (proofs and data may live apart, and a release must still be recorded). `arm()` applies to the next granted
 * request, and `onDown` runs as the database goes (a test empties the app's caches there, so the handler must read);
 * `refused` counts the database accesses the outage turned away.
 */
export type HandlerOutage = { arm(onDown?: () => void): void; disarm(): void; readonly refused: number };

function withHandlerOutage(
  database: Database,
  gate: PaymentGate,
): { database: Database; gate: PaymentGate; outage: HandlerOutage } {
  let armed = false;
  let down = false;
  let onDown: (() => void) | undefined;
  let refused = 0;
  const db = new Proxy(database.db, {
    get(target, prop) {
      if (down) {
        refused++;
        throw new Error("injected database outage");
      }
      const v = Reflect.get(target, prop, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  const outageGate: PaymentGate = {
    async authorize(req, quote) {
      const decision = await gate.authorize(req, quote);
      if (decision.kind !== "granted" || !armed) return decision;
      onDown?.();
      down = true;
      return {
        ...decision,
        settle: async () => ((down = false), decision.settle()),
        release: async () => ((down = false), await decision.release()),
      };
    },
  };
  const outage: HandlerOutage = {
    arm: (then) => void ((armed = true), (onDown = then)),
    disarm: () => void ((armed = false), (down = false)),
    get refused() {
      return refused;
    },
  };
  return { database: { ...database, db }, gate: outageGate, outage };
}

/**
 * The x402 rail on Base Sepolia paying `payTo` through a facilitator nothing answers at: its challenge is offered, no
 * payment can settle (for tests of everything before a payment).
 */
export function offlineX402(payTo: `0x${string}`): Omit<X402Options, "logger"> {
  return {
    networks: [{ network: "eip155:84532", payTo, rpcUrl: null }],
    settlement: { mode: "facilitator", url: "http://127.0.0.1:9" },
  };
}

export type PaymentsAppOptions = {
  x402?: Omit<X402Options, "logger"> | null;
  l402?: boolean;
  clock?: ManualClock;
  hooks?: RouteHooks;
  /** Register the test route (default true). */
  testRoute?: boolean;
  ttlSeconds?: number;
  /** Put the app's data reads behind a HandlerOutage switch (returned as `outage`). */
  outage?: boolean;
  config?: Partial<Config>;
  /** PUBLIC_BASE_URL as the admission core sees it (default TEST_BASE_URL); null: unset. */
  publicBaseUrl?: string | null;
};

export async function makePaymentsApp(opts: PaymentsAppOptions = {}) {
  const database = await makeTestDatabase();
  const clock = opts.clock ?? new ManualClock();
  const random = seededRandom(11);
  const dev = new DevLightning(memoryInvoiceStore(TEST_NODE_KEY), clock, random);
  const l402 =
    opts.l402 === false
      ? null
      : new L402Rail({
          secrets: [TEST_ROOT_SECRET],
          backend: dev,
          rates: fixedRate(TEST_BTC_USD),
          clock,
          random,
          ttlSeconds: opts.ttlSeconds,
        });
  const x402 = opts.x402 ? new X402Rail(opts.x402) : null;
  const payments = new Payments({ x402, l402, store: paymentProofStore(database.db), clock });
  const faulty = opts.outage ? withHandlerOutage(database, payments) : null;
  const t = await makeTestApp({
    database: faulty?.database ?? database,
    clock,
    random,
    access: {
      keys: true,
      payments: faulty?.gate ?? payments,
      publicBaseUrl: opts.publicBaseUrl === undefined ? TEST_BASE_URL : opts.publicBaseUrl,
    },
    config: opts.config,
  });
  const counter = opts.testRoute === false ? { served: 0 } : addTestPaidRoute(t.app, t.deps, opts.hooks);
  // The real database handle, for tests that read what was stored (the app's may be behind the outage switch).
  return { ...t, database, payments, dev, counter, outage: faulty?.outage ?? null };
}

export function paymentRequiredOf(res: Response): PaymentRequired {
  const h = res.headers.get("payment-required");
  if (!h) throw new Error("no PAYMENT-REQUIRED header");
  return decodeBase64Json(h) as PaymentRequired;
}

/** Aperture's client regex (aperture l402/client_interceptor.go). */
export const APERTURE_CHALLENGE = /(LSAT|L402) macaroon="(.*?)", invoice="(.*?)"/;
