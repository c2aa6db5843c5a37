// test-tier: once (the local chain: anvil)
// The shared paid-route contract (DESIGN.md "Tests") on every route registered through paid(...), its payment clauses,
// on both rails against a real local chain (paid-route-apps.ts) and real macaroons and invoices:
//   - a proof cannot be replayed (x402 and L402);
//   - an expired (10 minutes) or wrongly bound L402 token gets a fresh 402;
//   - a handler that fails is not settled: x402 leaves the payer's balance and nonce untouched on chain, L402 leaves
//     the token unconsumed, and the same proof buys the request afterwards;
//   - a request that fails in its handler with a 4xx from the data (the route's paid({ failing }) example) is neither
//     settled nor metered.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { importMacaroon } from "macaroon";
import { decodeBase64Json, encodeMacaroonBase64 } from "payments";
import type { Hex } from "viem";
import { listPaymentProofs } from "../../db/repos/payments";
import { usageMonth } from "../../src/domain/access";
import { x402SettleResponseSchema } from "../../src/schemas/payments";
import { keyUsage } from "../../src/services/keys";
import { NETWORK } from "../support/chain";
import { FollowingClock } from "../support/clock";
import { testKey } from "../support/keys";
import {
  FUNDS,
  addr,
  bindingOf,
  caveatsOf,
  l402,
  mintedElsewhere,
  reasonOf,
  routeCalls,
  type PaymentsApp,
} from "../support/paid-contract";
import { APERTURE_CHALLENGE, TEST_BASE_URL } from "../support/payments";
import { contractApps } from "./paid-route-apps";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

const { PAY_TO, chain, payer, nonceUsed, apps } = await contractApps();

for (const { pageMemo, t, clock } of apps) describe(`page memo ${pageMemo ? "on" : "off"}`, () => contract(t, clock));

