// test-tier: once (openssl makes the fake's certificate)
// The LND REST invoice backend against a local fake speaking LND's REST format (lnrpc/lightning.yaml AddInvoice:
// protojson with base64 bytes and string int64s, macaroon in Grpc-Metadata-macaroon) over TLS pinned to the fake's
// self-signed certificate, then the whole L402 flow with it.
import { beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHash, randomBytes } from "node:crypto";
import bolt11 from "bolt11";
import { L402Rail, LndRestBackend, MemoryProofStore, Payments, fixedRate } from "payments";
import { makeTestApp } from "../support/app";
import { ManualClock, seededRandom } from "../support/clock";
import { registerCleanup } from "../support/cleanup";
import { APERTURE_CHALLENGE, TEST_ROOT_SECRET, addTestPaidRoute } from "../support/payments";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

const MACAROON_HEX = "0201036c6e6402f801030a10b3bf6906c1937139ac0684ac4417e3bd";

function selfSignedCert(dir: string, name: string) {
  const key = join(dir, `${name}.key`);
  const cert = join(dir, `${name}.crt`);
  const r = Bun.spawnSync([
    "openssl",
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:prime256v1",
    "-nodes",
    "-keyout",
    key,
    "-out",
    cert,
    "-days",
    "2",
    "-subj",
    "/CN=127.0.0.1",
    "-addext",
    "subjectAltName=IP:127.0.0.1",
  ]);
  if (r.exitCode !== 0) throw new Error(r.stderr.toString());
  return { key: readFileSync(key, "utf8"), cert: readFileSync(cert, "utf8") };
}

/** Enough of lnd's REST API for invoices: POST /v1/invoices, plus a way for the test to "pay" (reveal the preimage). */
function fakeLnd(tls: { key: string; cert: string }) {
  const nodeKey = Buffer.alloc(32, 5);
  const preimages = new Map<string, string>();
  const requests: Array<{ macaroon: string | null; body: any }> = [];
  let lie = false;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    tls,
    async fetch(req) {
      const url = new URL(req.url);
      if (req.method !== "POST" || url.pathname !== "/v1/invoices")
        return Response.json({ code: 12, message: "Not Implemented" }, { status: 501 });
      const macaroon = req.headers.get("grpc-metadata-macaroon");
      const body = (await req.json()) as any;
      requests.push({ macaroon, body });
      if (macaroon !== MACAROON_HEX)
        return Response.json(
          { code: 2, message: "verification failed: signature mismatch after caveat verification" },
          { status: 500 },
        );
      const preimage = randomBytes(32);
      const hash = createHash("sha256").update(preimage).digest();
      const pr = bolt11.sign(
        bolt11.encode({
          millisatoshis: String(body.value_msat),
          timestamp: Math.floor(Date.parse("2026-11-22T12:00:00Z") / 1000),
          tags: [
            { tagName: "payment_hash", data: hash.toString("hex") },
            { tagName: "payment_secret", data: randomBytes(32).toString("hex") },
            { tagName: "description", data: body.memo },
            { tagName: "expire_time", data: Number(body.expiry) },
          ],
        }),
        nodeKey,
      ).paymentRequest!;
      preimages.set(hash.toString("hex"), preimage.toString("hex"));
      const rHash = lie ? randomBytes(32) : hash;
      return Response.json({
        r_hash: rHash.toString("base64"),
        payment_request: pr,
        add_index: String(preimages.size),
        payment_addr: randomBytes(32).toString("base64"),
      });
    },
  });
  registerCleanup(async () => void server.stop(true));
  return {
    url: `https://127.0.0.1:${server.port}`,
    requests,
    setLie: (v: boolean) => (lie = v),
    pay: (invoice: string) => preimages.get(bolt11.decode(invoice).tagsObject.payment_hash!)!,
  };
}

