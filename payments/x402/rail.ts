// The x402 rail: builds deterministic `exact` requirements per configured network, verifies EIP-3009 payments
// (offline checks, then on-chain state by simulation) and settles them, either itself through a viem wallet
// client or through a facilitator's /verify and /settle HTTP API (facilitator.ts). Challenges need no chain library:
// what talks to a chain (chain.ts, viem) is loaded by the rail's first chain access.
import type { Address, Hex, Transport } from "viem";
import { addressOfPrivateKey, checksumAddress } from "./address";
import type { ChainLinks, ChainTarget } from "./chain";
import { encodeBase64Json } from "../encoding";
import { silentLogger, type PaymentLogger, type PaymentQuote } from "../types";
import { bazaarExtension, type BazaarForm } from "./bazaar";
import { mapRevert, shortError, UnavailableError } from "./errors";
import { facilitatorCall } from "./facilitator";
import { chainIdOf, knownNetwork } from "./networks";
import { type ParsedPayment, type PaymentRequired, type PaymentRequirements, type SettleResponse } from "./types";
import { matchRequirement, verifyOffline, type Rejection } from "./verify";

export type X402NetworkOptions = {
  /** CAIP-2 id, e.g. "eip155:84532". */
  network: string;
  /** Token contract; defaults to the network's USDC. */
  asset?: Address;
  payTo: Address;
  /** JSON-RPC endpoint; null disables on-chain reads (then the domain must be known or given). */
  rpcUrl: string | null;
  /** EIP-712 domain and decimals; read from the token when omitted. */
  token?: { name: string; version: string; decimals: number };
};

export type X402Settlement =
  | { mode: "self"; settlerKey: Hex }
  | { mode: "facilitator"; url: string; headers?: Record<string, string> };

export type X402Options = {
  networks: X402NetworkOptions[];
  settlement: X402Settlement;
  maxTimeoutSeconds?: number;
  /** Bound for settlement (facilitator call or receipt wait). */
  settleTimeoutMs?: number;
  fetch?: typeof fetch;
  logger?: PaymentLogger;
  /** How often to poll for a settlement receipt (default 1 s). */
  pollingIntervalMs?: number;
  /** Test hook: the viem transport for an RPC URL. */
  transport?: (rpcUrl: string) => Transport;
};

type TokenInfo = { name: string; version: string; decimals: number };

type NetworkRuntime = {
  opts: X402NetworkOptions;
  target: ChainTarget;
  asset: Address;
  payTo: Address;
  /** The token's EIP-712 domain as known now: configured, from the built-in table, or read from the chain. */
  token: TokenInfo | null;
  tokenSource: "configured" | "table" | "chain" | null;
  /** The chain read of the domain: at most one for a token with a known domain; one at a time otherwise. */
  lookup: Promise<TokenInfo> | null;
};

export type Verified = {
  ok: true;
  requirement: PaymentRequirements;
  payer: Address;
  signature: Hex;
  vrs: { v: number; r: Hex; s: Hex } | null;
};

export class X402Rail {
  readonly maxTimeoutSeconds: number;
  private readonly runtimes: NetworkRuntime[];
  private readonly log: PaymentLogger;
  private readonly fetchImpl: typeof fetch;
  private chainLinks: Promise<ChainLinks> | null = null;

  constructor(private readonly opts: X402Options) {
    if (opts.networks.length === 0) throw new Error("x402 needs at least one network");
    this.maxTimeoutSeconds = opts.maxTimeoutSeconds ?? 300;
    this.log = opts.logger ?? silentLogger;
    this.fetchImpl = opts.fetch ?? fetch;
    // A malformed settler key stops the start here, not at the first settlement.
    if (opts.settlement.mode === "self") addressOfPrivateKey(opts.settlement.settlerKey);
    this.runtimes = opts.networks.map((n) => {
      const known = knownNetwork(n.network);
      const asset = checksumAddress(n.asset ?? known?.usdc?.address ?? "0x");
      const usdc = known?.usdc && known.usdc.address === asset ? known.usdc : null;
      const token: TokenInfo | null =
        n.token ?? (usdc ? { name: usdc.name, version: usdc.version, decimals: usdc.decimals } : null);
      const tokenSource = n.token ? "configured" : usdc ? "table" : null;
      const target: ChainTarget = { network: n.network, chainId: chainIdOf(n.network), asset, rpcUrl: n.rpcUrl };
      return {
        opts: n,
        target,
        asset,
        payTo: checksumAddress(n.payTo),
        token,
        tokenSource,
        lookup: null,
      } satisfies NetworkRuntime;
    });
    if (opts.settlement.mode === "self") {
      const missing = this.runtimes.filter((r) => !r.opts.rpcUrl).map((r) => r.opts.network);
      if (missing.length) throw new Error(`self settlement needs an RPC URL for ${missing.join(", ")}`);
    }
  }

