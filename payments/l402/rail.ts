// The L402 rail: a challenge is a fresh invoice from the backend (USD converted to sats at the current rate, rounded
// up, locked into the invoice) plus a macaroon bound to what the request buys, expiring `ttlSeconds` after issuance.
import { fromHex } from "../encoding";
import { silentLogger, type Clock, type PaymentLogger, type PaymentQuote, type RandomSource } from "../types";
import { challengeHeader, parseAuthorization, type Credential } from "./header";
import type { InvoiceBackend } from "./invoices";
import { encodeMacaroonBase64, mintToken, verifyToken, type TokenVerdict } from "./macaroon";
import { satsFor, type RateSource } from "./rates";

export type L402Options = {
  /** Root secrets, current first; older ones still verify (rotation). At least 32 bytes each. */
  secrets: Uint8Array[];
  backend: InvoiceBackend;
  rates: RateSource;
  clock: Clock;
  random: RandomSource;
  /** Token lifetime and invoice expiry (spec: 10 minutes). */
  ttlSeconds?: number;
  logger?: PaymentLogger;
};

export type L402Challenge = {
  header: string;
  macaroon: string;
  invoice: string;
  amountSats: string;
  paymentHash: string;
  validUntil: number;
};

export type L402Accepted = {
  ok: true;
  credential: Credential;
  paymentHash: string;
  tokenId: string;
  caveats: string[];
  amountMsat: null;
};

export class L402Rail {
  readonly ttlSeconds: number;
  private readonly log: PaymentLogger;

  constructor(private readonly opts: L402Options) {
    if (opts.secrets.length === 0 || opts.secrets.some((s) => s.length < 32))
      throw new Error("L402 root secrets must be at least 32 bytes");
    this.ttlSeconds = opts.ttlSeconds ?? 600;
    this.log = opts.logger ?? silentLogger;
  }

  get backendKind(): string {
    return this.opts.backend.kind;
  }

  async challenge(quote: PaymentQuote): Promise<L402Challenge> {
    const sats = satsFor(quote.microUsd, await this.opts.rates.btcUsdCents());
    const memo = `L402 ${quote.label}: ${quote.binding.value}`.slice(0, 120);
    // The invoice lives no longer than the token it pays for, so a payment can never buy a dead token.
    const invoice = await this.opts.backend.createInvoice({
      amountMsat: sats * 1000n,
      memo,
      expirySeconds: this.ttlSeconds,
    });
    const validUntil = Math.floor(this.opts.clock.now().getTime() / 1000) + this.ttlSeconds;
    const m = mintToken({
      secret: this.opts.secrets[0],
      paymentHash: fromHex(invoice.paymentHashHex),
      tokenId: this.opts.random.bytes(32),
      binding: quote.binding,
      maxMicroUsd: quote.microUsd,
      validUntil,
    });
    const macaroon = encodeMacaroonBase64(m);
    return {
      header: challengeHeader(macaroon, invoice.paymentRequest),
      macaroon,
      invoice: invoice.paymentRequest,
      amountSats: sats.toString(),
      paymentHash: invoice.paymentHashHex,
      validUntil,
    };
  }

  parse(authorization: string | undefined): Credential[] | "malformed" | null {
    return parseAuthorization(authorization);
  }

  /** The first credential that verifies wins; otherwise the first failure explains the refusal. */
  verify(
    credentials: Credential[],
    quote: PaymentQuote,
    now: Date,
  ): L402Accepted | Extract<TokenVerdict, { ok: false }> {
    let firstFailure: Extract<TokenVerdict, { ok: false }> | null = null;
    for (const credential of credentials) {
      const v = verifyToken(credential.macaroon, credential.preimage, this.opts.secrets, {
        binding: quote.binding,
        microUsd: quote.microUsd,
        nowSeconds: Math.floor(now.getTime() / 1000),
      });
      if (v.ok)
        return {
          ok: true,
          credential,
          paymentHash: v.paymentHash,
          tokenId: v.tokenId,
          caveats: v.caveats,
          amountMsat: null,
        };
      firstFailure ??= v;
    }
    return firstFailure!;
  }
}
