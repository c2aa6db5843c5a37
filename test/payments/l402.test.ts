// L402 end to end with real macaroons (go-macaroon V2 binary) and real signed BOLT11 invoices from the development
// backend: challenge parsed by independent parsers, payment, retry, and every refusal (expiry, binding, forged
// caveat, wrong preimage, replay), on the test database's proof store.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { parseL402, fetchWithL402 } from "@getalby/lightning-tools/402";
import bolt11 from "bolt11";
import { importMacaroon } from "macaroon";
import { encodeMacaroonBase64, parseIdentifier, sha256Hex, verifyToken } from "payments";
import { listPaymentProofs } from "../../db/repos/payments";
import { testKey } from "../support/keys";
import { APERTURE_CHALLENGE, TEST_ROOT_SECRET, makePaymentsApp } from "../support/payments";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

let t: Awaited<ReturnType<typeof makePaymentsApp>>;

beforeAll(async () => {
  t = await makePaymentsApp();
}, 120_000);
afterAll(() => t.close());

/** Asks for a challenge and pays it like a client would: macaroon, preimage and the parsed invoice. */
async function buy(path: string) {
  const res = await t.request(path);
  expect(res.status).toBe(402);
  const m = APERTURE_CHALLENGE.exec(res.headers.get("www-authenticate")!)!;
  const paid = t.dev.pay(m[3]);
  if (!paid.ok) throw new Error(paid.message);
  return { macaroon: m[2], invoice: m[3], preimage: paid.preimage };
}

const l402 = (macaroon: string, preimage: string, scheme = "L402") => ({
  headers: { authorization: `${scheme} ${macaroon}:${preimage}` },
});

describe("402 challenge", () => {
  test("carries WWW-Authenticate in Aperture's exact form, no-store, and the L402 details in the body", async () => {
    const res = await t.request("/test/paid?indicator=GDP");
    expect(res.status).toBe(402);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const header = res.headers.get("www-authenticate")!;
    expect(header).toMatch(/^L402 macaroon="[A-Za-z0-9+/]+={0,2}", invoice="lnbcrt[0-9a-z]+"$/);
    const m = APERTURE_CHALLENGE.exec(header)!;
    expect(m[1]).toBe("L402");
    // An independent parser (Alby's) reads the same two values.
    const alby = parseL402(header);
    expect(alby.macaroon ?? alby.token).toBe(m[2]);
    expect(alby.invoice).toBe(m[3]);
    const body = (await res.json()) as any;
    expect(body.error.code).toBe("PAYMENT_REQUIRED");
    expect(body.error.details).toMatchObject({
      price_usd: "0.01",
      rails: ["l402"],
      l402: { invoice: m[3], macaroon: m[2], amount_sats: "10" },
    });
    expect(body.error.details.l402.valid_until).toBe("2026-11-22T12:10:00.000Z");
  });

  test("the invoice is a real signed BOLT11 for the price in sats, expiring with the token", async () => {
    const res = await t.request("/test/paid?indicator=GDP");
    const m = APERTURE_CHALLENGE.exec(res.headers.get("www-authenticate")!)!;
    const inv = bolt11.decode(m[3], {
      bech32: "bcrt",
      pubKeyHash: 0x6f,
      scriptHash: 0xc4,
      validWitnessVersions: [0, 1],
    });
    expect(inv.millisatoshis).toBe("10000");
    expect(inv.satoshis).toBe(10);
    expect(inv.timestamp).toBe(Date.parse("2026-11-22T12:00:00Z") / 1000);
    expect(inv.tagsObject.expire_time).toBe(600);
    expect(inv.tagsObject.payment_secret).toMatch(/^[0-9a-f]{64}$/);
    expect(inv.payeeNodeKey).toBe(t.dev.nodePublicKey);
    // The macaroon: V2 binary, location "svc", Aperture v0 identifier carrying this invoice's payment hash.
    const bytes = Buffer.from(m[2], "base64");
    expect([...bytes.subarray(0, 6)]).toEqual([0x02, 0x01, 0x03, 0x73, 0x76, 0x63]);
    const mac = importMacaroon(m[2]);
    const id = parseIdentifier(mac.identifier)!;
    expect(Buffer.from(id.paymentHash).toString("hex")).toBe(inv.tagsObject.payment_hash!);
    expect(mac.caveats.map((c) => Buffer.from(c.identifier).toString())).toEqual([
      "indicator=GDP",
      "max_usd_micros=10000",
      "valid_until=1795349400",
    ]);
    // Our serialiser re-encodes the imported token byte for byte.
    expect(encodeMacaroonBase64(mac)).toBe(m[2]);
  });

  test("a route without an indicator binds the token to its resource", async () => {
    const res = await t.request("/test/paid");
    const mac = importMacaroon(APERTURE_CHALLENGE.exec(res.headers.get("www-authenticate")!)![2]);
    expect(Buffer.from(mac.caveats[0].identifier).toString()).toBe("resource=/test/paid");
  });

  test("nothing is charged for what does not exist: a free 404 without a challenge", async () => {
    const res = await t.request("/test/paid?indicator=MISSING");
    expect(res.status).toBe(404);
    expect(res.headers.get("www-authenticate")).toBeNull();
  });
});

