// Builds the payment rails from configuration (spec "Authentication": x402 and L402), for the server and the CLI.
// Out of the box (development) both rails are on: x402 on Base Sepolia USDC through the public testnet facilitator,
// paying a pay-to address generated once in DATA_DIR, and L402 through the development Lightning backend with a
// root key generated once in DATA_DIR. Production refuses to start with a development backend, a generated pay-to
// address or a missing secret.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  DevLightning,
  L402Rail,
  LndRestBackend,
  Payments,
  X402Rail,
  feedRate,
  fileInvoiceStore,
  fixedRate,
  knownNetwork,
  newEvmKey,
  type InvoiceBackend,
  type RateSource,
  type X402NetworkOptions,
} from "payments";
import { paymentProofStore } from "../db/repos/payments";
import { ConfigError, type Config } from "./config";
import type { Deps } from "./deps";

/** The BTC/USD rate used in development when neither BTC_USD_RATE nor a reachable BTC_USD_RATE_URL gives one. */
export const DEV_FALLBACK_BTC_USD = "100000";

export const devLightningDir = (dataDir: string) => join(dataDir, "lightning-dev");

function refuse(lines: string[]): never {
  throw new ConfigError(`refusing to start in production:\n${lines.map((l) => `  ${l}`).join("\n")}`);
}

/** A file in DATA_DIR created once (mode 600) and read back on every start. */
function keptFile(dataDir: string, name: string, make: () => string): string {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, name);
  if (!existsSync(file)) writeFileSync(file, make(), { mode: 0o600, flag: "wx" });
  return readFileSync(file, "utf8");
}

export type PaymentSetup = {
  payments: Payments | null;
  /** The development Lightning node, when that backend is in use (`svc dev pay`). */
  devLightning: DevLightning | null;
  /** One line per rail for the startup log. */
  summary: Record<string, unknown>;
};

export function devLightningNode(config: Config, deps: Pick<Deps, "clock" | "random">): DevLightning {
  return new DevLightning(fileInvoiceStore(devLightningDir(config.dataDir), deps.random), deps.clock, deps.random);
}

/** Every configuration problem of both rails, so a refusal lists them all at once. */
function paymentProblems(config: Config): string[] {
  const production = config.env === "production";
  const { x402: x, l402: l } = config.payments;
  const problems: string[] = [];
  if (x) {
    if (production && !x.payTo)
      problems.push("X402_PAY_TO is unset: a generated pay-to address is for development only");
    if (x.settle === "self" && !x.settlerKey)
      problems.push("X402_SETTLE=self needs X402_SETTLER_KEY (a gas-funded key)");
    for (const n of x.networks) {
      const known = knownNetwork(n.network);
      if (!n.asset && !known?.usdc) problems.push(`X402_ASSET is needed for ${n.network} (no default token known)`);
      if (x.settle === "self" && !n.rpcUrl && !known?.defaultRpcUrl)
        problems.push(`X402_RPC_URL is needed for ${n.network} to settle itself`);
    }
  }
  if (l) {
    if (production && l.rootKeys.length === 0)
      problems.push("L402_ROOT_KEY is unset: a generated root key is for development only");
    if (production && l.backend === "dev")
      problems.push("LIGHTNING_BACKEND=dev: the development Lightning backend cannot be paid; use lnd");
    if (l.backend === "lnd" && (!l.lnd.url || !l.lnd.macaroonHex))
      problems.push("LIGHTNING_BACKEND=lnd needs LND_REST_URL and LND_MACAROON_HEX");
    if (production && !l.btcUsdRate && !l.btcUsdRateUrl)
      problems.push("set BTC_USD_RATE_URL (a BTC/USD feed) or BTC_USD_RATE (a fixed rate)");
  }
  return problems;
}

/** Throws ConfigError naming every problem of both rails' configuration (production: the refusal to start). */
export function checkPaymentConfig(config: Config): void {
  const problems = paymentProblems(config);
  if (!problems.length) return;
  if (config.env === "production") refuse(problems);
  throw new ConfigError(`invalid configuration:\n${problems.map((l) => `  ${l}`).join("\n")}`);
}

/** The secrets of this node's rails that nothing configures, generated once in DATA_DIR (null: configured, or rail off). */
export type GeneratedSecrets = { l402RootKey: string | null; x402PayTo: string | null };

