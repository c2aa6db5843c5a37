// The 402 challenge of a paid route: both rails (x402 v2 PaymentRequired in PAYMENT-REQUIRED and in the body beside
// the error envelope; WWW-Authenticate: L402), deterministic requirements, the bazaar extension taken from the
// route's own OpenAPI schemas, no-store, CORS that lets browsers read the payment headers. Offline (the
// development default points at the public Base Sepolia RPC), a challenge never waits on the network: the token's
// EIP-712 domain comes from the built-in table at once and the chain is asked once, in the background.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DevLightning, L402Rail, Payments, X402Rail, feedRate, memoryInvoiceStore, MemoryProofStore } from "payments";
import Ajv2020 from "ajv/dist/2020";
import { encodeAbiParameters } from "viem";
import { loadConfig } from "../../src/config";
import type { Logger } from "../../src/logger";
import type { PaymentGate } from "../../src/ports";
import { buildPayments } from "../../src/payments";
import { ManualClock, seededRandom } from "../support/clock";
import { makeTestApp } from "../support/app";
import { registerCleanup } from "../support/cleanup";
import {
  APERTURE_CHALLENGE,
  TEST_BASE_URL,
  TEST_NODE_KEY,
  TEST_ROOT_SECRET,
  addTestPaidRoute,
  makePaymentsApp,
  paymentRequiredOf,
  offlineX402,
} from "../support/payments";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

const PAY_TO = "0x4374713F62239c69e6912a4D7235B2a365397004";

