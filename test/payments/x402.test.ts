// x402 against a real local chain (anvil + Circle's FiatToken v2.2): the official client pays our server and
// balances move on chain; replay, concurrent double spend, altered values, expiry, insufficient balance, a failing
// handler (no settlement) and a failing settlement (data withheld). Settlement both ways: by the service itself,
// and through the official facilitator served on loopback.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { decodeBase64Json, type PaymentRequirements } from "payments";
import { privateKeyToAccount } from "viem/accounts";
import { keccak256, toHex, type Hex } from "viem";
import { listPaymentProofs } from "../../db/repos/payments";
import { ANVIL_KEYS, NETWORK, startChain, type LocalChain } from "../support/chain";
import { ManualClock } from "../support/clock";
import { testKey } from "../support/keys";
import { TEST_BASE_URL, makePaymentsApp, paymentRequiredOf } from "../support/payments";
import { officialFetch, serveFacilitator, signedPayment } from "../support/x402";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

const SETTLER = ANVIL_KEYS[0];
const FACILITATOR = ANVIL_KEYS[3];
const keyOf = (label: string) => keccak256(toHex(label)) as Hex;
const addr = (key: Hex) => privateKeyToAccount(key).address;
const PAY_TO = addr(keyOf("pay-to"));
const SINK = addr(keyOf("sink"));
const PATH = "/test/paid?indicator=GDP";

let chain: LocalChain;
let self: Awaited<ReturnType<typeof makePaymentsApp>>;
let viaFacilitator: Awaited<ReturnType<typeof makePaymentsApp>>;
let facilitator: ReturnType<typeof serveFacilitator>;
let drain: Hex | null = null;

beforeAll(async () => {
  chain = await startChain();
  // anvil's block time follows the wall clock (as does the official client's validBefore): the service's manual
  // clock starts at the chain's time.
  const start = new Date(Number(await chain.latestTimestamp()) * 1000);
  const now = () => new ManualClock(start);
  const hooks = {
    beforeAnswer: async () => {
      if (drain) await chain.transfer(drain, SINK, await chain.balanceOf(addr(drain)));
    },
  };
  self = await makePaymentsApp({
    clock: now(),
    l402: false,
    hooks,
    x402: { networks: [{ network: NETWORK, asset: chain.asset, payTo: PAY_TO, rpcUrl: chain.rpcUrl }], settlement: { mode: "self", settlerKey: SETTLER }, pollingIntervalMs: 50 },
  });
  facilitator = serveFacilitator(chain, FACILITATOR, NETWORK);
  viaFacilitator = await makePaymentsApp({
    clock: now(),
    hooks,
    x402: { networks: [{ network: NETWORK, asset: chain.asset, payTo: PAY_TO, rpcUrl: chain.rpcUrl }], settlement: { mode: "facilitator", url: facilitator.url } },
  });
}, 120_000);
afterAll(async () => {
  await self.close();
  await viaFacilitator.close();
});

let payerSeq = 0;
/** A fresh payer holding `amount` (default 1 USDC). */
async function payer(amount = 1_000_000n): Promise<Hex> {
  const key = keyOf(`payer-${++payerSeq}`);
  if (amount > 0n) await chain.mint(addr(key), amount);
  return key;
}

async function requirementOf(app: typeof self, path = PATH): Promise<PaymentRequirements> {
  const res = await app.request(path);
  expect(res.status).toBe(402);
  return paymentRequiredOf(res).accepts[0];
}

const nowSeconds = (app: typeof self) => BigInt(Math.floor(app.clock.now().getTime() / 1000));
const withPayment = (header: string, name = "PAYMENT-SIGNATURE") => ({ headers: { [name]: header } });

async function reasonOf(res: Response): Promise<string> {
  expect(res.status).toBe(402);
  expect(res.headers.get("payment-required")).not.toBeNull();
  return ((await res.json()) as any).error.details.reason;
}

