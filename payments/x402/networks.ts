// Known EVM networks and their USDC: CAIP-2 id, v1 name, default public RPC, token address and EIP-712 domain.
// The domain (name/version) is read from the token contract when the RPC answers; this table is the fallback
// (sources: @x402/evm defaultAssets and Circle's deployments; see shared/research/x402.md §2.1).
import type { Address } from "viem";
import { addressOfPrivateKey, checksumAddress, newPrivateKey } from "./address";

export type KnownNetwork = {
  network: string;
  chainId: number;
  v1Name: string;
  defaultRpcUrl: string | null;
  usdc: { address: Address; name: string; version: string; decimals: number } | null;
};

export const KNOWN_NETWORKS: KnownNetwork[] = [
  {
    network: "eip155:8453",
    chainId: 8453,
    v1Name: "base",
    defaultRpcUrl: "https://mainnet.base.org",
    usdc: {
      address: checksumAddress("0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"),
      name: "USD Coin",
      version: "2",
      decimals: 6,
    },
  },
  {
    network: "eip155:84532",
    chainId: 84532,
    v1Name: "base-sepolia",
    defaultRpcUrl: "https://sepolia.base.org",
    usdc: {
      address: checksumAddress("0x036CbD53842c5426634e7929541eC2318f3dCF7e"),
      name: "USDC",
      version: "2",
      decimals: 6,
    },
  },
];

export const CAIP2_EVM = /^eip155:([1-9][0-9]{0,18})$/;

export function chainIdOf(network: string): number {
  const m = CAIP2_EVM.exec(network);
  if (!m) throw new Error(`not an EVM CAIP-2 network id: ${network}`);
  return Number(m[1]);
}

export function knownNetwork(network: string): KnownNetwork | undefined {
  return KNOWN_NETWORKS.find((n) => n.network === network);
}

/** v1 payloads name networks ("base-sepolia"); v2 uses CAIP-2. Either maps to CAIP-2, or null. */
export function toCaip2(name: string): string | null {
  if (CAIP2_EVM.test(name)) return name;
  return KNOWN_NETWORKS.find((n) => n.v1Name === name)?.network ?? null;
}

export function v1NameOf(network: string): string {
  return knownNetwork(network)?.v1Name ?? network;
}

/** A fresh EVM key pair (a development pay-to address). */
export function newEvmKey(): { privateKey: `0x${string}`; address: `0x${string}` } {
  const privateKey = newPrivateKey();
  return { privateKey, address: addressOfPrivateKey(privateKey) };
}
