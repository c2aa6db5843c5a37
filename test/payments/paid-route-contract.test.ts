// test-tier: once (the local chain: anvil)
// The shared paid-route contract (DESIGN.md "Tests"), run on every route registered through paid(...) on the real
// app, present and future: the routes are enumerated from the paid() registry, each names a priced example request
// (paid({ example })), and every clause below runs on it, on both rails, against a real local chain (anvil with
// Circle's FiatToken, self settlement, the official x402 client) and real macaroons and invoices (the development
// Lightning backend):
//   - the 402 carries both rails, deterministically, priced as the OpenAPI contract says, with its headers documented;
//   - HEAD costs nothing;
//   - a key within its allowance passes with rate-limit headers and is never charged, even with payments attached;
//   - a bad key is 401; a key restricted to regions the example does not read is 403 REGION_NOT_ALLOWED, not metered.
// Paying (x402 and L402, replays, expiry, handlers that fail) is paid-route-payments.test.ts. The chain and the apps
// (with the page memo and without it) are built at load time (paid-route-apps.ts), so the routes can be listed as tests.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { parseL402 } from "@getalby/lightning-tools/402";
import bolt11 from "bolt11";
import { REGTEST, satsFor, usdToCents } from "payments";
import { listPaymentProofs } from "../../db/repos/payments";
import { usageMonth } from "../../src/domain/access";
import type { PaidRouteInfo } from "../../src/http/route-registry";
import { x402PaymentRequiredSchema } from "../../src/schemas/payments";
import { keyUsage } from "../../src/services/keys";
import { NETWORK } from "../support/chain";
import { FollowingClock } from "../support/clock";
import { testKey } from "../support/keys";
import {
  FUNDS,
  addr,
  expectBodyMirrorsHeader,
  expectRegionRefused,
  reasonOf,
  routeCalls,
  type PaymentsApp,
} from "../support/paid-contract";
import { TEST_BASE_URL, TEST_BTC_USD } from "../support/payments";
import { contractApps } from "./paid-route-apps";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

const { PAY_TO, chain, payer, nonceUsed, apps } = await contractApps();

for (const { pageMemo, t, clock } of apps) describe(`page memo ${pageMemo ? "on" : "off"}`, () => contract(t, clock));