describe("the challenge", () => {
  test("reads the token's EIP-712 domain from the chain and is identical for identical requests", async () => {
    const a = await self.request(PATH);
    const b = await self.request(PATH);
    const pr = paymentRequiredOf(a);
    expect(pr.accepts).toEqual([
      { scheme: "exact", network: NETWORK, amount: "10000", asset: chain.asset, payTo: PAY_TO, maxTimeoutSeconds: 300, extra: { name: "USDC", version: "2" } },
    ]);
    expect(paymentRequiredOf(b)).toEqual(pr);
    expect(pr.resource).toEqual({ url: `${TEST_BASE_URL}${PATH}`, description: "observations: GDP", mimeType: "application/json" });
  });
});

describe("self settlement", () => {
  test("the official client pays; tokens move on chain; PAYMENT-RESPONSE reports the transaction", async () => {
    const key = await payer();
    const before = await chain.balanceOf(PAY_TO);
    const res = await officialFetch(self.app.fetch, key, NETWORK)(`${TEST_BASE_URL}${PATH}`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).data.indicator).toBe("GDP");
    const settle = decodeBase64Json(res.headers.get("payment-response")!) as any;
    expect(settle).toMatchObject({ success: true, network: NETWORK, payer: addr(key) });
    expect(settle.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    expect(res.headers.get("cache-control")).toBe("private");
    expect(await chain.balanceOf(addr(key))).toBe(990_000n);
    expect(await chain.balanceOf(PAY_TO)).toBe(before + 10_000n);
    const receipt = await chain.client.getTransactionReceipt({ hash: settle.transaction });
    expect(receipt.status).toBe("success");
    const row = (await listPaymentProofs(self.database.db)).find((r) => r.payer === addr(key))!;
    expect(row).toMatchObject({ rail: "x402", status: "settled", reference: settle.transaction, amount: "10000", microUsd: 10000, binding: "GDP", network: NETWORK });
  });

  test("a replayed authorization is refused before the handler runs", async () => {
    const key = await payer();
    const req = await requirementOf(self);
    const header = await signedPayment(key, req, { validBefore: nowSeconds(self) + 300n });
    expect((await self.request(PATH, withPayment(header))).status).toBe(200);
    const served = self.counter.served;
    expect(await reasonOf(await self.request(PATH, withPayment(header)))).toBe("invalid_exact_evm_nonce_already_used");
    expect(await reasonOf(await self.request(PATH, withPayment(header, "X-PAYMENT")))).toBe("invalid_exact_evm_nonce_already_used");
    expect(self.counter.served).toBe(served);
    expect(await chain.balanceOf(addr(key))).toBe(990_000n);
  });

  test("two concurrent requests with one authorization: one is served, one refused, one transfer", async () => {
    const key = await payer();
    const req = await requirementOf(self);
    const header = await signedPayment(key, req, { validBefore: nowSeconds(self) + 300n });
    const served = self.counter.served;
    const results = await Promise.all([self.request(PATH, withPayment(header)), self.request(PATH, withPayment(header))]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 402]);
    expect(self.counter.served).toBe(served + 1);
    expect(await chain.balanceOf(addr(key))).toBe(990_000n);
  });

  test("altered values, another recipient, expiry and an unfunded payer are refused with a fresh challenge", async () => {
    const key = await payer();
    const req = await requirementOf(self);
    const now = nowSeconds(self);
    expect(await reasonOf(await self.request(PATH, withPayment(await signedPayment(key, req, { validBefore: now + 300n, value: 1n }))))).toBe(
      "invalid_exact_evm_payload_authorization_value_mismatch",
    );
    // Signed over one nonce, sent with another: the signature no longer covers the values.
    const altered = await signedPayment(key, req, { validBefore: now + 300n }, { mutate: (b) => (b.payload.authorization.nonce = `0x${"11".repeat(32)}`) });
    expect(await reasonOf(await self.request(PATH, withPayment(altered)))).toBe("invalid_exact_evm_signature");
    const raised = await signedPayment(key, req, { validBefore: now + 300n }, { mutate: (b) => (b.payload.authorization.value = "20000") });
    expect(await reasonOf(await self.request(PATH, withPayment(raised)))).toBe("invalid_exact_evm_payload_authorization_value_mismatch");
    expect(await reasonOf(await self.request(PATH, withPayment(await signedPayment(key, req, { validBefore: now + 300n, to: SINK }))))).toBe(
      "invalid_exact_evm_recipient_mismatch",
    );
    const cheaper = await signedPayment(key, req, { validBefore: now + 300n }, { mutate: (b) => (b.accepted = { ...b.accepted, amount: "1" }) });
    expect(await reasonOf(await self.request(PATH, withPayment(cheaper)))).toBe("no_matching_requirements");
    // Expiry: validBefore must leave 6 s for a block; 5 s is refused.
    expect(await reasonOf(await self.request(PATH, withPayment(await signedPayment(key, req, { validBefore: now - 1n }))))).toBe(
      "invalid_exact_evm_payload_authorization_valid_before",
    );
    expect(await reasonOf(await self.request(PATH, withPayment(await signedPayment(key, req, { validBefore: now + 5n }))))).toBe(
      "invalid_exact_evm_payload_authorization_valid_before",
    );
    // Valid for far longer than the requirement's maxTimeoutSeconds (300 s): 2^255 s and 300 + 61 s are
    // refused, 300 + 60 s (a minute's clock difference) passes that check (and fails the next: validAfter ahead).
    for (const validBefore of [2n ** 255n - 1n, now + 361n]) {
      const res = await self.request(PATH, withPayment(await signedPayment(key, req, { validBefore })));
      expect(await reasonOf(res)).toBe("invalid_exact_evm_payload_authorization_valid_before");
    }
    expect(await reasonOf(await self.request(PATH, withPayment(await signedPayment(key, req, { validBefore: now + 360n, validAfter: now + 60n }))))).toBe(
      "invalid_exact_evm_payload_authorization_valid_after",
    );
    expect(await reasonOf(await self.request(PATH, withPayment(await signedPayment(key, req, { validBefore: now + 300n, validAfter: now + 60n }))))).toBe(
      "invalid_exact_evm_payload_authorization_valid_after",
    );
    const broke = await payer(9_999n);
    expect(await reasonOf(await self.request(PATH, withPayment(await signedPayment(broke, req, { validBefore: now + 300n }))))).toBe(
      "invalid_exact_evm_insufficient_balance",
    );
    expect(await chain.balanceOf(addr(key))).toBe(1_000_000n);
  });

  test("a handler that fails is not settled, and the authorization stays usable", async () => {
    const key = await payer();
    const req = await requirementOf(self);
    const header = await signedPayment(key, req, { validBefore: nowSeconds(self) + 300n });
    const failed = await self.request(`${PATH}&status=500`, withPayment(header));
    expect(failed.status).toBe(500);
    expect(failed.headers.get("payment-response")).toBeNull();
    expect(await chain.balanceOf(addr(key))).toBe(1_000_000n);
    const ok = await self.request(PATH, withPayment(header));
    expect(ok.status).toBe(200);
    expect(await chain.balanceOf(addr(key))).toBe(990_000n);
  });

  test("a settlement that fails withholds the data: INTERNAL_ERROR, PAYMENT-RESPONSE success:false, CORS intact", async () => {
    const key = await payer();
    const req = await requirementOf(self);
    const header = await signedPayment(key, req, { validBefore: nowSeconds(self) + 300n });
    drain = key;
    try {
      const res = await self.request(PATH, { headers: { "PAYMENT-SIGNATURE": header, origin: "https://app.example" } });
      expect(res.status).toBe(502);
      const body = (await res.json()) as any;
      expect(body).toEqual({ error: { code: "INTERNAL_ERROR", message: "The payment could not be settled, so the data is withheld and nothing was charged.", details: { reason: "invalid_exact_evm_insufficient_balance" } } });
      const settle = decodeBase64Json(res.headers.get("payment-response")!) as any;
      expect(settle).toEqual({ success: false, transaction: "", network: NETWORK, payer: addr(key), errorReason: "invalid_exact_evm_insufficient_balance" });
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("access-control-expose-headers")).toContain("PAYMENT-RESPONSE");
    } finally {
      drain = null;
    }
    const row = (await listPaymentProofs(self.database.db)).find((r) => r.payer === addr(key))!;
    expect(row).toMatchObject({ status: "failed", failureReason: "invalid_exact_evm_insufficient_balance" });
  });

  test("v1 payloads in X-PAYMENT, and signatures with v = 0/1, are accepted", async () => {
    const key = await payer();
    const req = await requirementOf(self);
    const v1 = await signedPayment(key, req, { validBefore: nowSeconds(self) + 300n }, { version: 1 });
    const res = await self.request(PATH, withPayment(v1, "X-PAYMENT"));
    expect(res.status).toBe(200);
    expect(res.headers.get("x-payment-response")).toBe(res.headers.get("payment-response"));
    const raw = await signedPayment(key, req, { validBefore: nowSeconds(self) + 300n }, { rawV: true });
    expect((await self.request(PATH, withPayment(raw))).status).toBe(200);
    expect(await chain.balanceOf(addr(key))).toBe(980_000n);
  });

  test("malformed payment headers are a 400 naming the header", async () => {
    for (const [header, why] of [
      ["not base64!", "expected standard base64"],
      [Buffer.from("{nope").toString("base64"), "base64 content is not JSON"],
      [Buffer.from(JSON.stringify({ x402Version: 3 })).toString("base64"), "x402Version must be 1 or 2"],
      [Buffer.from(JSON.stringify({ x402Version: 2, accepted: { scheme: "exact", network: NETWORK }, payload: {} })).toString("base64"), "`payload.authorization` is missing"],
    ] as const) {
      const res = await self.request(PATH, withPayment(header));
      expect(res.status).toBe(400);
      const body = (await res.json()) as any;
      expect(body.error.code).toBe("INVALID_PARAMETER");
      expect(body.error.message).toStartWith("Malformed PAYMENT-SIGNATURE header");
      expect(body.error.message).toContain(why);
    }
  });

  test("a request with a key uses the key and leaves the payment untouched", async () => {
    const key = await payer();
    const req = await requirementOf(self);
    const header = await signedPayment(key, req, { validBefore: nowSeconds(self) + 300n });
    const { headers } = await testKey(self);
    const res = await self.request(PATH, { headers: { ...headers, "PAYMENT-SIGNATURE": header } });
    expect(res.status).toBe(200);
    expect(res.headers.get("payment-response")).toBeNull();
    expect(await chain.balanceOf(addr(key))).toBe(1_000_000n);
  });
});

