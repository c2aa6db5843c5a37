// Where Lightning invoices come from. The backend creates the invoice (and keeps the preimage: the service
// never learns it before payment); verification needs no backend, only sha256(preimage) == payment hash.
export type Invoice = {
  paymentRequest: string;
  paymentHashHex: string;
  amountMsat: bigint;
  expiresAt: Date;
};

export type CreateInvoice = { amountMsat: bigint; memo: string; expirySeconds: number };

export interface InvoiceBackend {
  readonly kind: string;
  createInvoice(req: CreateInvoice): Promise<Invoice>;
}