let certs: { a: { key: string; cert: string }; b: { key: string; cert: string } };
let lnd: ReturnType<typeof fakeLnd>;
beforeAll(() => {
  const dir = mkdtempSync(join(tmpdir(), "svc-lnd-"));
  certs = { a: selfSignedCert(dir, "a"), b: selfSignedCert(dir, "b") };
  lnd = fakeLnd(certs.a);
});

describe("LND REST backend", () => {
  test("AddInvoice with the macaroon header, amount in msat and expiry as protojson strings", async () => {
    const backend = new LndRestBackend({ url: lnd.url, macaroonHex: MACAROON_HEX, tlsCertPem: certs.a.cert });
    const inv = await backend.createInvoice({
      amountMsat: 21_000n,
      memo: "L402 observations: GDP",
      expirySeconds: 600,
    });
    expect(lnd.requests.at(-1)).toEqual({
      macaroon: MACAROON_HEX,
      body: { memo: "L402 observations: GDP", value_msat: "21000", expiry: "600" },
    });
    expect(inv.paymentRequest).toStartWith("lnbc210n1");
    expect(inv.paymentHashHex).toBe(bolt11.decode(inv.paymentRequest).tagsObject.payment_hash!);
    expect(inv.amountMsat).toBe(21_000n);
    expect(inv.expiresAt.toISOString()).toBe("2026-11-22T12:10:00.000Z");
  });

  test("TLS is pinned to the configured certificate", async () => {
    const other = new LndRestBackend({ url: lnd.url, macaroonHex: MACAROON_HEX, tlsCertPem: certs.b.cert });
    const err = await other.createInvoice({ amountMsat: 1000n, memo: "x", expirySeconds: 600 }).then(
      () => null,
      (e) => e,
    );
    expect(String(err?.code ?? err)).toMatch(/CERT|certificate|SELF_SIGNED|UNABLE_TO/i);
    expect(lnd.requests.length).toBe(1);
  });

  test("a refused macaroon and an answer whose r_hash is not the invoice's are errors", async () => {
    const wrong = new LndRestBackend({ url: lnd.url, macaroonHex: "00ff", tlsCertPem: certs.a.cert });
    await expect(wrong.createInvoice({ amountMsat: 1000n, memo: "x", expirySeconds: 600 })).rejects.toThrow(
      "lnd AddInvoice answered 500",
    );
    lnd.setLie(true);
    const backend = new LndRestBackend({ url: lnd.url, macaroonHex: MACAROON_HEX, tlsCertPem: certs.a.cert });
    await expect(backend.createInvoice({ amountMsat: 1000n, memo: "x", expirySeconds: 600 })).rejects.toThrow(
      "lnd invoice payment hash differs from r_hash",
    );
    lnd.setLie(false);
  });

  test("the L402 flow end to end with invoices from lnd", async () => {
    const clock = new ManualClock();
    const random = seededRandom(5);
    const payments = new Payments({
      l402: new L402Rail({
        secrets: [TEST_ROOT_SECRET],
        backend: new LndRestBackend({ url: lnd.url, macaroonHex: MACAROON_HEX, tlsCertPem: certs.a.cert }),
        rates: fixedRate("97000.50"),
        clock,
        random,
      }),
      store: new MemoryProofStore(),
      clock,
    });
    const t = await makeTestApp({ clock, random, payments });
    addTestPaidRoute(t.app, t.deps);
    const challenge = await t.request("/test/paid?indicator=GDP");
    expect(challenge.status).toBe(402);
    const [, , macaroon, invoice] = APERTURE_CHALLENGE.exec(challenge.headers.get("www-authenticate")!)!;
    // $0.01 at $97,000.50: 10,309.2 msat, rounded up to 11 sat.
    expect(bolt11.decode(invoice).satoshis).toBe(11);
    const ok = await t.request("/test/paid?indicator=GDP", {
      headers: { authorization: `L402 ${macaroon}:${lnd.pay(invoice)}` },
    });
    expect(ok.status).toBe(200);
    await t.close();
  });
});