describe("through the official facilitator on loopback", () => {
  test("the official client pays and the facilitator settles", async () => {
    const key = await payer();
    const before = await chain.balanceOf(PAY_TO);
    facilitator.calls.length = 0;
    const res = await officialFetch(viaFacilitator.app.fetch, key, NETWORK)(`${TEST_BASE_URL}${PATH}`);
    expect(res.status).toBe(200);
    const settle = decodeBase64Json(res.headers.get("payment-response")!) as any;
    expect(settle).toMatchObject({ success: true, network: NETWORK, payer: addr(key) });
    expect(facilitator.calls).toEqual(["POST /verify", "POST /settle"]);
    const tx = await chain.client.getTransaction({ hash: settle.transaction });
    expect(tx.from.toLowerCase()).toBe(facilitator.address.toLowerCase());
    expect(await chain.balanceOf(addr(key))).toBe(990_000n);
    expect(await chain.balanceOf(PAY_TO)).toBe(before + 10_000n);
    // The same 402 carried the L402 challenge too: both rails on one route.
    const challenge = await viaFacilitator.request(PATH);
    expect(challenge.headers.get("www-authenticate")).toMatch(/^L402 macaroon="/);
  });

  test("replay and a failing settlement through the facilitator", async () => {
    const key = await payer();
    const req = await requirementOf(viaFacilitator);
    const header = await signedPayment(key, req, { validBefore: nowSeconds(viaFacilitator) + 300n });
    expect((await viaFacilitator.request(PATH, withPayment(header))).status).toBe(200);
    expect(await reasonOf(await viaFacilitator.request(PATH, withPayment(header)))).toBe("invalid_exact_evm_nonce_already_used");
    const key2 = await payer();
    const header2 = await signedPayment(key2, req, { validBefore: nowSeconds(viaFacilitator) + 300n });
    drain = key2;
    try {
      const res = await viaFacilitator.request(PATH, withPayment(header2));
      expect(res.status).toBe(502);
      expect(((await res.json()) as any).error.code).toBe("INTERNAL_ERROR");
      expect((decodeBase64Json(res.headers.get("payment-response")!) as any).success).toBe(false);
    } finally {
      drain = null;
    }
  });
});