  /** The rail's chain clients (chain.ts), made at its first chain access. */
  private chain(): Promise<ChainLinks> {
    const { settlement, transport, pollingIntervalMs } = this.opts;
    this.chainLinks ??= import("./chain").then(
      (m) =>
        new m.ChainLinks({
          settlerKey: settlement.mode === "self" ? settlement.settlerKey : null,
          transport,
          pollingIntervalMs,
        }),
    );
    return this.chainLinks;
  }

  get networks(): string[] {
    return this.runtimes.map((r) => r.opts.network);
  }

  /**
   * The token's name/version/decimals. A configured domain, or the built-in table's for a known asset (USDC on known
   * networks), is final: the chain is never asked, so a start without network access neither waits nor warns. Only an
   * asset nobody knows is read from its contract: a challenge waits for the one read in flight, and a failed read is
   * an UnavailableError (the rail cannot be offered for that network) retried by the next request.
   */
  private tokenInfo(rt: NetworkRuntime): Promise<TokenInfo> {
    return rt.token ? Promise.resolve(rt.token) : this.lookupToken(rt);
  }

  private lookupToken(rt: NetworkRuntime): Promise<TokenInfo> {
    if (rt.token) return Promise.resolve(rt.token);
    if (rt.lookup) return rt.lookup;
    if (!rt.opts.rpcUrl)
      return Promise.reject(
        new UnavailableError(
          `the EIP-712 domain of ${rt.asset} on ${rt.opts.network} is unknown and no RPC URL is configured`,
        ),
      );
    const lookup = (async (): Promise<TokenInfo> => {
      try {
        const token = await withTimeout(
          this.chain().then((chain) => chain.tokenDomain(rt.target)),
          DOMAIN_READ_TIMEOUT_MS,
        );
        rt.token = token;
        rt.tokenSource = "chain";
        return token;
      } catch (e) {
        this.log.warn("x402: could not read the token's EIP-712 domain from the chain", {
          network: rt.opts.network,
          asset: rt.asset,
          error: shortError(e),
        });
        throw new UnavailableError(
          `the EIP-712 domain of ${rt.asset} on ${rt.opts.network} is unknown and the chain is unreachable`,
        );
      }
    })();
    rt.lookup = lookup;
    lookup.catch(() => (rt.lookup = null));
    return lookup;
  }

  /**
   * Reads, at start and in the background, the domains of assets the table does not know (the caller need not wait).
   * Resolves when they have finished, successfully or not.
   */
  async prepare(): Promise<void> {
    await Promise.all(this.runtimes.map((rt) => this.lookupToken(rt).catch(() => undefined)));
  }

  /** One `exact` requirement per network whose token is known; identical for identical quotes. */
  async requirements(quote: PaymentQuote): Promise<PaymentRequirements[]> {
    const out: PaymentRequirements[] = [];
    for (const rt of this.runtimes) {
      let token: TokenInfo;
      try {
        token = await this.tokenInfo(rt);
      } catch (e) {
        this.log.warn("x402: network left out of the challenge", { network: rt.opts.network, error: String(e) });
        continue;
      }
      out.push({
        scheme: "exact",
        network: rt.opts.network,
        amount: atomicAmount(quote.microUsd, token.decimals).toString(),
        asset: rt.asset,
        payTo: rt.payTo,
        maxTimeoutSeconds: this.maxTimeoutSeconds,
        extra: { name: token.name, version: token.version },
      });
    }
    return out;
  }

  /**
   * The challenge in its two forms, identical but for the bazaar extension: `body` describes the route in full
   * (the 402 body, read by v1-style clients and people); `header` carries its compact form (PAYMENT-REQUIRED, which
   * must stay small for proxies). Both share the one `accepts` list, so a client paying from either matches.
   */
  async paymentRequired(
    quote: PaymentQuote,
    error?: string,
  ): Promise<{ header: PaymentRequired; body: PaymentRequired }> {
    const accepts = await this.requirements(quote);
    const form = (f: BazaarForm): PaymentRequired => ({
      x402Version: 2,
      ...(error ? { error } : {}),
      resource: { url: quote.resource.url, description: quote.resource.description, mimeType: quote.resource.mimeType },
      accepts,
      ...(quote.discovery ? { extensions: { bazaar: bazaarExtension(quote.discovery, f) } } : {}),
    });
    return { header: form("compact"), body: form("full") };
  }