function contract(t: PaymentsApp, clock: FollowingClock) {
  const routes = t.app.registry.paidRoutes();

  let apiKey: string;
  let doc: any;
  beforeAll(async () => {
    ({ key: apiKey } = await testKey(t, { plan: "professional" }));
    doc = await (await t.request("/openapi.json")).json();
  });
  afterAll(() => t.close());
  const openApiPath = (honoPath: string) => honoPath.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
  const operationOf = (route: PaidRouteInfo) => doc.paths[openApiPath(route.path)]?.[route.method.toLowerCase()];

  test("every paid route names a priced example, and the paid routes are exactly the priced operations of the contract", () => {
    expect(routes.length).toBeGreaterThan(0);
    expect(routes.filter((r) => !r.example).map((r) => `${r.method} ${r.path}`)).toEqual([]);
    for (const r of routes)
      expect(new URL(r.example!, "http://x").pathname.split("/").length).toBe(r.path.split("/").length);
    // A priced operation that did not go through paid() would escape this contract (and the payment gate).
    const priced: string[] = [];
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item))
        if (op?.["x-price-usd"] !== undefined) priced.push(`${method.toUpperCase()} ${path}`);
    }
    expect(routes.map((r) => `${r.method} ${openApiPath(r.path)}`).sort()).toEqual(priced.sort());
  });

  test("every paid route names a failing example or says why it cannot fail once paid, never both", () => {
    // Everything the data can refuse is decided in resolve(), before the 402 (so it costs nothing), or the route
    // names a request that fails once paid, which the payments contract buys to check it is never settled.
    expect(
      routes
        .filter((r) => !r.failing === !r.cannotFailOncePaid)
        .map((r) => `${r.method} ${r.path}: ${r.failing ? "both" : "neither"}`),
    ).toEqual([]);
    expect(routes.some((r) => r.failing)).toBe(true);
  });

  test("HEAD on free routes (catalog, discovery) is still GET without a body, and offered in their Allow", async () => {
    for (const path of [
      "/v1/sources",
      "/v1/indicators?search=gdp",
      "/v1/regions/US",
      "/openapi.json",
      "/llms.txt",
      "/",
    ]) {
      const [get, head] = [await t.request(path), await t.request(path, { method: "HEAD" })];
      const seen = (r: Response) => ({
        path,
        status: r.status,
        type: r.headers.get("content-type"),
        cache: r.headers.get("cache-control"),
      });
      expect(seen(head)).toEqual(seen(get));
      expect(get.status).toBe(200);
      expect(await head.text()).toBe("");
    }
    expect((await t.request("/v1/sources", { method: "POST" })).headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });

  for (const route of routes) {
    describe(`${route.method} ${route.path}`, () => {
      const { example, nowSeconds, req, challenge, buyL402, signedX402, officialPay } = routeCalls(t, chain, route);

      test("402 carries both rails: PAYMENT-REQUIRED (deterministic v2 requirements) and WWW-Authenticate L402, no-store, CORS, priced as documented", async () => {
        const a = await challenge(example, { origin: "https://app.example" });
        const b = await challenge();
        const op = operationOf(route);

        // x402: a v2 PaymentRequired, identical for identical requests (clients match requirements by deep equality).
        const pr = x402PaymentRequiredSchema.parse(a.paymentRequired);
        expect(a.paymentRequired).toEqual(b.paymentRequired);
        expect(pr.resource.url).toBe(`${TEST_BASE_URL}${example}`);
        const body = (await a.res.json()) as any;
        const microUsd = Math.round(Number(body.error.details.price_usd) * 1_000_000);
        expect(pr.accepts).toEqual([
          {
            scheme: "exact",
            network: NETWORK,
            amount: String(microUsd),
            asset: chain.asset,
            payTo: PAY_TO,
            maxTimeoutSeconds: 300,
            extra: { name: "USDC", version: "2" },
          },
        ]);
        expect(pr.extensions?.bazaar?.info).toMatchObject({ input: { type: "http", method: route.method } });
        expectBodyMirrorsHeader(body, a.paymentRequired, example);
        // The price is the one the contract documents for this operation.
        expect([op["x-price-usd"], ...Object.values(op["x-price-usd-by-surface"] ?? {})]).toContain(
          body.error.details.price_usd,
        );

        // L402: Aperture's exact form, read alike by an independent parser; a real invoice for the price in sats.
        const header = a.res.headers.get("www-authenticate")!;
        expect(header).toBe(`L402 macaroon="${a.macaroon}", invoice="${a.invoice}"`);
        const alby = parseL402(header);
        expect([alby.macaroon ?? alby.token, alby.invoice]).toEqual([a.macaroon, a.invoice]);
        expect(bolt11.decode(a.invoice, REGTEST).satoshis).toBe(Number(satsFor(microUsd, usdToCents(TEST_BTC_USD))));
        expect(b.invoice).not.toBe(a.invoice);

        // Never cached, and readable by browsers.
        expect(a.res.headers.get("cache-control")).toBe("no-store");
        expect(a.res.headers.get("access-control-allow-origin")).toBe("*");
        const exposed = a.res.headers
          .get("access-control-expose-headers")!
          .split(",")
          .map((s) => s.trim());
        expect(exposed).toEqual(expect.arrayContaining(["PAYMENT-REQUIRED", "WWW-Authenticate", "PAYMENT-RESPONSE"]));

        // The contract documents these headers, and the real ones conform.
        const headers = doc.components.headers;
        expect(op.responses["402"].headers).toEqual({
          "PAYMENT-REQUIRED": { $ref: "#/components/headers/PaymentRequired" },
          "WWW-Authenticate": { $ref: "#/components/headers/L402Challenge" },
        });
        expect(op.responses["200"].headers["PAYMENT-RESPONSE"]).toEqual({
          $ref: "#/components/headers/PaymentResponse",
        });
        expect(header).toMatch(new RegExp(headers.L402Challenge.schema.pattern));
        expect(headers.PaymentRequired.schema.contentSchema).toEqual({
          $ref: "#/components/schemas/X402PaymentRequired",
        });
      });

      // nginx's default proxy buffers (proxy_buffer_size, one page: 4 or 8 KB) must hold the whole header block of a
      // response, or the client gets a 502: the 402's headers stay well under 4 KB, its PAYMENT-REQUIRED under 3 KB.
      test("the 402's header block is under 4 KB and its PAYMENT-REQUIRED under 3 KB", async () => {
        const { res } = await challenge(example, { origin: "https://app.example" });
        let block = 0;
        res.headers.forEach((value, name) => (block += name.length + value.length));
        expect(res.headers.get("payment-required")!.length).toBeLessThan(3 * 1024);
        expect(block).toBeLessThan(4 * 1024);
      });

      // Hono answers HEAD with the GET handler minus the body: on a paid route that would meter a key or spend a
      // proof for no data. HEAD is refused before the paid pipeline (src/http/request-guard.ts paidHeadRefusal).
      test("HEAD is 405 with Allow: GET, and costs nothing: no key metered or rate counted, no x402 or L402 proof spent", async () => {
        const { key, row } = await testKey(t, { plan: "professional" });
        const month = usageMonth(t.clock.now());
        const x = await signedX402();
        const token = await buyL402();
        const attempts: Array<Record<string, string>> = [
          {},
          { authorization: `Bearer ${key}` },
          { "x-api-key": key },
          { "payment-signature": x.header },
          { "x-payment": x.header },
          { authorization: token.authorization },
        ];
        for (const headers of attempts) {
          const res = await t.request(example, { method: "HEAD", headers });
          expect({ headers: Object.keys(headers), status: res.status, allow: res.headers.get("allow") }).toEqual({
            headers: Object.keys(headers),
            status: 405,
            allow: "GET, OPTIONS",
          });
          expect(await res.text()).toBe("");
          for (const h of ["payment-required", "www-authenticate", "payment-response", "x-ratelimit-remaining"])
            expect(res.headers.get(h)).toBeNull();
        }
        // Other methods name the same Allow list (HEAD is not offered on a paid route).
        const post = await t.request(example, { method: "POST" });
        expect([post.status, post.headers.get("allow")]).toEqual([405, "GET, OPTIONS"]);
        expect(((await post.json()) as any).error).toMatchObject({
          code: "METHOD_NOT_ALLOWED",
          details: { allowed: ["GET"] },
        });

        // The key: nothing metered, and its first GET is the first request of its rate-limit window.
        expect(await keyUsage(t.deps, row.id, month)).toBe(0);
        const keyed = await req(example, { authorization: `Bearer ${key}` });
        expect(keyed.status).toBe(200);
        expect(Number(keyed.headers.get("x-ratelimit-remaining"))).toBe(
          Number(keyed.headers.get("x-ratelimit-limit")) - 1,
        );
        expect(await keyUsage(t.deps, row.id, month)).toBe(1);
        // x402: the authorization is untouched (nonce unused, nothing reserved) and buys the GET.
        expect(await nonceUsed(x.header)).toBe(false);
        expect((await listPaymentProofs(t.database.db)).filter((r) => r.payer === addr(x.key))).toEqual([]);
        expect((await req(example, { "payment-signature": x.header })).status).toBe(200);
        expect(await chain.balanceOf(addr(x.key))).toBe(FUNDS - x.amount);
        // L402: the token still buys the GET, once.
        expect((await req(example, { authorization: token.authorization })).status).toBe(200);
        expect(await reasonOf(await req(example, { authorization: token.authorization }))).toBe("l402_already_used");
      });

      test("a key within its allowance passes with rate-limit headers and is not charged, even with an x402 and an L402 proof attached", async () => {
        const x = await signedX402();
        const token = await buyL402();
        const payToBefore = await chain.balanceOf(PAY_TO);
        const keyed = await req(example, {
          "x-api-key": apiKey,
          "payment-signature": x.header,
          authorization: token.authorization,
        });
        expect(keyed.status).toBe(200);
        expect(keyed.headers.get("x-ratelimit-limit")).toBe("1000");
        expect(keyed.headers.get("x-ratelimit-remaining")).toMatch(/^[0-9]+$/);
        expect(keyed.headers.get("x-ratelimit-reset")).toMatch(/^[0-9]+$/);
        expect(keyed.headers.get("payment-response")).toBeNull();
        expect(await chain.balanceOf(addr(x.key))).toBe(FUNDS);
        expect(await chain.balanceOf(PAY_TO)).toBe(payToBefore);
        expect(await nonceUsed(x.header)).toBe(false);
        // Neither proof was touched: each still buys the request once.
        const viaX402 = await req(example, { "payment-signature": x.header });
        expect(viaX402.status).toBe(200);
        expect(await chain.balanceOf(addr(x.key))).toBe(FUNDS - x.amount);
        const viaL402 = await req(example, { authorization: token.authorization });
        expect(viaL402.status).toBe(200);
      });

      test("a bad key is 401, a key restricted to a region not read is 403 REGION_NOT_ALLOWED, with or without a payment attached", async () => {
        await expectRegionRefused(t, example, req, buyL402);
        const token = await buyL402();
        const attempts: Array<Record<string, string>> = [
          { authorization: "Bearer svc_live_not-a-real-key" },
          { "x-api-key": "svc_live_not-a-real-key", authorization: token.authorization },
          { "x-api-key": "nonsense" },
        ];
        for (const headers of attempts) {
          const res = await req(example, headers);
          expect(res.status).toBe(401);
          expect(((await res.json()) as any).error.code).toBe("INVALID_API_KEY");
        }
      });
    });
  }
}
