// Shared vocabulary of the payments package. It knows prices, bindings and proofs, never what is being sold:
// the host hands it a PaymentQuote per request and stores proofs through the ProofStore it implements.

/** What one request costs and what a payment for it is bound to. */
export type PaymentQuote = {
  /** Integer micro-USD (1 USD = 1_000_000). */
  microUsd: number;
  /** Decimal USD string for humans, e.g. "0.01". */
  usd: string;
  /** A proof is valid only for this: an indicator code, or the route's resource path for routes without one. */
  binding: { kind: "indicator" | "resource"; value: string };
  /** Product label recorded with every proof (e.g. the pricing surface). */
  label: string;
  resource: {
    /** Absolute URL of the request (x402 `resource.url`). */
    url: string;
    /** Path without query, e.g. "/v1/observations". */
    path: string;
    description: string;
    mimeType: string;
  };
  /** x402 bazaar discovery description of the route's input and output (optional). */
  discovery?: Discovery;
};

export type Discovery = {
  method: "GET" | "HEAD" | "DELETE";
  /** The request's own query parameters (the example the facilitator catalogues). */
  queryParams: Record<string, string>;
  /** JSON Schema `{ properties, required }` of the query parameters. */
  queryParamsSchema?: { properties: Record<string, unknown>; required?: string[] };
  pathParams?: Record<string, string>;
  /** JSON Schema of a successful response body. */
  outputSchema?: Record<string, unknown>;
};

/** The parts of an HTTP request the payment rails read. */
export type PaymentRequest = {
  header(name: string): string | undefined;
};

export type Rail = "x402" | "l402";

/** One stored proof of payment. Secrets (L402 preimage, macaroon) are stored only as hashes. */
export type ProofRecord = {
  rail: Rail;
  /** Unique per payment: x402 `network:asset:payer:nonce`, L402 the payment hash. */
  proofKey: string;
  payer: string | null;
  network: string | null;
  asset: string | null;
  /** Amount in the rail's unit: token atomic units (x402) or millisatoshis (L402). */
  amount: string;
  microUsd: number;
  binding: string;
  resource: string;
  label: string;
  /** sha256 hex of the credential as presented (the header value). */
  credentialHash: string;
  /** Non-secret detail worth keeping (x402 authorization and signature; L402 token id and caveats). */
  detail: Record<string, unknown>;
};

export type ProofResult =
  | { status: "settled"; reference: string | null }
  | { status: "failed"; reason: string }
  | { status: "released" };

/**
 * Where proofs are kept. `reserve` must be atomic: of two concurrent calls with the same (rail, proofKey) at most
 * one gets an id. A released or failed proof, or one whose lease ran out (a crashed request), may be reserved again;
 * a settled one never.
 */
export interface ProofStore {
  reserve(record: ProofRecord, at: Date, leaseUntil: Date): Promise<string | null>;
  finish(id: string, result: ProofResult, at: Date): Promise<void>;
}

export type Clock = { now(): Date };
export type RandomSource = { bytes(n: number): Uint8Array };
export type PaymentLogger = {
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
};

export const silentLogger: PaymentLogger = { warn() {}, error() {} };