  /** Offline checks, then the chain's view (nonce unused, balance, a simulated transfer), then the facilitator's. */
  async verify(payment: ParsedPayment, quote: PaymentQuote, now: Date): Promise<Verified | Rejection> {
    const requirements = await this.requirements(quote);
    const req = matchRequirement(payment, requirements);
    if ("ok" in req) return req;
    const offline = await verifyOffline(payment, req, BigInt(Math.floor(now.getTime() / 1000)));
    if (!offline.ok) return offline;
    const rt = this.runtimes.find((r) => r.opts.network === req.network)!;
    if (rt.opts.rpcUrl) {
      const onChain = await this.checkOnChain(rt, payment, offline.signature, offline.vrs);
      if (onChain) return onChain;
    }
    if (this.opts.settlement.mode === "facilitator") {
      const v = await this.facilitatorCall<{ isValid?: boolean; invalidReason?: string; invalidMessage?: string }>(
        "verify",
        payment,
        req,
        offline.signature,
      );
      if (v.isValid !== true) {
        return {
          ok: false,
          reason: String(v.invalidReason ?? "facilitator_rejected"),
          message: "The facilitator rejected the payment.",
        };
      }
    }
    return { ok: true, requirement: req, payer: offline.payer, signature: offline.signature, vrs: offline.vrs };
  }

  private async checkOnChain(
    rt: NetworkRuntime,
    payment: ParsedPayment,
    signature: Hex,
    vrs: Verified["vrs"],
  ): Promise<Rejection | null> {
    const check = await (await this.chain()).check(rt.target, payment, { signature, vrs });
    switch (check.kind) {
      case "ok":
        return null;
      case "unreachable":
        throw new UnavailableError(`chain ${rt.opts.network} unreachable: ${shortError(check.error)}`);
      case "nonce used":
        return {
          ok: false,
          reason: "invalid_exact_evm_nonce_already_used",
          message: "This authorization's nonce has already been used on chain.",
        };
      case "balance too low":
        return {
          ok: false,
          reason: "invalid_exact_evm_insufficient_balance",
          message: "The payer's token balance is too low.",
        };
      case "simulation failed":
        this.log.warn("x402: simulation of the transfer failed", {
          network: rt.opts.network,
          error: shortError(check.error),
        });
        return {
          ok: false,
          reason: "invalid_exact_evm_transaction_simulation_failed",
          message: "The transfer would fail on chain.",
        };
    }
  }

  /** Settles a verified payment. Never throws: failures come back as success:false with a short reason. */
  async settle(payment: ParsedPayment, v: Verified): Promise<SettleResponse> {
    const base = { network: v.requirement.network, payer: v.payer };
    try {
      if (this.opts.settlement.mode === "facilitator") {
        const r = await this.facilitatorCall<{ success?: boolean; transaction?: string; errorReason?: string }>(
          "settle",
          payment,
          v.requirement,
          v.signature,
        );
        return r.success === true
          ? { success: true, transaction: String(r.transaction ?? ""), ...base }
          : { success: false, transaction: "", errorReason: String(r.errorReason ?? "settlement_failed"), ...base };
      }
      return await this.settleSelf(payment, v);
    } catch (e) {
      this.log.error("x402: settlement failed", { network: v.requirement.network, error: shortError(e) });
      return { success: false, transaction: "", errorReason: mapRevert(e), ...base };
    }
  }

  private async settleSelf(payment: ParsedPayment, v: Verified): Promise<SettleResponse> {
    const rt = this.runtimes.find((r) => r.opts.network === v.requirement.network)!;
    return (await this.chain()).settle(rt.target, payment, v, this.opts.settleTimeoutMs ?? 60_000);
  }

  /** POST {url}/verify or /settle through the configured facilitator. */
  private facilitatorCall<T>(
    path: "verify" | "settle",
    payment: ParsedPayment,
    req: PaymentRequirements,
    signature: Hex,
  ): Promise<T> {
    const s = this.opts.settlement as Extract<X402Settlement, { mode: "facilitator" }>;
    const link = {
      url: s.url,
      headers: s.headers,
      fetch: this.fetchImpl,
      timeoutMs: this.opts.settleTimeoutMs ?? 60_000,
    };
    return facilitatorCall<T>(link, path, payment, req, signature);
  }
}

/** Bound for a token-domain read (only a token missing from the built-in table is ever waited for). */
const DOMAIN_READ_TIMEOUT_MS = 3000;

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms))),
  ]).finally(() => clearTimeout(timer));
}

/** micro-USD to the token's atomic units (USDC has 6 decimals: one to one); fewer decimals round up. */
export function atomicAmount(microUsd: number, decimals: number): bigint {
  const m = BigInt(microUsd);
  if (decimals >= 6) return m * 10n ** BigInt(decimals - 6);
  const d = 10n ** BigInt(6 - decimals);
  return (m + d - 1n) / d;
}

export function encodeSettleHeader(r: SettleResponse): string {
  return encodeBase64Json(r);
}