export function generatedSecrets(config: Config, deps: Pick<Deps, "random">): GeneratedSecrets {
  const p = config.payments;
  const l402RootKey =
    p.l402 && p.l402.rootKeys.length === 0
      ? keptFile(
          config.dataDir,
          "l402-root-key",
          () => Buffer.from(deps.random.bytes(32)).toString("hex") + "\n",
        ).trim()
      : null;
  const x402PayTo =
    p.x402 && !p.x402.payTo
      ? (JSON.parse(
          keptFile(config.dataDir, "x402-pay-to.json", () => {
            const key = newEvmKey();
            const note =
              "Development x402 pay-to address, generated once. Its private key holds whatever testnet tokens were paid to it.";
            return JSON.stringify({ address: key.address, privateKey: key.privateKey, note }, null, 2) + "\n";
          }),
        ).address as string)
      : null;
  return { l402RootKey, x402PayTo };
}

/**
 * `shared`: the generated secrets to use instead of this node's own (src/services/payment-secrets.ts: nodes on one
 * database share the first node's); by default this node's, from DATA_DIR.
 */
export function buildPayments(
  config: Config,
  deps: Pick<Deps, "database" | "clock" | "random" | "logger">,
  io: { fetch?: typeof fetch } = {},
  shared?: GeneratedSecrets,
): PaymentSetup {
  const production = config.env === "production";
  const p = config.payments;
  checkPaymentConfig(config);
  const summary: Record<string, unknown> = {};
  const generated = shared ?? generatedSecrets(config, deps);

  let x402: X402Rail | null = null;
  if (p.x402) {
    const x = p.x402;
    const payTo = (x.payTo ?? generated.x402PayTo!) as `0x${string}`;
    const networks: X402NetworkOptions[] = x.networks.map((n) => {
      const known = knownNetwork(n.network);
      return {
        network: n.network,
        asset: (n.asset ?? known!.usdc!.address) as `0x${string}`,
        payTo,
        rpcUrl: n.rpcUrl ?? known?.defaultRpcUrl ?? null,
      };
    });
    x402 = new X402Rail({
      networks,
      settlement:
        x.settle === "self"
          ? { mode: "self", settlerKey: x.settlerKey as `0x${string}` }
          : { mode: "facilitator", url: x.facilitatorUrl },
      fetch: io.fetch,
      logger: deps.logger,
    });
    summary.x402 = {
      networks: networks.map((n) => n.network),
      pay_to: payTo,
      settle: x.settle === "self" ? "self" : x.facilitatorUrl,
      generated_pay_to: !x.payTo,
    };
  }

  let l402: L402Rail | null = null;
  let devLightning: DevLightning | null = null;
  if (p.l402) {
    const l = p.l402;
    const secrets = (l.rootKeys.length ? l.rootKeys : [generated.l402RootKey!]).map(
      (h) => new Uint8Array(Buffer.from(h, "hex")),
    );
    let backend: InvoiceBackend;
    if (l.backend === "dev") {
      devLightning = devLightningNode(config, deps);
      backend = devLightning;
    } else {
      const cert = l.lnd.tlsCert;
      const pem = !cert ? null : cert.includes("-----BEGIN") ? cert : readFileSync(cert, "utf8");
      backend = new LndRestBackend({
        url: l.lnd.url!,
        macaroonHex: l.lnd.macaroonHex!,
        tlsCertPem: pem,
        fetch: io.fetch,
      });
    }
    const fixed = l.btcUsdRate ? fixedRate(l.btcUsdRate) : production ? null : fixedRate(DEV_FALLBACK_BTC_USD);
    const rates: RateSource = l.btcUsdRateUrl
      ? feedRate({ url: l.btcUsdRateUrl, clock: deps.clock, fetch: io.fetch, fallback: fixed, logger: deps.logger })
      : fixed!;
    l402 = new L402Rail({ secrets, backend, rates, clock: deps.clock, random: deps.random, logger: deps.logger });
    summary.l402 = {
      backend: backend.kind,
      rate: l.btcUsdRateUrl ? "feed" : (l.btcUsdRate ?? `${DEV_FALLBACK_BTC_USD} (development fallback)`),
      generated_root_key: l.rootKeys.length === 0,
    };
  }

  if (!x402 && !l402) return { payments: null, devLightning: null, summary: { payments: "off" } };
  const payments = new Payments({
    x402,
    l402,
    store: paymentProofStore(deps.database.db),
    clock: deps.clock,
    logger: deps.logger,
  });
  return { payments, devLightning, summary };
}
