// The framework-free payment gate. For one request and its quote it decides:
//   - "granted": a verified proof, reserved in the store before the handler runs (so it serves one request only);
//     the host runs the handler, then calls settle() when it answered below 400 or release() otherwise;
//   - "challenge": 402 with both rails (x402 PaymentRequired + L402 WWW-Authenticate), with a reason after a refused proof;
//   - "malformed": the payment header cannot be read (400);
//   - "unavailable": nothing could be verified or offered right now (chain, facilitator or invoice backend down).
// The x402 header wins when a request carries both kinds of proof.
import { encodeBase64Json, sha256Hex } from "./encoding";
import type { Credential } from "./l402/header";
import type { L402Challenge, L402Rail } from "./l402/rail";
import {
  silentLogger,
  type Clock,
  type PaymentLogger,
  type PaymentQuote,
  type PaymentRequest,
  type ProofStore,
  type Rail,
} from "./types";
import { UnavailableError } from "./x402/errors";
import { parsePaymentHeader } from "./x402/payload";
import type { X402Rail } from "./x402/rail";
import type { PaymentRequired, SettleResponse } from "./x402/types";

export type Challenge = {
  kind: "challenge";
  /** Short machine reason after a refused proof (x402 reason strings, or l402_*). */
  reason: string | null;
  message: string;
  /**
   * The x402 PaymentRequired with the full bazaar description, for the body. `headers["PAYMENT-REQUIRED"]` carries
   * the same object with the compact bazaar form (same `accepts`), to keep response headers small.
   */
  paymentRequired: PaymentRequired | null;
  l402: L402Challenge | null;
  headers: Record<string, string>;
};

export type SettleOutcome =
  | { ok: true; headers: Record<string, string> }
  | { ok: false; reason: string; headers: Record<string, string> };

export type Granted = {
  kind: "granted";
  rail: Rail;
  payer: string | null;
  settle(): Promise<SettleOutcome>;
  release(): Promise<void>;
};

export type Decision =
  | Granted
  | Challenge
  | { kind: "malformed"; message: string }
  | { kind: "unavailable"; message: string };

export type PaymentsOptions = {
  x402?: X402Rail | null;
  l402?: L402Rail | null;
  store: ProofStore;
  clock: Clock;
  logger?: PaymentLogger;
  /** How long a reservation holds if the process dies mid-request. */
  leaseSeconds?: number;
};

export const PAYMENT_HEADERS = [
  "PAYMENT-REQUIRED",
  "PAYMENT-RESPONSE",
  "X-PAYMENT-RESPONSE",
  "WWW-Authenticate",
] as const;

export class Payments {
  private readonly log: PaymentLogger;
  constructor(private readonly opts: PaymentsOptions) {
    this.log = opts.logger ?? silentLogger;
  }

  /** Warms up what the first challenge needs (the x402 tokens' EIP-712 domains). */
  prepare(): Promise<void> {
    return this.opts.x402?.prepare() ?? Promise.resolve();
  }

  get rails(): Rail[] {
    return [...(this.opts.x402 ? (["x402"] as const) : []), ...(this.opts.l402 ? (["l402"] as const) : [])];
  }

  async authorize(req: PaymentRequest, quote: PaymentQuote): Promise<Decision> {
    const x402Header = req.header("payment-signature") ?? req.header("x-payment");
    if (x402Header !== undefined && this.opts.x402)
      return this.authorizeX402(
        x402Header,
        req.header("payment-signature") !== undefined ? "PAYMENT-SIGNATURE" : "X-PAYMENT",
        quote,
      );
    if (this.opts.l402) {
      const creds = this.opts.l402.parse(req.header("authorization"));
      if (creds === "malformed") {
        return {
          kind: "malformed",
          message: "Malformed L402 credential: expected 'Authorization: L402 <base64 macaroon>:<64 hex preimage>'.",
        };
      }
      if (creds) return this.authorizeL402(creds, req.header("authorization")!, quote);
    }
    return this.challenge(
      quote,
      null,
      "Payment required: pay with x402 (PAYMENT-SIGNATURE or X-PAYMENT) or L402 (Authorization), or use an API key.",
    );
  }

  /** Both rails' challenges; a rail that cannot offer one right now is left out (and logged). */
  async challenge(
    quote: PaymentQuote,
    reason: string | null,
    message: string,
  ): Promise<Challenge | { kind: "unavailable"; message: string }> {
    const [x, l] = await Promise.all([
      this.opts.x402
        ? this.opts.x402
            .paymentRequired(quote, reason ?? "Payment required")
            .catch((e) => (this.log.error("x402 challenge failed", { error: String(e) }), null))
        : null,
      this.opts.l402
        ? this.opts.l402
            .challenge(quote)
            .catch((e) => (this.log.error("l402 challenge failed", { error: String(e) }), null))
        : null,
    ]);
    const offer = x && x.body.accepts.length ? x : null;
    const paymentRequired = offer?.body ?? null;
    if (!paymentRequired && !l)
      return {
        kind: "unavailable",
        message: "No payment method is available right now; retry shortly or use an API key.",
      };
    const headers: Record<string, string> = { "Cache-Control": "no-store" };
    if (offer) headers["PAYMENT-REQUIRED"] = encodeBase64Json(offer.header);
    if (l) headers["WWW-Authenticate"] = l.header;
    return { kind: "challenge", reason, message, paymentRequired, l402: l, headers };
  }

