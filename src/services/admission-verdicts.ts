// The admission core's vocabulary (src/services/admission.ts): what is asked, the verdicts it gives, how a refusal is
// made, and the counts it keeps for metrics. Shared by the core and its payment side (admission-payments.ts).
import type { Granted } from "payments";
import type { RateDecision } from "../domain/access";
import type { Credential } from "../domain/keys";
import type { ErrorAdvice, ErrorCode } from "../errors";
import type { Quote, Serving } from "../pricing";
import type { AuthenticatedKey } from "./key-auth";
import type { PaymentDescription, ReadPolicy } from "./paid-read";

/**
 * What is being admitted:
 * - `paid`: a priced request (quote and resolution given): entitled, counted, metered or paid;
 * - `keyed`: an unpriced route called with a key (catalog, ping): authenticated and counted against the window;
 * - `key_management`: signup, rotate, revoke, recover (limits of their own): authenticated only;
 * - `ping`: GET /v1/ping, the way to read a key's usage: authenticated and counted in a window of its own (same
 *   limit; its rate headers describe that window), so it answers when the key's data window is used up
 *   and is still bounded.
 */
export type Purpose = "paid" | "keyed" | "key_management" | "ping";

export type AdmissionRequest = {
  purpose: Purpose;
  credential: Credential;
  now: Date;
  /** Priced requests: the quote, what was resolved and how its reads are entitled. */
  quote?: Quote;
  serving?: Serving;
  policy?: ReadPolicy;
  /** The request's headers, where payment proofs are read from (anonymous priced requests). */
  header?(name: string): string | undefined;
  /** The absolute URL requested and how its route is described, for the payment rails (asked only when needed). */
  url?: string;
  describe?(): PaymentDescription;
  /** An expired key is still let through (revoking a lapsed key). */
  allowExpired?: boolean;
};

/**
 * A refusal, rendered by the host as the error envelope and what `advice` tells the client (src/http/verdicts.ts);
 * `body` adds top-level fields (the x402 PaymentRequired).
 */
export type Refusal = {
  ok: false;
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
  advice?: ErrorAdvice;
  body?: Record<string, unknown>;
};

export type Admitted = {
  ok: true;
  /** Per read of the request (in order), the refusal of a read the answer must leave out, or null. Empty: none refused. */
  refused: readonly (Refusal | null)[];
  key: AuthenticatedKey | null;
  /** The key's window after this request (null: no key, or the counters could not be reached). */
  rate: RateDecision | null;
  /** Metered to the key once served. */
  metered: boolean;
  /** A verified, reserved payment proof: settled once served, released otherwise. */
  payment: Granted | null;
};

export type Verdict = Admitted | Refusal;

/** After a served answer: the payment receipt to add (the rails' own protocol fields), or the refusal that replaces the answer. */
export type Served = { ok: true; receipt: Readonly<Record<string, string>> | null } | Refusal;

export const NONE_REFUSED: readonly (Refusal | null)[] = Object.freeze([]);

export function refusal(
  code: ErrorCode,
  message: string,
  details?: Record<string, unknown>,
  advice?: ErrorAdvice,
  body?: Record<string, unknown>,
): Refusal {
  return {
    ok: false,
    code,
    message,
    ...(details ? { details } : {}),
    ...(advice ? { advice } : {}),
    ...(body ? { body } : {}),
  };
}

/**
 * What this core decided, for metrics: verdicts by outcome ("admitted" with how: key, payment, anonymous; or the
 * refusal's error code), and payments per rail and step (verified, settled, settle_failed).
 */
export class AdmissionCounts {
  // Bounded: one count per verdict (admitted, or a refusal code) and per rail and step.
  readonly verdicts = new Map<string, number>();
  readonly payments = new Map<string, number>();
  verdict(v: Verdict): void {
    const k = v.ok
      ? v.payment
        ? "admitted\tpayment"
        : v.key
          ? "admitted\tkey"
          : "admitted\tanonymous"
      : `refused\t${v.code}`;
    this.verdicts.set(k, (this.verdicts.get(k) ?? 0) + 1);
    if (v.ok && v.payment) this.payment(v.payment.rail, "verified");
  }
  payment(rail: string, step: "verified" | "settled" | "settle_failed"): void {
    const k = `${rail}\t${step}`;
    this.payments.set(k, (this.payments.get(k) ?? 0) + 1);
  }
}
