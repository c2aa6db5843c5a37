// test-tier: once (runs svc dev pay)
// Payment configuration: USD -> sats conversion and rate feeds, rails built from the environment (development
// defaults with secrets generated once in DATA_DIR), production refusals, and `svc dev pay` while a server runs.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { feedRate, fixedRate, satsFor, usdToCents } from "payments";
import { ConfigError, loadConfig } from "../../src/config";
import { createLogger } from "../../src/logger";
import { buildPayments, devLightningNode } from "../../src/payments";
import { ManualClock, seededRandom } from "../support/clock";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

const deps = () => ({
  database: { db: {} } as any,
  clock: new ManualClock(),
  random: seededRandom(1),
  logger: createLogger("silent"),
});
const tmp = () => mkdtempSync(join(tmpdir(), "svc-pay-"));

describe("USD to sats", () => {
  test("rounded up, whole sats, at least 1", () => {
    expect(satsFor(10_000, usdToCents("100000"))).toBe(10n);
    expect(satsFor(10_000, usdToCents("97000.50"))).toBe(11n);
    expect(satsFor(1_500_000, usdToCents("100000"))).toBe(1500n);
    expect(satsFor(1, usdToCents("100000"))).toBe(1n);
    expect(satsFor(10_000, usdToCents("1000000"))).toBe(1n);
    expect(satsFor(10_001, usdToCents("100000"))).toBe(11n);
    expect(usdToCents("97000.5")).toBe(9_700_050n);
    expect(usdToCents("97000.509")).toBe(9_700_050n);
    expect(() => fixedRate("0")).toThrow("BTC/USD rate must be positive");
  });

  test("a feed is cached for a minute, tolerated stale for ten, then falls back or fails closed", async () => {
    const clock = new ManualClock();
    let calls = 0;
    let answer: () => Response = () => Response.json({ data: { amount: "100000.00", currency: "USD" } });
    const fetchImpl = (async () => (calls++, answer())) as unknown as typeof fetch;
    const rate = feedRate({ url: "http://rates.test/btc", clock, fetch: fetchImpl });
    expect(await rate.btcUsdCents()).toBe(10_000_000n);
    clock.advance(59_999);
    expect(await rate.btcUsdCents()).toBe(10_000_000n);
    expect(calls).toBe(1);
    clock.advance(1);
    answer = () => Response.json({ bitcoin: { usd: 120000 } });
    expect(await rate.btcUsdCents()).toBe(12_000_000n);
    expect(calls).toBe(2);
    answer = () => new Response("down", { status: 503 });
    clock.advance(9 * 60_000);
    expect(await rate.btcUsdCents()).toBe(12_000_000n);
    clock.advance(60_000);
    await expect(rate.btcUsdCents()).rejects.toThrow("no current BTC/USD rate");
    const withFallback = feedRate({
      url: "http://rates.test/btc",
      clock,
      fetch: fetchImpl,
      fallback: fixedRate("90000"),
    });
    expect(await withFallback.btcUsdCents()).toBe(9_000_000n);
  });
});

