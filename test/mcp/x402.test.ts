// test-tier: once (the local chain: anvil)
// x402 over MCP against a real local chain (anvil + Circle's FiatToken v2.2), as the x402 MCP transport specifies
// (coinbase/x402 specs/transports-v2/mcp.md, tool-result binding): an unpaid call to a paid tool is a tool result with
// `isError: true` whose structuredContent (and first text) is the x402 PaymentRequired; the official x402 client
// (@x402/core + @x402/evm) signs a payment from it; the retried tools/call carries it in `_meta["x402/payment"]`;
// the result carries the SettleResponse in `_meta["x402/payment-response"]` and the price moves on chain. The payment
// goes through the REST twin's gate: replays, wrong prices and malformed payloads are refused there, free answers
// stay free, a key wins over a payment, and a settlement that fails withholds the data and asks again.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { x402Client } from "@x402/core/client";
import { isPaymentRequired } from "@x402/core/schemas";
import type { PaymentPayload, PaymentRequired } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { DevLightning, L402Rail, Payments, X402Rail, decodeBase64Json, fixedRate, memoryInvoiceStore } from "payments";
import { keccak256, toHex, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { listPaymentProofs, paymentProofStore } from "../../db/repos/payments";
import { mcpPaymentRequestSchema } from "../../src/schemas/mcp";
import { keyUsage } from "../../src/services/keys";
import { makeTestApp, type TestApp } from "../support/app";
import { ANVIL_KEYS, NETWORK, startChain, type LocalChain } from "../support/chain";
import { ManualClock, seededRandom } from "../support/clock";
import { makeTestDatabase } from "../support/db";
import { testKey } from "../support/keys";
import { TEST_BTC_USD, TEST_NODE_KEY, TEST_ROOT_SECRET } from "../support/payments";
import { fredRows } from "../support/snapshot";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

const keyOf = (label: string) => keccak256(toHex(`mcp-x402-${label}`)) as Hex;
const addr = (key: Hex) => privateKeyToAccount(key).address;
const PAY_TO = addr(keyOf("pay-to"));
// A settler without gas: verification passes (a simulation needs none), the settling transaction cannot be sent.
const NO_GAS_SETTLER = keyOf("settler-without-gas");
const HELD = { indicator: "UNRATE", region: "US" };
// Its newest month as shipped (the June-2026 FRED vintage): 2026-05, 4.3.
const UNRATE_LATEST = fredRows("UNRATE").at(-1)!;
const MONTH = "2026-11";

let chain: LocalChain;
let paid: TestApp;
let unsettled: TestApp;
let servers: ReturnType<typeof Bun.serve>[] = [];
let base: string;
let unsettledBase: string;
const clients: Client[] = [];

beforeAll(async () => {
  chain = await startChain();
  // anvil's block time follows the wall clock (as does the official client's validBefore): the service's clock starts there.
  const clock = new ManualClock(new Date(Number(await chain.latestTimestamp()) * 1000));
  const random = seededRandom(7);
  const database = await makeTestDatabase();
  const store = paymentProofStore(database.db);
  const x402 = (settlerKey: Hex) =>
    new X402Rail({
      networks: [{ network: NETWORK, asset: chain.asset, payTo: PAY_TO, rpcUrl: chain.rpcUrl }],
      settlement: { mode: "self", settlerKey },
      pollingIntervalMs: 50,
    });
  const l402 = new L402Rail({
    secrets: [TEST_ROOT_SECRET],
    backend: new DevLightning(memoryInvoiceStore(TEST_NODE_KEY), clock, random),
    rates: fixedRate(TEST_BTC_USD),
    clock,
    random,
  });
  paid = await makeTestApp({
    database,
    clock,
    random,
    payments: new Payments({ x402: x402(ANVIL_KEYS[0]), l402, store, clock }),
  });
  unsettled = await makeTestApp({
    database,
    clock,
    random,
    payments: new Payments({ x402: x402(NO_GAS_SETTLER), l402: null, store, clock }),
  });
  servers = [paid, unsettled].map((t) => Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: t.app.fetch }));
  [base, unsettledBase] = servers.map((s) => `http://127.0.0.1:${s.port}`);
}, 120_000);

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  for (const s of servers) s.stop(true);
  // The two apps share one database: close the second app's own parts, then the first app with the database.
  await unsettled.deps.keys.close();
  await unsettled.deps.mail.close();
  unsettled.deps.rateLimits.close();
  await paid.close();
});

