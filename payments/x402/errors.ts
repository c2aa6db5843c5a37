// How the x402 rail's failures are told apart and reported: an unavailable rail (retried, not the payer's fault) and
// short, stable reasons for chain and facilitator failures.

/** The rail cannot be offered or used right now (chain or facilitator unreachable, token domain unknown). */
export class UnavailableError extends Error {}

/** The first line of an error's message, bounded (viem's shortMessage when it has one). */
export function shortError(e: unknown): string {
  const msg = (e as { shortMessage?: string })?.shortMessage ?? (e as Error)?.message ?? String(e);
  return msg.split("\n")[0].slice(0, 200);
}

/** Maps a revert/RPC failure to a short, stable reason (no RPC dump leaves the service). */
export function mapRevert(e: unknown): string {
  const text = `${(e as Error)?.message ?? ""} ${(e as { details?: string })?.details ?? ""}`.toLowerCase();
  if (/authorization is (used|expired|not yet valid)|used or canceled/.test(text))
    return "invalid_exact_evm_nonce_already_used";
  if (/exceeds balance|insufficient/.test(text)) return "invalid_exact_evm_insufficient_balance";
  if (/invalid signature/.test(text)) return "invalid_exact_evm_signature";
  if (/timed? ?out|timeout/.test(text)) return "settlement_timeout";
  if (/fetch failed|econnrefused|unable to connect|facilitator .* answered/.test(text)) return "settlement_unavailable";
  return "invalid_exact_evm_transaction_failed";
}
