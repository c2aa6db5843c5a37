// LND REST invoice backend (lnrpc/lightning.yaml): POST /v1/invoices with the invoice macaroon in
// `Grpc-Metadata-macaroon`, over TLS pinned to lnd's own certificate. protojson: bytes are base64, 64-bit ints strings.
import { bolt11 } from "./bolt11";
import type { CreateInvoice, Invoice, InvoiceBackend } from "./invoices";

export type LndOptions = {
  /** e.g. https://127.0.0.1:8080 */
  url: string;
  macaroonHex: string;
  /** PEM of lnd's tls.cert (pinned as the only CA); null to use the system roots (a proxy with a public cert). */
  tlsCertPem: string | null;
  fetch?: typeof fetch;
  timeoutMs?: number;
};

export class LndRestBackend implements InvoiceBackend {
  readonly kind = "lnd";
  constructor(private readonly opts: LndOptions) {
    if (!/^[0-9a-fA-F]+$/.test(opts.macaroonHex)) throw new Error("LND macaroon must be hex");
  }

  async createInvoice(req: CreateInvoice): Promise<Invoice> {
    const init: RequestInit & { tls?: { ca: string } } = {
      method: "POST",
      headers: { "Grpc-Metadata-macaroon": this.opts.macaroonHex, "content-type": "application/json" },
      body: JSON.stringify({
        memo: req.memo,
        value_msat: req.amountMsat.toString(),
        expiry: String(req.expirySeconds),
      }),
      signal: AbortSignal.timeout(this.opts.timeoutMs ?? 10_000),
    };
    if (this.opts.tlsCertPem) init.tls = { ca: this.opts.tlsCertPem };
    const res = await (this.opts.fetch ?? fetch)(`${this.opts.url.replace(/\/+$/, "")}/v1/invoices`, init);
    const text = await res.text();
    if (!res.ok) throw new Error(`lnd AddInvoice answered ${res.status}: ${text.slice(0, 200)}`);
    const body = JSON.parse(text) as { r_hash?: string; payment_request?: string };
    if (typeof body.r_hash !== "string" || typeof body.payment_request !== "string")
      throw new Error("lnd AddInvoice answer lacks r_hash or payment_request");
    const paymentHashHex = Buffer.from(body.r_hash, "base64").toString("hex");
    if (paymentHashHex.length !== 64) throw new Error("lnd r_hash is not 32 bytes");
    // Cross-check the invoice lnd signed: same hash, same amount (a misconfigured proxy must not mint tokens for another invoice).
    const decoded = bolt11().decode(body.payment_request);
    if (decoded.tagsObject.payment_hash !== paymentHashHex)
      throw new Error("lnd invoice payment hash differs from r_hash");
    if (decoded.millisatoshis !== req.amountMsat.toString())
      throw new Error("lnd invoice amount differs from the amount asked");
    const expiry = decoded.tagsObject.expire_time ?? req.expirySeconds;
    return {
      paymentRequest: body.payment_request,
      paymentHashHex,
      amountMsat: req.amountMsat,
      expiresAt: new Date(((decoded.timestamp ?? 0) + expiry) * 1000),
    };
  }
}
