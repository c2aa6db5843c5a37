// What an x402 rail does on a chain, through viem: read a token's EIP-712 domain, check a payment against the chain's
// state (nonce, balance, a simulated transfer) and settle it. Loaded by a rail's first chain access, not at start
// (address.ts says why). One ChainLinks per rail: its clients, and its settler with a nonce manager of its own.
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  parseEventLogs,
  type Chain,
  type PublicClient,
  type Transport,
} from "viem";
import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { createNonceManager, jsonRpc } from "viem/nonce";
import { sameAddress } from "./address";
import { EIP3009_ABI, type ParsedPayment, type SettleResponse } from "./types";
import type { Address, Hex } from "viem";

/** The settler's key (self settlement, else null), and the rail's test hooks. */
export type ChainOptions = {
  settlerKey: Hex | null;
  transport?: (rpcUrl: string) => Transport;
  pollingIntervalMs?: number;
};

/** A payment's signature as verified: with v, r and s when it is a plain ECDSA signature. */
export type Signed = { signature: Hex; vrs: { v: number; r: Hex; s: Hex } | null };

/** A network of the rail as the chain sees it: its id, token and RPC URL (null: no chain reads). */
export type ChainTarget = { network: string; chainId: number; asset: Address; rpcUrl: string | null };

export type ChainCheck =
  | { kind: "ok" }
  | { kind: "unreachable"; error: unknown }
  | { kind: "nonce used" }
  | { kind: "balance too low" }
  | { kind: "simulation failed"; error: unknown };

type Link = { chain: Chain; client: PublicClient; transport: () => Transport };

export class ChainLinks {
  // Bounded: one link per configured network.
  private readonly links = new Map<string, Link>();
  private readonly settler: PrivateKeyAccount | null;

  constructor(private readonly opts: ChainOptions) {
    // A nonce manager of this rail's own: viem's shared one remembers the last nonce per (address, chain id) for the
    // whole process, so a second rail on a fresh chain with the same id and key would skip nonces.
    this.settler = opts.settlerKey
      ? privateKeyToAccount(opts.settlerKey, { nonceManager: createNonceManager({ source: jsonRpc() }) })
      : null;
  }

  private link(t: ChainTarget): Link {
    let link = this.links.get(t.network);
    if (!link) {
      const rpcUrl = t.rpcUrl!;
      const chain = defineChain({
        id: t.chainId,
        name: t.network,
        nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
        rpcUrls: { default: { http: [rpcUrl] } },
      });
      const transport = () => this.opts.transport?.(rpcUrl) ?? http(rpcUrl, { timeout: 10_000, retryCount: 1 });
      const client = createPublicClient({
        chain,
        transport: transport(),
        pollingInterval: this.opts.pollingIntervalMs ?? 1000,
      }) as PublicClient;
      link = { chain, client, transport };
      this.links.set(t.network, link);
    }
    return link;
  }

  /** The token's name, version and decimals read from its contract. */
  async tokenDomain(t: ChainTarget): Promise<{ name: string; version: string; decimals: number }> {
    const client = this.link(t).client;
    const [name, version, decimals] = await Promise.all(
      (["name", "version", "decimals"] as const).map((fn) =>
        client.readContract({ address: t.asset, abi: EIP3009_ABI, functionName: fn }),
      ),
    );
    return { name: String(name), version: String(version), decimals: Number(decimals) };
  }

  /** The chain's view of a payment, before it is settled: its nonce unused, the balance enough, the transfer simulated. */
  async check(t: ChainTarget, payment: ParsedPayment, signed: Signed): Promise<ChainCheck> {
    const a = payment.authorization;
    const client = this.link(t).client;
    let used: boolean;
    let balance: bigint;
    try {
      [used, balance] = await Promise.all([
        client.readContract({
          address: t.asset,
          abi: EIP3009_ABI,
          functionName: "authorizationState",
          args: [a.from, a.nonce],
        }),
        client.readContract({ address: t.asset, abi: EIP3009_ABI, functionName: "balanceOf", args: [a.from] }),
      ]);
    } catch (error) {
      return { kind: "unreachable", error };
    }
    if (used) return { kind: "nonce used" };
    if (balance < a.value) return { kind: "balance too low" };
    try {
      await client.simulateContract({
        address: t.asset,
        abi: EIP3009_ABI,
        functionName: "transferWithAuthorization",
        args: transferArgs(payment, signed),
        account: this.settler?.address,
      });
    } catch (error) {
      return { kind: "simulation failed", error };
    }
    return { kind: "ok" };
  }

  /** Sends the transfer from the settler's account and waits for its receipt; throws what viem throws. */
  async settle(
    t: ChainTarget,
    payment: ParsedPayment,
    signed: Signed & { payer: Address },
    timeoutMs: number,
  ): Promise<SettleResponse> {
    const link = this.link(t);
    const a = payment.authorization;
    const wallet = createWalletClient({ account: this.settler!, chain: link.chain, transport: link.transport() });
    const hash = await wallet.writeContract({
      address: t.asset,
      abi: EIP3009_ABI,
      functionName: "transferWithAuthorization",
      args: transferArgs(payment, signed),
    });
    const receipt = await link.client.waitForTransactionReceipt({ hash, timeout: timeoutMs });
    const base = { network: t.network, payer: signed.payer };
    if (receipt.status !== "success")
      return { success: false, transaction: hash, errorReason: "invalid_exact_evm_transaction_failed", ...base };
    const transfers = parseEventLogs({ abi: EIP3009_ABI, eventName: "Transfer", logs: receipt.logs });
    const paid = transfers.some(
      (l) =>
        sameAddress(l.address, t.asset) &&
        sameAddress(l.args.from, a.from) &&
        sameAddress(l.args.to, a.to) &&
        l.args.value === a.value,
    );
    if (!paid)
      return { success: false, transaction: hash, errorReason: "invalid_exact_evm_transfer_event_mismatch", ...base };
    return { success: true, transaction: hash, ...base };
  }
}

function transferArgs(payment: ParsedPayment, { signature, vrs }: Signed) {
  const a = payment.authorization;
  return vrs
    ? ([a.from, a.to, a.value, a.validAfter, a.validBefore, a.nonce, vrs.v, vrs.r, vrs.s] as const)
    : ([a.from, a.to, a.value, a.validAfter, a.validBefore, a.nonce, signature] as const);
}