async function connect(at: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "mcp-x402-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${at}/api/mcp`), { requestInit: { headers } }));
  // Listed tools: the SDK validates every structuredContent against outputSchema from now on.
  await client.listTools();
  clients.push(client);
  return client;
}

const callTool = async (client: Client, name: string, args: Record<string, unknown>, payment?: unknown) =>
  (await client.callTool({
    name,
    arguments: args,
    ...(payment === undefined ? {} : { _meta: { "x402/payment": payment } }),
  })) as CallToolResult;
const structured = (r: CallToolResult) => r.structuredContent as any;
const text = (r: CallToolResult) => (r.content[0] as { type: "text"; text: string }).text;

let payerSeq = 0;
/** A fresh payer holding 1 USDC, and the official x402 client that signs for it. */
async function payer() {
  const key = keyOf(`payer-${++payerSeq}`);
  await chain.mint(addr(key), 1_000_000n);
  const signer = new x402Client().register(
    NETWORK as `${string}:${string}`,
    new ExactEvmScheme(privateKeyToAccount(key)),
  );
  // The local token is not on the client's default allow-list of assets.
  signer.setSpendControls({ allowedAssets: true });
  return {
    key,
    address: addr(key),
    sign: (pr: PaymentRequired): Promise<PaymentPayload> => signer.createPaymentPayload(pr),
  };
}

/** The payment request of an unpaid call, checked as x402 clients read it. */
async function paymentRequestOf(client: Client, name: string, args: Record<string, unknown>): Promise<PaymentRequired> {
  const r = await callTool(client, name, args);
  expect(r.isError).toBe(true);
  expect(isPaymentRequired(structured(r))).toBe(true);
  return structured(r) as PaymentRequired;
}

describe("an unpaid call: the x402 PaymentRequired, as the x402 MCP transport says", () => {
  test("structuredContent is the PaymentRequired (the REST twin's accepts), with the price, rails, REST URL and L402 challenge beside it; the text is its short JSON", async () => {
    const r = await callTool(await connect(base), "get_latest", HELD);
    const s = structured(r);
    const url = `${base}/v1/observations/latest?indicator=UNRATE&region=US`;
    expect(r.isError).toBe(true);
    expect(isPaymentRequired(s)).toBe(true);
    expect(mcpPaymentRequestSchema.parse(s)).toEqual(s);
    expect(s.accepts).toEqual([
      {
        scheme: "exact",
        network: NETWORK,
        amount: "10000",
        asset: chain.asset,
        payTo: PAY_TO,
        maxTimeoutSeconds: 300,
        extra: { name: "USDC", version: "2" },
      },
    ]);
    // The x402 part is the REST twin's PAYMENT-REQUIRED, what an HTTP x402 client signs from (the bazaar extension in its
    // compact form: a client echoes it into the payment, which must fit the payment header's limit).
    const twin = (await fetch(url)).headers.get("payment-required")!;
    const { error: _e, code: _c, details: _d, ...x402 } = s;
    const { error: _twinError, ...twinX402 } = decodeBase64Json(twin) as any;
    expect(x402).toEqual(twinX402);
    expect(s.extensions.bazaar.info.input).toEqual({ type: "http", method: "GET" });
    expect(s.code).toBe("PAYMENT_REQUIRED");
    expect(s.error).toBe(
      "get_latest costs 0.01 USD for this call. Pay it in this call with x402: sign one of `accepts` and call again with the payment in " +
        `_meta["x402/payment"]; or send an API key with the MCP request ('Authorization: Bearer <key>' or 'X-API-Key: <key>'; free keys: ` +
        `POST /v1/signup); or pay the equivalent REST request with x402 or L402: GET ${url}`,
    );
    expect(s.details).toMatchObject({
      price_usd: "0.01",
      rails: ["x402", "l402"],
      rest_url: url,
      method: "GET",
      l402: { amount_sats: "10" },
    });
    // The text: the same PaymentRequired for clients that read content[0].text, without the bazaar extension and the
    // L402 invoice and macaroon (the REST URL hands them out): about 1 KB.
    const t = JSON.parse(text(r));
    expect(isPaymentRequired(t)).toBe(true);
    expect(t).toEqual({
      x402Version: 2,
      error: s.error,
      resource: s.resource,
      accepts: s.accepts,
      code: "PAYMENT_REQUIRED",
      details: {
        price_usd: "0.01",
        rails: ["x402", "l402"],
        rest_url: url,
        method: "GET",
        l402: { amount_sats: "10", valid_until: s.details.l402.valid_until },
      },
    });
    expect(text(r).length).toBeLessThan(1200);
  });
});

