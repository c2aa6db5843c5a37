// payments: per-request payments over HTTP, x402 v2 (EIP-3009 stablecoins) and L402 (Lightning), framework-free.
export * from "./types";
export {
  Payments,
  PAYMENT_HEADERS,
  type Challenge,
  type Decision,
  type Granted,
  type PaymentsOptions,
  type SettleOutcome,
} from "./core";
export { MemoryProofStore } from "./memory-store";
export { decodeBase64Json, encodeBase64Json, sha256Hex } from "./encoding";
export { UnavailableError } from "./x402/errors";
export { X402Rail, atomicAmount, type X402NetworkOptions, type X402Options, type X402Settlement } from "./x402/rail";
export { KNOWN_NETWORKS, CAIP2_EVM, chainIdOf, knownNetwork, newEvmKey, toCaip2 } from "./x402/networks";
export type { PaymentRequired, PaymentRequirements, SettleResponse, ParsedPayment } from "./x402/types";
export { EIP3009_ABI, EIP3009_TYPES } from "./x402/types";
export { parsePaymentHeader } from "./x402/payload";
export { L402Rail, type L402Challenge, type L402Options } from "./l402/rail";
export { challengeHeader, parseAuthorization, type Credential } from "./l402/header";
export type { InvoiceBackend, Invoice, CreateInvoice } from "./l402/invoices";
export {
  DevLightning,
  fileInvoiceStore,
  memoryInvoiceStore,
  pruneExpiredMarks,
  compressedPublicKey,
  REGTEST,
  type DevInvoiceStore,
} from "./l402/dev-backend";
export { LndRestBackend, type LndOptions } from "./l402/lnd";
export { fixedRate, feedRate, satsFor, usdToCents, extractUsdRate, type RateSource } from "./l402/rates";
export {
  encodeMacaroonV2,
  encodeMacaroonBase64,
  mintToken,
  verifyToken,
  tokenIdentifier,
  parseIdentifier,
  rootKeyFor,
  TOKEN_LOCATION,
} from "./l402/macaroon";