  private async authorizeX402(header: string, headerName: string, quote: PaymentQuote): Promise<Decision> {
    const x402 = this.opts.x402!;
    const parsed = parsePaymentHeader(header, headerName);
    if (!parsed.ok) return { kind: "malformed", message: parsed.message };
    const payment = parsed.payment;
    const now = this.opts.clock.now();
    let verified;
    try {
      verified = await x402.verify(payment, quote, now);
    } catch (e) {
      if (e instanceof UnavailableError)
        return { kind: "unavailable", message: "The payment could not be verified right now; retry shortly." };
      throw e;
    }
    if (!verified.ok) return this.challenge(quote, verified.reason, `Payment refused: ${verified.message}`);
    const a = payment.authorization;
    const req = verified.requirement;
    const id = await this.opts.store.reserve(
      {
        rail: "x402",
        proofKey: `${req.network}:${req.asset}:${a.from}:${a.nonce}`.toLowerCase(),
        payer: a.from,
        network: req.network,
        asset: req.asset,
        amount: a.value.toString(),
        microUsd: quote.microUsd,
        binding: quote.binding.value,
        resource: quote.resource.path,
        label: quote.label,
        credentialHash: sha256Hex(header),
        detail: {
          x402Version: payment.version,
          authorization: {
            ...a,
            value: a.value.toString(),
            validAfter: a.validAfter.toString(),
            validBefore: a.validBefore.toString(),
          },
          signature: verified.signature,
        },
      },
      now,
      this.leaseUntil(now),
    );
    if (!id)
      return this.challenge(
        quote,
        "invalid_exact_evm_nonce_already_used",
        "Payment refused: this authorization has already been used.",
      );
    const responseHeaders = (r: SettleResponse): Record<string, string> => {
      const v = encodeBase64Json(r);
      return payment.version === 1 ? { "PAYMENT-RESPONSE": v, "X-PAYMENT-RESPONSE": v } : { "PAYMENT-RESPONSE": v };
    };
    return {
      kind: "granted",
      rail: "x402",
      payer: a.from,
      settle: async () => {
        const r = await x402.settle(payment, verified);
        const at = this.opts.clock.now();
        await this.opts.store
          .finish(
            id,
            r.success
              ? { status: "settled", reference: r.transaction || null }
              : { status: "failed", reason: r.errorReason ?? "settlement_failed" },
            at,
          )
          .catch((e) => this.log.error("x402: could not record settlement", { id, error: String(e) }));
        if (r.success) return { ok: true, headers: { ...responseHeaders(r), "Cache-Control": "private" } };
        return { ok: false, reason: r.errorReason ?? "settlement_failed", headers: responseHeaders(r) };
      },
      release: () => this.opts.store.finish(id, { status: "released" }, this.opts.clock.now()),
    };
  }

  private async authorizeL402(creds: Credential[], header: string, quote: PaymentQuote): Promise<Decision> {
    const now = this.opts.clock.now();
    const v = this.opts.l402!.verify(creds, quote, now);
    if (!v.ok) {
      if (v.reason === "malformed") return { kind: "malformed", message: `Malformed L402 credential: ${v.message}` };
      return this.challenge(quote, `l402_${v.reason}`, `L402 token refused: ${v.message} Pay the new invoice below.`);
    }
    const id = await this.opts.store.reserve(
      {
        rail: "l402",
        proofKey: v.paymentHash,
        payer: null,
        network: null,
        asset: null,
        amount: "",
        microUsd: quote.microUsd,
        binding: quote.binding.value,
        resource: quote.resource.path,
        label: quote.label,
        // The macaroon with its preimage is a bearer credential: only its hash is kept.
        credentialHash: sha256Hex(header),
        detail: {
          scheme: v.credential.scheme,
          tokenId: v.tokenId,
          caveats: v.caveats.filter((c) => !c.startsWith("preimage=")),
        },
      },
      now,
      this.leaseUntil(now),
    );
    if (!id)
      return this.challenge(
        quote,
        "l402_already_used",
        "L402 token refused: this payment has already been used. Pay the new invoice below.",
      );
    return {
      kind: "granted",
      rail: "l402",
      payer: null,
      settle: async () => {
        // The reservation already makes the payment single-use; recording it cannot un-serve the data.
        await this.opts.store
          .finish(id, { status: "settled", reference: v.tokenId }, this.opts.clock.now())
          .catch((e) => this.log.error("l402: could not record consumption", { id, error: String(e) }));
        return { ok: true, headers: { "Cache-Control": "private" } };
      },
      release: () => this.opts.store.finish(id, { status: "released" }, this.opts.clock.now()),
    };
  }

  private leaseUntil(now: Date): Date {
    return new Date(now.getTime() + (this.opts.leaseSeconds ?? 600) * 1000);
  }
}