function contract(t: PaymentsApp, clock: FollowingClock) {
  const outage = t.outage!;
  const routes = t.app.registry.paidRoutes();
  afterAll(() => t.close());

  for (const route of routes) {
    describe(`${route.method} ${route.path}`, () => {
      const { example, nowSeconds, req, challenge, buyL402, signedX402, officialPay } = routeCalls(t, chain, route);

      test("x402: the official client pays, tokens move on chain, and the proof cannot be replayed", async () => {
        const key = await payer();
        const { pay, sent } = officialPay(key);
        const payToBefore = await chain.balanceOf(PAY_TO);
        const res = await pay(`${TEST_BASE_URL}${example}`, { method: route.method });
        expect(res.status).toBe(200);
        expect(res.headers.get("cache-control")).toBe("private");
        const settle = x402SettleResponseSchema.parse(decodeBase64Json(res.headers.get("payment-response")!));
        expect(settle).toMatchObject({ success: true, network: NETWORK, payer: addr(key) });
        expect((await chain.client.getTransactionReceipt({ hash: settle.transaction as Hex })).status).toBe("success");
        const amount = FUNDS - (await chain.balanceOf(addr(key)));
        expect(amount).toBeGreaterThan(0n);
        expect(await chain.balanceOf(PAY_TO)).toBe(payToBefore + amount);
        expect(sent.length).toBe(1);
        // The client paid from the header: it echoed the header's (compact) bazaar extension, as x402 v2 asks.
        expect((decodeBase64Json(sent[0]!) as any).extensions).toEqual((await challenge()).paymentRequired.extensions);

        for (const name of ["PAYMENT-SIGNATURE", "X-PAYMENT"]) {
          const replay = await req(example, { [name]: sent[0]! });
          expect(replay.status).toBe(402);
          expect(replay.headers.get("payment-required")).not.toBeNull();
          expect(await reasonOf(replay)).toBe("invalid_exact_evm_nonce_already_used");
        }
        expect(await chain.balanceOf(addr(key))).toBe(FUNDS - amount);
        const rows = (await listPaymentProofs(t.database.db)).filter((r) => r.payer === addr(key));
        expect(rows.map((r) => [r.status, r.reference])).toEqual([["settled", settle.transaction]]);
      });

      test("L402: a paid token buys one request; a replay gets a fresh 402", async () => {
        const token = await buyL402();
        const ok = await req(example, { authorization: token.authorization });
        expect(ok.status).toBe(200);
        expect(ok.headers.get("cache-control")).toBe("private");
        for (const scheme of ["L402", "LSAT"]) {
          const replay = await req(example, { authorization: `${scheme} ${token.macaroon}:${token.preimage}` });
          expect(replay.status).toBe(402);
          expect(await reasonOf(replay)).toBe("l402_already_used");
          const fresh = APERTURE_CHALLENGE.exec(replay.headers.get("www-authenticate")!)!;
          expect(fresh[2]).not.toBe(token.macaroon);
        }
      });

      test("L402: a token is refused with a fresh 402 once 10 minutes have passed, and when bound to something else", async () => {
        // Still from the tokens' minting while the test steps over their 10-minute boundary by a millisecond.
        clock.hold();
        const [early, late, bound, narrowed] = [await buyL402(), await buyL402(), await buyL402(), await buyL402()];
        try {
          t.clock.advance(599_999);
          expect((await req(example, { authorization: early.authorization })).status).toBe(200);
          t.clock.advance(1);
          const expired = await req(example, { authorization: late.authorization });
          expect(expired.status).toBe(402);
          expect(await reasonOf(expired)).toBe("l402_expired");
          const fresh = APERTURE_CHALLENGE.exec(expired.headers.get("www-authenticate")!)!;
          expect(caveatsOf(fresh[2])).toContain(`valid_until=${Number(nowSeconds()) + 600}`);
        } finally {
          t.clock.advance(-600_000);
          clock.follow();
        }

        // Minted by this service and paid, but for another resource of the same kind.
        const [kind, value] = bindingOf(bound.macaroon).split("=") as ["indicator" | "resource", string];
        const wrong = await req(example, { authorization: l402(mintedElsewhere(bound.macaroon), bound.preimage) });
        expect(wrong.status).toBe(402);
        expect(await reasonOf(wrong)).toBe("l402_wrong_binding");
        expect(wrong.headers.get("www-authenticate")).toMatch(APERTURE_CHALLENGE);
        // A client narrowing its own token to something else (a valid attenuation) cannot use it here either.
        const m = importMacaroon(narrowed.macaroon);
        m.addFirstPartyCaveat(`${kind}=${value}X`);
        const attenuated = await req(example, { authorization: l402(encodeMacaroonBase64(m), narrowed.preimage) });
        expect(await reasonOf(attenuated)).toBe("l402_wrong_binding");
        // Refusals consume nothing: the genuine tokens still buy the request.
        expect((await req(example, { authorization: bound.authorization })).status).toBe(200);
        expect((await req(example, { authorization: narrowed.authorization })).status).toBe(200);
      });

      // How a real handler is made to fail without mocking: its database goes away right after the payment was
      // granted (HandlerOutage, test/support/payments.ts) and the series cache with it (resolve read the heads, a hot
      // series is served from memory), so the route's own answer runs with the proof reserved and fails at its first
      // read, a 500, as when the store or an upstream fails mid-request. No per-route knowledge; it proves the part all
      // paid routes share: the gate releases the proof instead of settling it.
      test("a handler that fails is not settled: x402 leaves balance and nonce untouched on chain, L402 leaves the token unconsumed", async () => {
        const x = await signedX402();
        const payToBefore = await chain.balanceOf(PAY_TO);
        const refusedBefore = outage.refused;
        outage.arm(() => t.deps.caches.series.clear());
        let failed: Response;
        try {
          failed = await req(example, { "payment-signature": x.header });
        } finally {
          outage.disarm();
        }
        expect(failed.status).toBe(500);
        expect(((await failed.json()) as any).error.code).toBe("INTERNAL_SERVER_ERROR");
        expect(outage.refused).toBeGreaterThan(refusedBefore);
        expect(failed.headers.get("payment-response")).toBeNull();
        expect(await chain.balanceOf(addr(x.key))).toBe(FUNDS);
        expect(await chain.balanceOf(PAY_TO)).toBe(payToBefore);
        expect(await nonceUsed(x.header)).toBe(false);
        expect(
          (await listPaymentProofs(t.database.db)).filter((r) => r.payer === addr(x.key)).map((r) => r.status),
        ).toEqual(["released"]);
        // The same authorization then buys the request, once.
        const ok = await req(example, { "payment-signature": x.header });
        expect(ok.status).toBe(200);
        expect(await chain.balanceOf(addr(x.key))).toBe(FUNDS - x.amount);
        expect(await nonceUsed(x.header)).toBe(true);

        const token = await buyL402();
        outage.arm(() => t.deps.caches.series.clear());
        let failedL402: Response;
        try {
          failedL402 = await req(example, { authorization: token.authorization });
        } finally {
          outage.disarm();
        }
        expect(failedL402.status).toBe(500);
        expect((await req(example, { authorization: token.authorization })).status).toBe(200);
        expect(await reasonOf(await req(example, { authorization: token.authorization }))).toBe("l402_already_used");
      });

      // The route's own failure, where it names one (paid({ failing })): a request that resolves and is priced like
      // the example, is paid, and then fails in the handler with a 4xx only the data can reveal (for observations, an
      // index base date the series does not hold). The client's mistake, not ours: it must not cost the client either.
      // (Handlers fail by throwing an ApiError, like the outage above; paid()'s other branch, a handler that answers
      // >= 400 without throwing, is exercised on the test route in x402.test.ts.)
      const failing = route.failing;
      if (failing)
        test("a request that fails in its handler (a 4xx from the data) is neither settled on either rail nor metered", async () => {
          // It is bought exactly like the example: same requirements, same L402 binding and price.
          const [f, e] = [await challenge(failing), await challenge()];
          expect(f.paymentRequired.accepts).toEqual(e.paymentRequired.accepts);
          expect(caveatsOf(f.macaroon).filter((c) => !c.startsWith("valid_until="))).toEqual(
            caveatsOf(e.macaroon).filter((c) => !c.startsWith("valid_until=")),
          );

          const key = await payer();
          const { pay, sent } = officialPay(key);
          const res = await pay(`${TEST_BASE_URL}${failing}`, { method: route.method });
          expect(res.status).toBeGreaterThanOrEqual(400);
          expect(res.status).toBeLessThan(500);
          expect(res.status).not.toBe(402);
          expect(res.headers.get("payment-response")).toBeNull();
          expect(sent.length).toBe(1);
          expect(await chain.balanceOf(addr(key))).toBe(FUNDS);
          expect(await nonceUsed(sent[0]!)).toBe(false);
          const reused = await req(example, { "payment-signature": sent[0]! });
          expect(reused.status).toBe(200);
          expect(await chain.balanceOf(addr(key))).toBe(FUNDS - BigInt(e.requirement.amount));

          const token = await buyL402(failing);
          const failedL402 = await req(failing, { authorization: token.authorization });
          expect(failedL402.status).toBe(res.status);
          expect((await req(example, { authorization: token.authorization })).status).toBe(200);

          // A key's failed request is not metered; its next success is.
          const { key: apiKey, row } = await testKey(t, { plan: "professional" });
          const month = usageMonth(t.clock.now());
          expect((await req(failing, { authorization: `Bearer ${apiKey}` })).status).toBe(res.status);
          expect(await keyUsage(t.deps, row.id, month)).toBe(0);
          expect((await req(example, { authorization: `Bearer ${apiKey}` })).status).toBe(200);
          expect(await keyUsage(t.deps, row.id, month)).toBe(1);
        });
    });
  }
}