describe("pay and retry", () => {
  test("the paid token buys exactly one answer, then gets a fresh challenge", async () => {
    const { macaroon, preimage } = await buy("/test/paid?indicator=GDP");
    const before = t.counter.served;
    const ok = await t.request("/test/paid?indicator=GDP", l402(macaroon, preimage));
    expect(ok.status).toBe(200);
    expect(ok.headers.get("cache-control")).toBe("private");
    expect(((await ok.json()) as any).data).toEqual({ indicator: "GDP", served: before + 1 });
    const again = await t.request("/test/paid?indicator=GDP", l402(macaroon, preimage));
    expect(again.status).toBe(402);
    const body = (await again.json()) as any;
    expect(body.error.details.reason).toBe("l402_already_used");
    expect(again.headers.get("www-authenticate")).toMatch(/^L402 macaroon="/);
    expect(t.counter.served).toBe(before + 1);
    // The proof is stored with what it paid for; the credential only as a hash.
    const hash = Buffer.from(parseIdentifier(importMacaroon(macaroon).identifier)!.paymentHash).toString("hex");
    const row = (await listPaymentProofs(t.database.db)).find((r) => r.proofKey === hash)!;
    expect(row).toMatchObject({
      rail: "l402",
      status: "settled",
      microUsd: 10000,
      binding: "GDP",
      resource: "/test/paid",
      label: "observations",
      attempts: 1,
    });
    expect(row.credentialHash).toBe(sha256Hex(`L402 ${macaroon}:${preimage}`));
    expect(JSON.stringify(row)).not.toContain(preimage);
    expect(JSON.stringify(row)).not.toContain(macaroon);
  });

  test("Alby's fetchWithL402 pays through the development backend over real HTTP", async () => {
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: t.app.fetch });
    try {
      const wallet = {
        payInvoice: async ({ invoice }: { invoice: string }) => {
          const r = t.dev.pay(invoice);
          if (!r.ok) throw new Error(r.message);
          return { preimage: r.preimage };
        },
      };
      const res = await fetchWithL402(`http://127.0.0.1:${server.port}/test/paid?indicator=UNRATE`, {}, { wallet });
      expect(res.status).toBe(200);
      expect(((await res.json()) as any).data.indicator).toBe("UNRATE");
    } finally {
      server.stop(true);
    }
  });

  test("LSAT prefix, lowercase scheme, URL-safe base64 and several credentials in one header are accepted", async () => {
    const a = await buy("/test/paid?indicator=GDP");
    expect((await t.request("/test/paid?indicator=GDP", l402(a.macaroon, a.preimage, "LSAT"))).status).toBe(200);
    const b = await buy("/test/paid?indicator=GDP");
    expect((await t.request("/test/paid?indicator=GDP", l402(b.macaroon, b.preimage, "l402"))).status).toBe(200);
    const c = await buy("/test/paid?indicator=GDP");
    const urlSafe = c.macaroon.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    expect((await t.request("/test/paid?indicator=GDP", l402(urlSafe, c.preimage))).status).toBe(200);
    // Aperture's Go client sends LSAT and L402 copies; Bun joins repeated headers with ", ".
    const d = await buy("/test/paid?indicator=GDP");
    const both = {
      headers: { authorization: `LSAT ${d.macaroon}:${"0".repeat(64)}, L402 ${d.macaroon}:${d.preimage}` },
    };
    expect((await t.request("/test/paid?indicator=GDP", both)).status).toBe(200);
  });

  test("a handler that fails does not consume the payment", async () => {
    const { macaroon, preimage } = await buy("/test/paid?indicator=GDP");
    const failed = await t.request("/test/paid?indicator=GDP&status=500", l402(macaroon, preimage));
    expect(failed.status).toBe(500);
    const ok = await t.request("/test/paid?indicator=GDP", l402(macaroon, preimage));
    expect(ok.status).toBe(200);
    const hash = Buffer.from(parseIdentifier(importMacaroon(macaroon).identifier)!.paymentHash).toString("hex");
    const row = (await listPaymentProofs(t.database.db)).find((r) => r.proofKey === hash)!;
    expect(row).toMatchObject({ status: "settled", attempts: 2 });
  });

  test("a request with an API key uses the key and does not consume the payment", async () => {
    const { macaroon, preimage } = await buy("/test/paid?indicator=GDP");
    const { key } = await testKey(t);
    const keyed = await t.request("/test/paid?indicator=GDP", {
      headers: { "x-api-key": key, authorization: `L402 ${macaroon}:${preimage}` },
    });
    expect(keyed.status).toBe(200);
    expect((await t.request("/test/paid?indicator=GDP", l402(macaroon, preimage))).status).toBe(200);
  });
});