/** What a facilitator does before cataloguing (@x402/extensions bazaar validateDiscoveryExtension): `info` against `schema`. */
function validBazaar(ext: { info: unknown; schema: any }): string[] {
  const validate = new Ajv2020({ strict: false, allErrors: true }).compile(ext.schema);
  return validate(ext.info) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || "(root)"}: ${e.message}`);
}
const BASE_SEPOLIA_USDC = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";

let t: Awaited<ReturnType<typeof makePaymentsApp>>;
beforeAll(async () => {
  // No RPC: the token's EIP-712 domain comes from the table of known assets (Base Sepolia USDC).
  t = await makePaymentsApp({
    x402: offlineX402(PAY_TO),
  });
}, 120_000);
afterAll(() => t.close());

describe("402 challenge", () => {
  test("PAYMENT-REQUIRED carries the x402 v2 PaymentRequired with one exact requirement and the bazaar extension", async () => {
    const res = await t.request("/test/paid?indicator=GDP");
    expect(res.status).toBe(402);
    const pr = paymentRequiredOf(res) as any;
    expect(pr.x402Version).toBe(2);
    expect(pr.error).toBe("Payment required");
    expect(pr.resource).toEqual({
      url: `${TEST_BASE_URL}/test/paid?indicator=GDP`,
      description: "observations: GDP",
      mimeType: "application/json",
    });
    expect(pr.accepts).toEqual([
      {
        scheme: "exact",
        network: "eip155:84532",
        amount: "10000",
        asset: BASE_SEPOLIA_USDC,
        payTo: PAY_TO,
        maxTimeoutSeconds: 300,
        extra: { name: "USDC", version: "2" },
      },
    ]);
    // The header's bazaar extension is the compact form: parameter names, types and the required list only.
    const bazaar = pr.extensions.bazaar;
    expect(bazaar.info).toEqual({
      input: { type: "http", method: "GET" },
      output: { type: "json", format: "application/json" },
    });
    expect(bazaar.schema).toEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        input: {
          type: "object",
          properties: {
            type: { type: "string", const: "http" },
            method: { type: "string", enum: ["GET"] },
            queryParams: { type: "object", properties: { indicator: { type: "string" }, status: { type: "integer" } } },
          },
          required: ["type", "method"],
          additionalProperties: false,
        },
        output: {
          type: "object",
          properties: { type: { type: "string" }, format: { type: "string" } },
          required: ["type"],
        },
      },
      required: ["input"],
    });
    expect(validBazaar(bazaar)).toEqual([]);
  });

  test("the body holds the error envelope and the same PaymentRequired, with the route described in full", async () => {
    const res = await t.request("/test/paid?indicator=GDP&status=200");
    const body = (await res.json()) as any;
    const pr = paymentRequiredOf(res) as any;
    expect(body.error.code).toBe("PAYMENT_REQUIRED");
    expect(body.error.message).toBe(
      `Payment required: pay with x402 (PAYMENT-SIGNATURE or X-PAYMENT) or L402 (Authorization), or use an API key. Free API keys: POST ${TEST_BASE_URL}/v1/signup, or in a browser at ${TEST_BASE_URL}/keys.`,
    );
    expect(body.error.details.api_key).toEqual({ signup: `${TEST_BASE_URL}/v1/signup`, page: `${TEST_BASE_URL}/keys` });
    expect(body.error.details.price_usd).toBe("0.01");
    expect(body.error.details.rails).toEqual(["x402", "l402"]);
    expect(body.x402Version).toBe(2);
    expect(body.resource).toEqual(pr.resource);
    // Clients match requirements by deep equality: the body's and the header's are the same.
    expect(body.accepts).toEqual(pr.accepts);
    // The body's bazaar extension: the request's own query as the example, typed as each parameter is (status is an
    // integer), the parameters' descriptions and bounds, and the response's schema.
    const bazaar = body.extensions.bazaar;
    expect(bazaar.info).toEqual({
      input: { type: "http", method: "GET", queryParams: { indicator: "GDP", status: 200 } },
      output: { type: "json", format: "application/json" },
    });
    const input = bazaar.schema.properties.input;
    expect(input.properties.method).toEqual({ type: "string", enum: ["GET"] });
    expect(input.properties.queryParams.properties.indicator).toEqual({
      type: "string",
      minLength: 1,
      description: "Indicator code; MISSING answers a free 404",
    });
    expect(input.properties.queryParams.properties.status).toMatchObject({
      type: "integer",
      minimum: 200,
      maximum: 599,
    });
    expect(input.required).toEqual(["type", "method"]);
    expect(bazaar.schema.properties.output.properties.example.properties.data.properties.served).toEqual({
      type: "integer",
    });
    expect(validBazaar(bazaar)).toEqual([]);
    // Both forms say the same of the input where they overlap: the header's schema is the body's, minus detail.
    const full = input.properties.queryParams;
    const compact = pr.extensions.bazaar.schema.properties.input.properties.queryParams;
    expect(Object.keys(compact.properties)).toEqual(Object.keys(full.properties));
    for (const [name, p] of Object.entries<any>(compact.properties)) expect(full.properties[name]).toMatchObject(p);
    expect(compact.required).toEqual(full.required);
  });

  test("both rails, no-store, and payment headers exposed to browsers", async () => {
    const res = await t.request("/test/paid?indicator=GDP", { headers: { origin: "https://app.example" } });
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(APERTURE_CHALLENGE.test(res.headers.get("www-authenticate")!)).toBe(true);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const exposed = res.headers
      .get("access-control-expose-headers")!
      .split(",")
      .map((s) => s.trim());
    expect(exposed).toEqual(
      expect.arrayContaining(["WWW-Authenticate", "PAYMENT-REQUIRED", "PAYMENT-RESPONSE", "X-PAYMENT-RESPONSE"]),
    );
    const preflight = await t.request("/test/paid", {
      method: "OPTIONS",
      headers: {
        origin: "https://app.example",
        "access-control-request-method": "GET",
        "access-control-request-headers": "payment-signature,x-payment,access-control-expose-headers",
      },
    });
    expect(preflight.status).toBe(204);
    const allowed = preflight.headers.get("access-control-allow-headers")!.toLowerCase();
    for (const h of ["payment-signature", "x-payment", "authorization", "access-control-expose-headers"])
      expect(allowed).toContain(h);
  });

  test("requirements are identical for identical requests; each challenge has a fresh invoice", async () => {
    const a = await t.request("/test/paid?indicator=GDP");
    const b = await t.request("/test/paid?indicator=GDP");
    expect(paymentRequiredOf(a)).toEqual(paymentRequiredOf(b));
    expect(a.headers.get("www-authenticate")).not.toBe(b.headers.get("www-authenticate"));
  });

  test("the price follows the resolved series: svc: series cost 0.05 on both rails", async () => {
    const res = await t.request("/test/paid?indicator=svc:GDP_REAL");
    expect(paymentRequiredOf(res).accepts[0].amount).toBe("50000");
    const body = (await res.json()) as any;
    expect(body.error.details).toMatchObject({ price_usd: "0.05", l402: { amount_sats: "50" } });
  });

  test("free answers carry no challenge", async () => {
    const res = await t.request("/test/paid?indicator=MISSING");
    expect(res.status).toBe(404);
    expect(res.headers.get("payment-required")).toBeNull();
  });
});

// One more app, for the rails built per test below: its payment gate is whichever rail the test installs.
let gate: PaymentGate | null = null;
let bench: Awaited<ReturnType<typeof makeTestApp>>;
beforeAll(async () => {
  bench = await makeTestApp({ payments: { authorize: (req, quote) => gate!.authorize(req, quote) } });
  addTestPaidRoute(bench.app, bench.deps);
}, 120_000);
afterAll(() => bench.close());

describe("when no rail can offer a challenge", () => {
  test("503 SERVICE_UNAVAILABLE with Retry-After, never a 402 without a way to pay", async () => {
    const clock = new ManualClock();
    const random = seededRandom(3);
    const payments = new Payments({
      // An unknown token on an unknown network with no RPC: its EIP-712 domain cannot be known.
      x402: new X402Rail({
        networks: [{ network: "eip155:999999", asset: PAY_TO, payTo: PAY_TO, rpcUrl: null }],
        settlement: { mode: "facilitator", url: "http://127.0.0.1:9" },
      }),
      // A rate feed that fails, with no fallback: the invoice cannot be priced.
      l402: new L402Rail({
        secrets: [TEST_ROOT_SECRET],
        backend: new DevLightning(memoryInvoiceStore(TEST_NODE_KEY), clock, random),
        rates: feedRate({
          url: "http://127.0.0.1:9/rate",
          clock,
          fetch: (async () => new Response("down", { status: 503 })) as unknown as typeof fetch,
        }),
        clock,
        random,
      }),
      store: new MemoryProofStore(),
      clock,
    });
    gate = payments;
    const res = await bench.request("/test/paid?indicator=GDP");
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(((await res.json()) as any).error.code).toBe("SERVICE_UNAVAILABLE");
  });
});

/** A logger that keeps what was logged. */
function recordingLogger() {
  const lines: Array<{ level: string; msg: string; fields?: Record<string, unknown> }> = [];
  const at = (level: string) => (msg: string, fields?: Record<string, unknown>) =>
    void lines.push({ level, msg, fields });
  const logger: Logger = { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
  return {
    logger,
    lines,
    warnings: (text: string) => lines.filter((l) => l.level === "warn" && l.msg.includes(text)).length,
  };
}

/** A loopback port nothing listens on. */
function closedPort(): number {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

/**
 * A JSON-RPC endpoint on loopback that holds every request unanswered until release() (a chain that does not
 * answer), then answers eth_call for the token's name(), version() and decimals() with the given values.
 */
function heldRpc(token: { name: string; version: string; decimals: number }) {
  const held: Array<() => void> = [];
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  let received = 0;
  let answered = 0;
  const results: Record<string, `0x${string}`> = {
    "0x06fdde03": encodeAbiParameters([{ type: "string" }], [token.name]),
    "0x54fd4d50": encodeAbiParameters([{ type: "string" }], [token.version]),
    "0x313ce567": encodeAbiParameters([{ type: "uint8" }], [token.decimals]),
  };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      received++;
      const body = (await req.json()) as { id: number; method: string; params: Array<{ data?: string }> };
      await new Promise<void>((resolve) => {
        held.push(resolve);
        for (const w of waiters.filter((w) => held.length >= w.n)) w.resolve();
      });
      answered++;
      const result = body.method === "eth_call" ? results[String(body.params[0]?.data).slice(0, 10)] : undefined;
      return Response.json(
        result
          ? { jsonrpc: "2.0", id: body.id, result }
          : { jsonrpc: "2.0", id: body.id, error: { code: -32601, message: "not here" } },
      );
    },
  });
  registerCleanup(async () => void server.stop(true));
  return {
    url: `http://127.0.0.1:${server.port}`,
    get received() {
      return received;
    },
    get answered() {
      return answered;
    },
    /** Resolves once `n` requests are being held. */
    holding: (n: number) =>
      new Promise<void>((resolve) => (held.length >= n ? resolve() : waiters.push({ n, resolve }))),
    release: () => held.splice(0).forEach((r) => r()),
  };
}

