// Offline checks of an EIP-3009 TransferWithAuthorization against our own requirement, cheapest first:
// requirement match, recipient, exact amount, time window, then the EIP-712 signature (with `v` normalised
// to 27/28 and high-s rejected, as FiatToken's ECRecover would). On-chain state (nonce, balance) is checked
// by simulation in rail.ts. Reason strings follow the reference facilitator (@x402/evm 2.27).
import type { Hex } from "viem";
import { sameAddress } from "./address";
import { chainIdOf } from "./networks";
import { EIP3009_TYPES, type ParsedPayment, type PaymentRequirements } from "./types";

export type Rejection = { ok: false; reason: string; message: string };

const SECP256K1_HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;

/** The clock rule of the reference facilitator: validBefore must leave 6 s for a block. */
export const VALID_BEFORE_MARGIN_SECONDS = 6n;
/** How far past now + maxTimeoutSeconds a validBefore may lie (clients' clocks differ a little from ours). */
export const CLOCK_SKEW_SECONDS = 60n;

/** Finds which of our freshly built requirements the payment is for (v2: deep match of `accepted`). */
export function matchRequirement(
  payment: ParsedPayment,
  requirements: PaymentRequirements[],
): PaymentRequirements | Rejection {
  if (payment.scheme !== "exact")
    return {
      ok: false,
      reason: "invalid_exact_evm_scheme",
      message: `Unsupported scheme '${payment.scheme}': only 'exact' is accepted.`,
    };
  const sameNetwork = requirements.filter((r) => r.network === payment.network);
  if (sameNetwork.length === 0) {
    return {
      ok: false,
      reason: "invalid_exact_evm_network_mismatch",
      message: `Network '${payment.network}' is not accepted here.`,
    };
  }
  if (payment.version === 1) return sameNetwork[0];
  const a = payment.accepted!;
  const found = sameNetwork.find((r) => {
    if (a.amount !== r.amount || a.maxTimeoutSeconds !== r.maxTimeoutSeconds) return false;
    if (!sameAddress(a.asset, r.asset) || !sameAddress(a.payTo, r.payTo)) return false;
    const extra = a.extra as Record<string, unknown> | undefined;
    return !!extra && Object.entries(r.extra).every(([k, v]) => extra[k] === v);
  });
  return (
    found ?? {
      ok: false,
      reason: "no_matching_requirements",
      message:
        "The payment's `accepted` requirement does not match what this request costs; fetch a fresh 402 challenge.",
    }
  );
}

/** 65-byte ECDSA signatures with v normalised to 27/28; other lengths (smart wallets) pass through untouched. */
export function normaliseSignature(
  signature: Hex,
): { signature: Hex; v: number; r: Hex; s: Hex } | { signature: Hex; v: null } | null {
  // Hex digits after 0x: r is 64, s is 64, v is 2 (the payload parser checked it is hex of even length).
  if (signature.length !== 2 + 130) return { signature, v: null };
  const r = `0x${signature.slice(2, 66)}` as Hex;
  const s = `0x${signature.slice(66, 130)}` as Hex;
  let v = parseInt(signature.slice(130, 132), 16);
  if (v === 0 || v === 1) v += 27;
  if (v !== 27 && v !== 28) return null;
  if (BigInt(s) > SECP256K1_HALF_N) return null;
  return { signature: `${r}${s.slice(2)}${v.toString(16)}` as Hex, v, r, s };
}

export type OfflineOk = { ok: true; payer: `0x${string}`; signature: Hex; vrs: { v: number; r: Hex; s: Hex } | null };

export async function verifyOffline(
  payment: ParsedPayment,
  req: PaymentRequirements,
  nowSeconds: bigint,
): Promise<OfflineOk | Rejection> {
  const a = payment.authorization;
  if (!sameAddress(a.to, req.payTo))
    return {
      ok: false,
      reason: "invalid_exact_evm_recipient_mismatch",
      message: "The authorization pays a different recipient.",
    };
  if (a.value !== BigInt(req.amount)) {
    return {
      ok: false,
      reason: "invalid_exact_evm_payload_authorization_value_mismatch",
      message: `The authorization's value must be exactly ${req.amount}.`,
    };
  }
  if (a.validBefore < nowSeconds + VALID_BEFORE_MARGIN_SECONDS) {
    return {
      ok: false,
      reason: "invalid_exact_evm_payload_authorization_valid_before",
      message: "The authorization has expired (or expires within seconds).",
    };
  }
  // An authorization valid for far longer than the requirement allows (2^255 s) is a standing cheque: anyone holding
  // it could settle it long after this request. The reference client signs now + maxTimeoutSeconds; a minute's
  // clock difference is let through.
  if (a.validBefore > nowSeconds + BigInt(req.maxTimeoutSeconds) + CLOCK_SKEW_SECONDS) {
    return {
      ok: false,
      reason: "invalid_exact_evm_payload_authorization_valid_before",
      message: `The authorization is valid for longer than this payment allows: validBefore must be at most ${req.maxTimeoutSeconds} s from now.`,
    };
  }
  if (a.validAfter > nowSeconds)
    return {
      ok: false,
      reason: "invalid_exact_evm_payload_authorization_valid_after",
      message: "The authorization is not valid yet.",
    };

  const norm = normaliseSignature(payment.signature);
  if (!norm)
    return { ok: false, reason: "invalid_exact_evm_signature", message: "The signature's v or s value is invalid." };
  if (norm.v === null) {
    // Not a plain ECDSA signature: only the chain (ERC-1271) can judge it; rail.ts simulates it.
    return { ok: true, payer: a.from, signature: norm.signature, vrs: null };
  }
  const domain = {
    name: req.extra.name,
    version: req.extra.version,
    chainId: chainIdOf(req.network),
    verifyingContract: req.asset,
  };
  // The chain library, loaded by the first signature to check (address.ts).
  const { recoverTypedDataAddress } = await import("viem");
  let signer: string;
  try {
    signer = await recoverTypedDataAddress({
      domain,
      types: EIP3009_TYPES,
      primaryType: "TransferWithAuthorization",
      message: {
        from: a.from,
        to: a.to,
        value: a.value,
        validAfter: a.validAfter,
        validBefore: a.validBefore,
        nonce: a.nonce,
      },
      signature: norm.signature,
    });
  } catch {
    return { ok: false, reason: "invalid_exact_evm_signature", message: "The signature cannot be recovered." };
  }
  if (!sameAddress(signer, a.from)) {
    return {
      ok: false,
      reason: "invalid_exact_evm_signature",
      message: "The signature was not made by the authorization's `from` over these values.",
    };
  }
  return { ok: true, payer: a.from, signature: norm.signature, vrs: { v: norm.v, r: norm.r, s: norm.s } };
}