describe('paid in the call (_meta["x402/payment"])', () => {
  test("the official x402 client signs from the result; the tool answers the data and the receipt; the price moves on chain, once", async () => {
    const anonymous = await connect(base);
    const who = await payer();
    const before = await chain.balanceOf(PAY_TO);
    const payment = await who.sign(await paymentRequestOf(anonymous, "get_latest", HELD));
    const r = await callTool(anonymous, "get_latest", HELD, payment);
    expect(r.isError).toBeUndefined();
    expect(structured(r).data).toMatchObject({
      indicator: "UNRATE",
      region: "US",
      period_start: UNRATE_LATEST.date,
      value: UNRATE_LATEST.value,
    });
    const receipt = r._meta!["x402/payment-response"] as any;
    expect(receipt).toMatchObject({ success: true, network: NETWORK, payer: who.address });
    expect(receipt.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    expect((await chain.client.getTransactionReceipt({ hash: receipt.transaction })).status).toBe("success");
    expect(await chain.balanceOf(who.address)).toBe(990_000n);
    expect(await chain.balanceOf(PAY_TO)).toBe(before + 10_000n);
    const proof = (await listPaymentProofs(paid.database.db)).find((p) => p.payer === who.address)!;
    expect(proof).toMatchObject({
      rail: "x402",
      status: "settled",
      reference: receipt.transaction,
      binding: "UNRATE",
      microUsd: 10_000,
      resource: "/v1/observations/latest",
    });

    // The same payment again: refused by the gate (nonce used), with a fresh request naming why; nothing moves.
    const replay = await callTool(anonymous, "get_latest", HELD, payment);
    expect(replay.isError).toBe(true);
    expect(isPaymentRequired(structured(replay))).toBe(true);
    expect(structured(replay).details.reason).toBe("invalid_exact_evm_nonce_already_used");
    // Why it was refused first, then where keys come from, then the price and how to pay.
    expect(structured(replay).error).toStartWith(
      "Payment refused: This authorization's nonce has already been used on chain. Free API keys: POST ",
    );
    expect(structured(replay).error).toContain("get_latest costs 0.01 USD for this call.");
    expect(await chain.balanceOf(who.address)).toBe(990_000n);
  });

  test("a client that reads only content[0].text signs from it just as well", async () => {
    const anonymous = await connect(base);
    const who = await payer();
    const unpaid = await callTool(anonymous, "get_insights", HELD);
    const r = await callTool(anonymous, "get_insights", HELD, await who.sign(JSON.parse(text(unpaid))));
    expect([r.isError, structured(r).meta.indicator, (r._meta!["x402/payment-response"] as any).success]).toEqual([
      undefined,
      "UNRATE",
      true,
    ]);
    expect(await chain.balanceOf(who.address)).toBe(990_000n);
  });

  test("a payment signed for one price does not buy another: svc: series cost 0.05", async () => {
    const anonymous = await connect(base);
    const who = await payer();
    const cheap = await who.sign(await paymentRequestOf(anonymous, "get_latest", HELD));
    const r = await callTool(anonymous, "get_latest", { indicator: "svc:sahm_rule" }, cheap);
    expect([
      r.isError,
      structured(r).details.reason,
      structured(r).details.price_usd,
      structured(r).accepts[0].amount,
    ]).toEqual([true, "no_matching_requirements", "0.05", "50000"]);
    // Signed from that request, it does.
    const dear = await who.sign(structured(r));
    const ok = await callTool(anonymous, "get_latest", { indicator: "svc:sahm_rule" }, dear);
    expect([ok.isError, structured(ok).data.indicator, (ok._meta!["x402/payment-response"] as any).success]).toEqual([
      undefined,
      "svc:sahm_rule",
      true,
    ]);
    expect(await chain.balanceOf(who.address)).toBe(950_000n);
  });

  test("what costs nothing stays free with a payment attached: a 404, and catalog tools", async () => {
    const anonymous = await connect(base);
    const who = await payer();
    const payment = await who.sign(await paymentRequestOf(anonymous, "get_latest", HELD));
    const missing = await callTool(anonymous, "get_latest", { indicator: "NOPE_NOT_A_CODE" }, payment);
    expect([structured(missing).error.code, missing._meta!["x402/payment-response"]]).toEqual([
      "RESOURCE_NOT_FOUND",
      undefined,
    ]);
    const free = await callTool(anonymous, "list_sources", {}, payment);
    expect([free.isError, free._meta!["x402/payment-response"]]).toEqual([undefined, undefined]);
    // A free tool does not even read it: a malformed one is no error there.
    expect((await callTool(anonymous, "get_indicator", { code: "UNRATE" }, "not a payment")).isError).toBeUndefined();
    // The authorization was never used: it still pays for the call it was signed for.
    expect(await chain.balanceOf(who.address)).toBe(1_000_000n);
    expect((await callTool(anonymous, "get_latest", HELD, payment)).isError).toBeUndefined();
    expect(await chain.balanceOf(who.address)).toBe(990_000n);
  });

  test('a malformed payment: INVALID_PARAMETER naming _meta["x402/payment"], nothing charged', async () => {
    const anonymous = await connect(base);
    const notObject = await callTool(anonymous, "get_latest", HELD, "eyJ4NDAyVmVyc2lvbiI6Mn0=");
    expect(structured(notObject)).toEqual({
      error: {
        code: "INVALID_PARAMETER",
        message: 'Invalid _meta["x402/payment"]: it must be an x402 PaymentPayload object.',
        details: { parameter: "x402/payment", parameters: ["x402/payment"], in: "_meta" },
      },
    });
    expect(notObject._meta).toEqual({});
    const incomplete = await callTool(anonymous, "get_latest", HELD, { x402Version: 2, payload: {} });
    expect(structured(incomplete)).toEqual({
      error: {
        code: "INVALID_PARAMETER",
        message: 'Malformed _meta["x402/payment"]: a v2 payload needs `accepted` (a copy of the chosen requirement).',
        details: { parameter: "x402/payment", parameters: ["x402/payment"], in: "_meta" },
      },
    });
    expect(incomplete._meta!.http_status).toBe(400);
  });

  test("with an API key the key pays: a payment in the call is left unused", async () => {
    const anonymous = await connect(base);
    const who = await payer();
    const payment = await who.sign(await paymentRequestOf(anonymous, "get_latest", HELD));
    const { key, row } = await testKey(paid);
    const r = await callTool(await connect(base, { authorization: `Bearer ${key}` }), "get_latest", HELD, payment);
    expect([r.isError, r._meta!["x402/payment-response"], structured(r).data.value]).toEqual([
      undefined,
      undefined,
      UNRATE_LATEST.value,
    ]);
    expect(await keyUsage(paid.deps, row.id, MONTH)).toBe(1);
    expect(await chain.balanceOf(who.address)).toBe(1_000_000n);
  });

  test("a settlement that fails: the data withheld, nothing charged, the payment request again with the failed receipt", async () => {
    const anonymous = await connect(unsettledBase);
    const who = await payer();
    const before = await chain.balanceOf(PAY_TO);
    const payment = await who.sign(await paymentRequestOf(anonymous, "get_observations", { ...HELD, limit: 1 }));
    const r = await callTool(anonymous, "get_observations", { ...HELD, limit: 1 }, payment);
    expect(r.isError).toBe(true);
    const s = structured(r);
    expect(isPaymentRequired(s)).toBe(true);
    expect(s.data).toBeUndefined();
    expect(s.code).toBe("INTERNAL_ERROR");
    expect(s.error).toStartWith(
      "The payment could not be settled, so the data is withheld and nothing was charged. get_observations costs 0.01 USD",
    );
    expect(s.details).toMatchObject({ price_usd: "0.01", rails: ["x402"], reason: expect.any(String) });
    expect(r._meta!["x402/payment-response"]).toMatchObject({
      success: false,
      transaction: "",
      network: NETWORK,
      payer: who.address,
      errorReason: s.details.reason,
    });
    expect(r._meta!.http_status).toBe(502);
    expect(await chain.balanceOf(who.address)).toBe(1_000_000n);
    expect(await chain.balanceOf(PAY_TO)).toBe(before);
    const proof = (await listPaymentProofs(unsettled.database.db)).find((p) => p.payer === who.address)!;
    expect(proof.status).toBe("failed");
  });
});
