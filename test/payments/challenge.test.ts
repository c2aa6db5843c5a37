// The 402 challenge of a paid route: both rails (x402 v2 PaymentRequired in PAYMENT-REQUIRED and in the body beside
// the error envelope; WWW-Authenticate: L402), deterministic requirements, the bazaar extension taken from the
// route's own OpenAPI schemas, no-store, CORS that lets browsers read the payment headers.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { DevLightning, L402Rail, Payments, X402Rail, feedRate, memoryInvoiceStore, MemoryProofStore } from "payments";
import { paymentRail } from "../../src/http/payments";
import { ManualClock, seededRandom } from "../support/clock";
import { makeTestApp } from "../support/app";
import { APERTURE_CHALLENGE, TEST_BASE_URL, TEST_NODE_KEY, TEST_ROOT_SECRET, addTestPaidRoute, makePaymentsApp, paymentRequiredOf } from "../support/payments";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

const PAY_TO = "0x4374713F62239c69e6912a4D7235B2a365397004";
const BASE_SEPOLIA_USDC = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";

let t: Awaited<ReturnType<typeof makePaymentsApp>>;
beforeAll(async () => {
  // No RPC: the token's EIP-712 domain comes from the table of known assets (Base Sepolia USDC).
  t = await makePaymentsApp({
    x402: { networks: [{ network: "eip155:84532", payTo: PAY_TO, rpcUrl: null }], settlement: { mode: "facilitator", url: "http://127.0.0.1:9" } },
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
    expect(pr.resource).toEqual({ url: `${TEST_BASE_URL}/test/paid?indicator=GDP`, description: "observations: GDP", mimeType: "application/json" });
    expect(pr.accepts).toEqual([
      { scheme: "exact", network: "eip155:84532", amount: "10000", asset: BASE_SEPOLIA_USDC, payTo: PAY_TO, maxTimeoutSeconds: 300, extra: { name: "USDC", version: "2" } },
    ]);
    const bazaar = pr.extensions.bazaar;
    expect(bazaar.info).toEqual({ input: { type: "http", method: "GET", queryParams: { indicator: "GDP" } }, output: { type: "json", format: "application/json" } });
    const input = bazaar.schema.properties.input;
    expect(input.properties.method).toEqual({ type: "string", enum: ["GET"] });
    expect(input.properties.queryParams.properties.indicator).toEqual({ type: "string", minLength: 1, description: "Indicator code; MISSING answers a free 404" });
    expect(input.properties.queryParams.properties.status).toMatchObject({ type: "integer", minimum: 200, maximum: 599 });
    expect(input.required).toEqual(["type", "method"]);
    expect(bazaar.schema.properties.output.properties.example.properties.data.properties.served).toEqual({ type: "integer" });
    // Small enough for facilitators and proxies (research x402.md §6: keep it under ~8 KB).
    expect(res.headers.get("payment-required")!.length).toBeLessThan(8192);
  });

  test("the body holds the error envelope and the same PaymentRequired for clients that read bodies", async () => {
    const res = await t.request("/test/paid?indicator=GDP");
    const body = (await res.json()) as any;
    const pr = paymentRequiredOf(res) as any;
    expect(body.error.code).toBe("PAYMENT_REQUIRED");
    expect(body.error.message).toBe("Payment required: pay with x402 (PAYMENT-SIGNATURE or X-PAYMENT) or L402 (Authorization), or use an API key.");
    expect(body.error.details.price_usd).toBe("0.01");
    expect(body.error.details.rails).toEqual(["x402", "l402"]);
    expect(body.x402Version).toBe(2);
    expect(body.resource).toEqual(pr.resource);
    expect(body.accepts).toEqual(pr.accepts);
    expect(body.extensions).toEqual(pr.extensions);
  });

  test("both rails, no-store, and payment headers exposed to browsers", async () => {
    const res = await t.request("/test/paid?indicator=GDP", { headers: { origin: "https://app.example" } });
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(APERTURE_CHALLENGE.test(res.headers.get("www-authenticate")!)).toBe(true);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const exposed = res.headers.get("access-control-expose-headers")!.split(",").map((s) => s.trim());
    expect(exposed).toEqual(expect.arrayContaining(["WWW-Authenticate", "PAYMENT-REQUIRED", "PAYMENT-RESPONSE", "X-PAYMENT-RESPONSE"]));
    const preflight = await t.request("/test/paid", {
      method: "OPTIONS",
      headers: { origin: "https://app.example", "access-control-request-method": "GET", "access-control-request-headers": "payment-signature,x-payment,access-control-expose-headers" },
    });
    expect(preflight.status).toBe(204);
    const allowed = preflight.headers.get("access-control-allow-headers")!.toLowerCase();
    for (const h of ["payment-signature", "x-payment", "authorization", "access-control-expose-headers"]) expect(allowed).toContain(h);
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

describe("when no rail can offer a challenge", () => {
  test("503 SERVICE_UNAVAILABLE with Retry-After, never a 402 without a way to pay", async () => {
    const clock = new ManualClock();
    const random = seededRandom(3);
    const payments = new Payments({
      // An unknown token on an unknown network with no RPC: its EIP-712 domain cannot be known.
      x402: new X402Rail({ networks: [{ network: "eip155:999999", asset: PAY_TO, payTo: PAY_TO, rpcUrl: null }], settlement: { mode: "facilitator", url: "http://127.0.0.1:9" } }),
      // A rate feed that fails, with no fallback: the invoice cannot be priced.
      l402: new L402Rail({
        secrets: [TEST_ROOT_SECRET],
        backend: new DevLightning(memoryInvoiceStore(TEST_NODE_KEY), clock, random),
        rates: feedRate({ url: "http://127.0.0.1:9/rate", clock, fetch: (async () => new Response("down", { status: 503 })) as unknown as typeof fetch }),
        clock,
        random,
      }),
      store: new MemoryProofStore(),
      clock,
    });
    const app = await makeTestApp({ clock, random, payments: paymentRail(payments, { publicBaseUrl: null }) });
    addTestPaidRoute(app.app, app.deps);
    const res = await app.request("/test/paid?indicator=GDP");
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(((await res.json()) as any).error.code).toBe("SERVICE_UNAVAILABLE");
    await app.close();
  });
});