describe("offline: the challenge never waits on the network", () => {
  test("development defaults with an unreachable RPC (a closed loopback port): the 402 is built from the built-in table; nothing waits or warns", async () => {
    const log = recordingLogger();
    const clock = new ManualClock();
    const random = seededRandom(5);
    const config = loadConfig({
      DATA_DIR: mkdtempSync(join(tmpdir(), "svc-pay-")),
      X402_RPC_URL: `http://127.0.0.1:${closedPort()}`,
    });
    const setup = buildPayments(config, { database: bench.database, clock, random, logger: log.logger });
    // What the server does at start (src/bootstrap.ts): nothing to read for a known asset.
    const prepared = setup.payments!.prepare();
    gate = setup.payments!;
    const res = await bench.request("/test/paid?indicator=GDP");
    expect(res.status).toBe(402);
    expect(paymentRequiredOf(res).accepts).toEqual([
      {
        scheme: "exact",
        network: "eip155:84532",
        amount: "10000",
        asset: BASE_SEPOLIA_USDC,
        payTo: (setup.summary.x402 as { pay_to: string }).pay_to as `0x${string}`,
        maxTimeoutSeconds: 300,
        extra: { name: "USDC", version: "2" },
      },
    ]);
    expect(res.headers.get("www-authenticate")).toMatch(APERTURE_CHALLENGE);
    await prepared;
    for (let i = 0; i < 3; i++)
      expect(paymentRequiredOf(await bench.request("/test/paid?indicator=GDP")).accepts[0]!.extra).toEqual({
        name: "USDC",
        version: "2",
      });
    // The table is a known fact about this token: the chain is not asked, so an offline start says nothing.
    expect(log.lines.filter((l) => l.level === "warn")).toEqual([]);
  });

  test("a known asset never asks the chain, even when one is configured and answering", async () => {
    const rpc = heldRpc({ name: "USDC (on chain)", version: "2", decimals: 6 });
    const log = recordingLogger();
    const rail = new X402Rail({
      networks: [{ network: "eip155:84532", payTo: PAY_TO, rpcUrl: rpc.url }],
      settlement: { mode: "facilitator", url: "http://127.0.0.1:9" },
      logger: log.logger,
    });
    const payments = new Payments({ x402: rail, store: new MemoryProofStore(), clock: new ManualClock() });
    await payments.prepare();
    gate = payments;
    for (let i = 0; i < 3; i++) {
      const res = await bench.request("/test/paid?indicator=GDP");
      expect(res.status).toBe(402);
      expect(paymentRequiredOf(res).accepts[0]!.extra).toEqual({ name: "USDC", version: "2" });
    }
    expect(rpc.received).toBe(0);
    expect(log.lines.filter((l) => l.level === "warn")).toEqual([]);
  });
  test("an asset the table does not know is read from its chain; when the chain cannot answer, the rail is refused plainly (503), never offered with a guessed domain", async () => {
    const log = recordingLogger();
    const rail = new X402Rail({
      networks: [{ network: "eip155:84532", asset: PAY_TO, payTo: PAY_TO, rpcUrl: `http://127.0.0.1:${closedPort()}` }],
      settlement: { mode: "facilitator", url: "http://127.0.0.1:9" },
      logger: log.logger,
    });
    gate = new Payments({ x402: rail, store: new MemoryProofStore(), clock: new ManualClock() });
    const res = await bench.request("/test/paid?indicator=GDP");
    expect(res.status).toBe(503);
    expect(((await res.json()) as any).error.code).toBe("SERVICE_UNAVAILABLE");
    expect(log.warnings("could not read the token's EIP-712 domain")).toBe(1);
  });
});