describe("rails from configuration", () => {
  test("development defaults: both rails, Base Sepolia USDC via the public facilitator, secrets generated once", () => {
    const dir = tmp();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.payments).toEqual({
      x402: {
        networks: [{ network: "eip155:84532", rpcUrl: null, asset: null }],
        payTo: null,
        settle: "facilitator",
        settlerKey: null,
        facilitatorUrl: "https://x402.org/facilitator",
      },
      l402: {
        rootKeys: [],
        backend: "dev",
        lnd: { url: null, macaroonHex: null, tlsCert: null },
        btcUsdRate: null,
        btcUsdRateUrl: null,
      },
    });
    const first = buildPayments(config, deps());
    expect(first.payments?.rails).toEqual(["x402", "l402"]);
    expect(first.devLightning).not.toBeNull();
    const payTo = JSON.parse(readFileSync(join(dir, "x402-pay-to.json"), "utf8"));
    expect(payTo.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(readFileSync(join(dir, "l402-root-key"), "utf8").trim()).toMatch(/^[0-9a-f]{64}$/);
    expect(first.summary).toEqual({
      x402: {
        networks: ["eip155:84532"],
        pay_to: payTo.address,
        settle: "https://x402.org/facilitator",
        generated_pay_to: true,
      },
      l402: { backend: "dev", rate: "100000 (development fallback)", generated_root_key: true },
    });
    const second = buildPayments(config, deps());
    expect((second.summary.x402 as any).pay_to).toBe(payTo.address);
  });

  test("per-network RPC URLs and assets, and rails turned off", () => {
    const c = loadConfig({
      X402_NETWORKS: "eip155:84532,eip155:8453",
      X402_RPC_URL: "eip155:8453=https://rpc.example/base",
      X402_ASSET: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
    });
    expect(c.payments.x402!.networks).toEqual([
      { network: "eip155:84532", rpcUrl: null, asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" },
      {
        network: "eip155:8453",
        rpcUrl: "https://rpc.example/base",
        asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      },
    ]);
    expect(() => loadConfig({ X402_NETWORKS: "base-sepolia" })).toThrow(
      "X402_NETWORKS: 'base-sepolia' is not an EVM CAIP-2 id",
    );
    expect(() => loadConfig({ X402_RPC_URL: "eip155:1=https://x" })).toThrow(
      "X402_RPC_URL: expected one value or network=value pairs",
    );
    const off = loadConfig({ X402_NETWORKS: "none", LIGHTNING_BACKEND: "none" });
    expect(off.payments).toEqual({ x402: null, l402: null });
    expect(buildPayments(off, deps()).payments).toBeNull();
  });

  test("self settlement needs a gas key, in development too", () => {
    expect(() => buildPayments(loadConfig({ DATA_DIR: tmp(), X402_SETTLE: "self" }), deps())).toThrow(
      "X402_SETTLE=self needs X402_SETTLER_KEY",
    );
  });

  test("production refuses development backends, generated addresses and missing secrets", () => {
    const dir = tmp();
    let err: unknown;
    try {
      buildPayments(loadConfig({ NODE_ENV: "production", DATA_DIR: dir }), deps());
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toBe(
      [
        "refusing to start in production:",
        "  X402_PAY_TO is unset: a generated pay-to address is for development only",
        "  L402_ROOT_KEY is unset: a generated root key is for development only",
        "  LIGHTNING_BACKEND=dev: the development Lightning backend cannot be paid; use lnd",
        "  set BTC_USD_RATE_URL (a BTC/USD feed) or BTC_USD_RATE (a fixed rate)",
      ].join("\n"),
    );
    expect(existsSync(join(dir, "x402-pay-to.json"))).toBe(false);
    expect(existsSync(join(dir, "l402-root-key"))).toBe(false);
    const withPayTo = {
      NODE_ENV: "production",
      DATA_DIR: dir,
      X402_PAY_TO: "0x4374713F62239c69e6912a4D7235B2a365397004",
    };
    expect(() =>
      buildPayments(
        loadConfig({ ...withPayTo, LIGHTNING_BACKEND: "lnd", L402_ROOT_KEY: "ab".repeat(32), BTC_USD_RATE: "100000" }),
        deps(),
      ),
    ).toThrow("refusing to start in production:\n  LIGHTNING_BACKEND=lnd needs LND_REST_URL and LND_MACAROON_HEX");
    const ok = buildPayments(
      loadConfig({
        ...withPayTo,
        LIGHTNING_BACKEND: "lnd",
        L402_ROOT_KEY: "ab".repeat(32),
        BTC_USD_RATE_URL: "https://rates.example/btc",
        LND_REST_URL: "https://127.0.0.1:8080",
        LND_MACAROON_HEX: "0201",
      }),
      deps(),
    );
    expect(ok.payments?.rails).toEqual(["x402", "l402"]);
    expect(ok.devLightning).toBeNull();
    expect(existsSync(join(dir, "l402-root-key"))).toBe(false);
    expect(() => loadConfig({ L402_ROOT_KEY: "ab".repeat(31) })).toThrow(
      "L402_ROOT_KEY: must be hex of at least 32 bytes",
    );
  });
});

describe("svc dev pay", () => {
  const cli = (args: string[], env: Record<string, string>) => {
    const r = Bun.spawnSync(["bun", "run", join(import.meta.dir, "../../src/cli.ts"), ...args], {
      env: { ...process.env, LOG_LEVEL: "silent", ...env },
    });
    return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
  };

  test("pays an invoice the server created in DATA_DIR and prints its preimage; once only", async () => {
    const dir = tmp();
    // The "server": another process's view of the same DATA_DIR.
    const node = devLightningNode(loadConfig({ DATA_DIR: dir }), {
      clock: { now: () => new Date() },
      random: { bytes: (n) => crypto.getRandomValues(new Uint8Array(n)) },
    });
    const inv = await node.createInvoice({ amountMsat: 10_000n, memo: "L402 test", expirySeconds: 600 });
    const paid = cli(["dev", "pay", inv.paymentRequest], { DATA_DIR: dir, NODE_ENV: "development" });
    expect(paid.code).toBe(0);
    const preimage = paid.out.trim();
    expect(createHash("sha256").update(Buffer.from(preimage, "hex")).digest("hex")).toBe(inv.paymentHashHex);
    expect(paid.err).toContain("paid 10 sat");
    const again = cli(["dev", "pay", inv.paymentRequest], { DATA_DIR: dir, NODE_ENV: "development" });
    expect(again).toMatchObject({ code: 1, out: "" });
    expect(again.err).toContain("cannot pay: the invoice has already been paid");
    const prod = cli(["dev", "pay", inv.paymentRequest], { DATA_DIR: dir, NODE_ENV: "production" });
    expect(prod.code).toBe(2);
    expect(prod.err).toContain("'svc dev' is not available in production mode.");
  });
});

describe("development Lightning node key", () => {
  test("the compressed public key matches what BOLT11 signature recovery yields, for either y parity", async () => {
    const { DevLightning, memoryInvoiceStore, REGTEST } = await import("payments");
    const bolt11 = (await import("bolt11")).default;
    const parities = new Set<string>();
    for (let i = 1; i <= 8; i++) {
      const node = new DevLightning(memoryInvoiceStore(new Uint8Array(32).fill(i)), new ManualClock(), seededRandom(i));
      const inv = await node.createInvoice({ amountMsat: 1000n, memo: "k", expirySeconds: 60 });
      expect(bolt11.decode(inv.paymentRequest, REGTEST).payeeNodeKey).toBe(node.nodePublicKey);
      parities.add(node.nodePublicKey.slice(0, 2));
    }
    expect([...parities].sort()).toEqual(["02", "03"]);
  });
});