describe("refusals get a fresh 402 challenge", () => {
  const reasonOf = async (res: Response) => {
    expect(res.status).toBe(402);
    expect(res.headers.get("www-authenticate")).toMatch(/^L402 macaroon="/);
    return ((await res.json()) as any).error.details.reason;
  };

  test("expiry: accepted 1 s before valid_until, refused at it (10 minutes after issuance)", async () => {
    const a = await buy("/test/paid?indicator=GDP");
    const b = await buy("/test/paid?indicator=GDP");
    t.clock.advance(599_000);
    expect((await t.request("/test/paid?indicator=GDP", l402(a.macaroon, a.preimage))).status).toBe(200);
    t.clock.advance(1_000);
    expect(await reasonOf(await t.request("/test/paid?indicator=GDP", l402(b.macaroon, b.preimage)))).toBe(
      "l402_expired",
    );
    t.clock.advance(-600_000);
  });

  test("a token bound to another indicator", async () => {
    const a = await buy("/test/paid?indicator=GDP");
    expect(await reasonOf(await t.request("/test/paid?indicator=CPI", l402(a.macaroon, a.preimage)))).toBe(
      "l402_wrong_binding",
    );
    const r = await buy("/test/paid");
    expect(await reasonOf(await t.request("/test/paid?indicator=GDP", l402(r.macaroon, r.preimage)))).toBe(
      "l402_wrong_binding",
    );
  });

  test("a forged caveat fails the signature; appended caveats may only narrow", async () => {
    const a = await buy("/test/paid?indicator=GDP");
    const forged = Buffer.from(a.macaroon, "base64").toString("latin1").replace("indicator=GDP", "indicator=CPI");
    const forgedB64 = Buffer.from(forged, "latin1").toString("base64");
    expect(await reasonOf(await t.request("/test/paid?indicator=CPI", l402(forgedB64, a.preimage)))).toBe(
      "l402_invalid_signature",
    );

    // Attenuation needs only the current signature: a client may add caveats.
    const widened = importMacaroon(a.macaroon);
    widened.addFirstPartyCaveat("indicator=CPI");
    expect(
      await reasonOf(await t.request("/test/paid?indicator=CPI", l402(encodeMacaroonBase64(widened), a.preimage))),
    ).toBe("l402_wrong_binding");
    expect(
      await reasonOf(await t.request("/test/paid?indicator=GDP", l402(encodeMacaroonBase64(widened), a.preimage))),
    ).toBe("l402_wrong_binding");
    const later = importMacaroon(a.macaroon);
    later.addFirstPartyCaveat("valid_until=9999999999");
    later.addFirstPartyCaveat("max_usd_micros=999999999");
    t.clock.advance(600_000);
    expect(
      await reasonOf(await t.request("/test/paid?indicator=GDP", l402(encodeMacaroonBase64(later), a.preimage))),
    ).toBe("l402_expired");
    t.clock.advance(-600_000);
    // Aperture's client appends preimage=<hex>: an unknown caveat, tolerated.
    const aperture = importMacaroon(a.macaroon);
    aperture.addFirstPartyCaveat(`preimage=${a.preimage}`);
    aperture.addFirstPartyCaveat(`valid_until=${Date.parse("2026-11-22T12:05:00Z") / 1000}`);
    expect((await t.request("/test/paid?indicator=GDP", l402(encodeMacaroonBase64(aperture), a.preimage))).status).toBe(
      200,
    );
  });

  test("a wrong preimage, and a token minted under another root key", async () => {
    const a = await buy("/test/paid?indicator=GDP");
    expect(await reasonOf(await t.request("/test/paid?indicator=GDP", l402(a.macaroon, "ab".repeat(32))))).toBe(
      "l402_wrong_preimage",
    );
    const v = verifyToken(a.macaroon, a.preimage, [new Uint8Array(32).fill(8)], {
      binding: { kind: "indicator", value: "GDP" },
      microUsd: 10000,
      nowSeconds: 1795348800,
    });
    expect(v).toMatchObject({ ok: false, reason: "invalid_signature" });
    const ok = verifyToken(a.macaroon, a.preimage, [new Uint8Array(32).fill(8), TEST_ROOT_SECRET], {
      binding: { kind: "indicator", value: "GDP" },
      microUsd: 10000,
      nowSeconds: 1795348800,
    });
    expect(ok.ok).toBe(true);
  });

  test("a token bought for a cheaper request", () => {
    return buy("/test/paid?indicator=GDP").then((a) => {
      const v = verifyToken(a.macaroon, a.preimage, [TEST_ROOT_SECRET], {
        binding: { kind: "indicator", value: "GDP" },
        microUsd: 10001,
        nowSeconds: 1795348800,
      });
      expect(v).toMatchObject({ ok: false, reason: "price_exceeded" });
      const edge = verifyToken(a.macaroon, a.preimage, [TEST_ROOT_SECRET], {
        binding: { kind: "indicator", value: "GDP" },
        microUsd: 10000,
        nowSeconds: 1795348800,
      });
      expect(edge.ok).toBe(true);
    });
  });

  test("malformed credentials are a 400 with a clear message", async () => {
    for (const authorization of [
      "L402 !!!:zz",
      "LSAT onlymacaroon",
      `L402 AgEDc3Zj:${"a".repeat(64)}`,
      `L402 x:${"a".repeat(63)}`,
    ]) {
      const res = await t.request("/test/paid?indicator=GDP", { headers: { authorization } });
      expect(res.status).toBe(400);
      const body = (await res.json()) as any;
      expect(body.error.code).toBe("INVALID_PARAMETER");
      expect(body.error.message).toStartWith("Malformed L402 credential");
    }
  });
});

describe("development backend", () => {
  test("pays an invoice once, refuses foreign and expired invoices", async () => {
    const res = await t.request("/test/paid?indicator=GDP");
    const invoice = APERTURE_CHALLENGE.exec(res.headers.get("www-authenticate")!)![3];
    const first = t.dev.pay(invoice);
    expect(first.ok).toBe(true);
    expect(t.dev.pay(invoice)).toEqual({ ok: false, message: "the invoice has already been paid" });
    expect(t.dev.pay("lnbcrt1garbage")).toMatchObject({ ok: false });
    const late = APERTURE_CHALLENGE.exec(
      (await t.request("/test/paid?indicator=GDP")).headers.get("www-authenticate")!,
    )![3];
    t.clock.advance(600_000);
    expect(t.dev.pay(late)).toEqual({ ok: false, message: "the invoice has expired" });
    t.clock.advance(-600_000);
  });
});
