// The shared paid-route contract (DESIGN.md "Tests"), run on every route registered through paid(...) on the real
// app, present and future: the 402 carries both rails; a key within its allowance passes with rate-limit headers and
// is never charged; a bad key is 401; an L402 proof serves one request; an expired or wrongly bound token is
// refused with a fresh challenge. Each paid route names a priced example request in paid({ example }).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { importMacaroon } from "macaroon";
import { decodeBase64Json, encodeMacaroonBase64, mintToken, parseIdentifier } from "payments";
import { paidRoutes } from "../../src/http/paid";
import { testKey } from "../support/keys";
import { APERTURE_CHALLENGE, TEST_ROOT_SECRET, makePaymentsApp } from "../support/payments";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

let t: Awaited<ReturnType<typeof makePaymentsApp>>;
let keyHeaders: Record<string, string>;
beforeAll(async () => {
  t = await makePaymentsApp({
    x402: { networks: [{ network: "eip155:84532", payTo: "0x4374713F62239c69e6912a4D7235B2a365397004", rpcUrl: null }], settlement: { mode: "facilitator", url: "http://127.0.0.1:9" } },
  });
  ({ headers: keyHeaders } = await testKey(t, { plan: "professional" }));
}, 120_000);
afterAll(() => t.close());

test("every paid route names a priced example request", () => {
  const routes = paidRoutes(t.app);
  expect(routes.length).toBeGreaterThan(0);
  expect(routes.filter((r) => !r.example).map((r) => `${r.method} ${r.path}`)).toEqual([]);
  for (const r of routes) if (r.example) expect(new URL(r.example, "http://x").pathname.split("/").length).toBe(r.path.split("/").length);
});

const l402 = (macaroon: string, preimage: string) => ({ headers: { authorization: `L402 ${macaroon}:${preimage}` } });

// paidRoutes is read after the app is built; describe blocks are created at collection time, so one test per route
// iterates inside instead.
describe("paid-route contract", () => {
  test("holds for every paid route", async () => {
    const checked: string[] = [];
    for (const route of paidRoutes(t.app)) {
      if (!route.example) continue;
      const at = `${route.method} ${route.example}`;
      const req = (init?: RequestInit) => t.request(route.example!, { method: route.method, ...init });

      // 1. Anonymous: 402 with both rails.
      const challenge = await req();
      expect({ at, status: challenge.status }).toEqual({ at, status: 402 });
      expect(challenge.headers.get("cache-control")).toBe("no-store");
      const pr = decodeBase64Json(challenge.headers.get("payment-required")!) as any;
      expect(pr.x402Version).toBe(2);
      expect(pr.accepts.length).toBeGreaterThan(0);
      const m = APERTURE_CHALLENGE.exec(challenge.headers.get("www-authenticate") ?? "");
      expect({ at, l402: !!m }).toEqual({ at, l402: true });
      const body = (await challenge.json()) as any;
      expect(body.error.code).toBe("PAYMENT_REQUIRED");
      expect(body.accepts).toEqual(pr.accepts);

      // 2. A key within its allowance passes, with rate-limit headers, and is never charged.
      const keyed = await req({ headers: keyHeaders });
      expect({ at, status: keyed.status < 400 }).toEqual({ at, status: true });
      expect(keyed.headers.get("x-ratelimit-limit")).not.toBeNull();
      expect(keyed.headers.get("payment-response")).toBeNull();

      // 3. A bad key is 401.
      const bad = await req({ headers: { authorization: "Bearer svc_live_not-a-real-key" } });
      expect({ at, status: bad.status }).toEqual({ at, status: 401 });

      // 4. An L402 proof serves exactly one request.
      const paid = t.dev.pay(m![3]);
      if (!paid.ok) throw new Error(paid.message);
      const ok = await req(l402(m![2], paid.preimage));
      expect({ at, status: ok.status < 400 }).toEqual({ at, status: true });
      const replay = await req(l402(m![2], paid.preimage));
      expect({ at, status: replay.status, reason: ((await replay.json()) as any).error.details?.reason }).toEqual({ at, status: 402, reason: "l402_already_used" });

      // 5. An expired token gets a fresh challenge.
      const fresh = APERTURE_CHALLENGE.exec((await req()).headers.get("www-authenticate")!)!;
      const freshPaid = t.dev.pay(fresh[3]);
      if (!freshPaid.ok) throw new Error(freshPaid.message);
      t.clock.advance(600_000);
      const expired = await req(l402(fresh[2], freshPaid.preimage));
      t.clock.advance(-600_000);
      expect({ at, status: expired.status, reason: ((await expired.json()) as any).error.details?.reason }).toEqual({ at, status: 402, reason: "l402_expired" });

      // 6. A token minted for something else (validly signed, paid) is refused.
      const id = parseIdentifier(importMacaroon(fresh[2]).identifier)!;
      const other = mintToken({ secret: TEST_ROOT_SECRET, paymentHash: id.paymentHash, tokenId: id.tokenId, binding: { kind: "resource", value: "/elsewhere" }, maxMicroUsd: 10_000_000, validUntil: 9_999_999_999 });
      const wrong = await req(l402(encodeMacaroonBase64(other), freshPaid.preimage));
      expect({ at, status: wrong.status, reason: ((await wrong.json()) as any).error.details?.reason }).toEqual({ at, status: 402, reason: "l402_wrong_binding" });

      checked.push(at);
    }
    expect(checked.length).toBe(paidRoutes(t.app).length);
  });
});
