// The admission core: the one place that decides whether a request may be served, framework-free (no HTTP
// context: the credential, what the request will read, its quote and the time come in as plain values). The paid
// gate (src/services/paid-call.ts: REST requests, page memo hits and MCP calls of paid tools alike) and the key
// middleware of unpriced routes call admit(), and free MCP tools reach it by running their REST twin through the app;
// nothing else authenticates, entitles, counts or charges.
//
// Order, cheapest refusal first, nothing counted or reserved for a refused request:
//   1. a malformed credential: 401 INVALID_API_KEY;
//   2. with a key: authentication (401 INVALID_API_KEY unknown or revoked, 401 EXPIRED_API_KEY), then for a priced
//      request the entitlement of every read under the route's policy (403 CATEGORY_NOT_ALLOWED premium data,
//      REGION_NOT_ALLOWED; entitleReads), then the key's fixed one-minute window (429, its advice the rate decision,
//      which the http layer states as Retry-After and the rate-limit headers). Admitted keyed requests carry the
//      rate decision, and a priced one is metered to its key once the handler answered below 400;
//   3. without a key, on a priced request: the payment rails (x402, L402) verify a proof and reserve it, or answer
//      402 with both challenges; without payment rails, 401 asking for a key.
// A priced request admitted with a payment is settled once the handler answered below 400 (a failed settlement
// withholds the data: INTERNAL_ERROR) and released otherwise.
//
// With the in-process rate counters and a cached key, admit() answers synchronously: a repeated read waits for no
// turn of the event loop. With Redis counters the count is one pipelined command (the store's promise).
import type { Decision, Granted, PaymentQuote } from "payments";
import type { Deps } from "../deps";
import { publicBaseUrl as baseUrlOf } from "../contract/base-url";
import { entitlementVerdict, rateDecision, rateWindow, usageMonth, monthStart, monthEnd, type EntitlementWant, type RateDecision } from "../domain/access";
import type { Credential } from "../domain/keys";
import type { ErrorAdvice, ErrorCode } from "../errors";
import { isPremiumRead, type Quote, type Read, type Serving } from "../pricing";
import { authenticateCachedKey, authenticateKey, type AuthenticatedKey, type Authentication } from "./key-auth";
import { waitText } from "../domain/wait";
import type { PaymentDescription, ReadPolicy } from "./paid-read";

export type { PaymentDescription, ReadPolicy };

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

const SERVED: Served = Object.freeze({ ok: true, receipt: null });
/** Seconds a client is asked to wait when its request could not be metered. */
export const UNMETERED_RETRY_AFTER_S = 5;
const UNMETERED: Served = Object.freeze(
  refusal("SERVICE_UNAVAILABLE", "Usage cannot be recorded right now, so the data is withheld and nothing was counted; retry shortly.", { retry_after_seconds: UNMETERED_RETRY_AFTER_S }, {
    retryAfterSeconds: UNMETERED_RETRY_AFTER_S,
    noStore: true,
  }),
);
const NONE_REFUSED: readonly (Refusal | null)[] = Object.freeze([]);
const ANONYMOUS: Admitted = Object.freeze({ ok: true, refused: NONE_REFUSED, key: null, rate: null, metered: false, payment: null });
const HOW_TO_AUTHENTICATE = "Send 'Authorization: Bearer <key>' or 'X-API-Key: <key>' (free keys: POST /v1/signup).";
// A 401 says what to do next: a secret may be cut short, or replaced by a rotation or a recovery.
const UNKNOWN_KEY =
  "Unknown API key: check that the whole key was sent (it starts with svc_live_ or svc_test_). A key replaced by a rotation or a recovery no longer works: use the new one (a paid key is recovered with POST /v1/keys/recover and its billing email), or get a free key with POST /v1/signup.";
const REVOKED_KEY = "This API key was revoked and no longer works: get a free key with POST /v1/signup (or at /keys in a browser), or ask whoever issued it for a new one.";

export type AdmissionDeps = Pick<Deps, "database" | "clock" | "keys" | "rateLimits" | "logger" | "access">;

/**
 * What this core decided, for metrics: verdicts by outcome ("admitted" with how: key, payment, anonymous; or the
 * refusal's error code), and payments per rail and step (verified, settled, settle_failed).
 */
export class AdmissionCounts {
  // Bounded: one count per verdict (admitted, or a refusal code) and per rail and step.
  readonly verdicts = new Map<string, number>();
  readonly payments = new Map<string, number>();
  verdict(v: Verdict): void {
    const k = v.ok ? (v.payment ? "admitted\tpayment" : v.key ? "admitted\tkey" : "admitted\tanonymous") : `refused\t${v.code}`;
    this.verdicts.set(k, (this.verdicts.get(k) ?? 0) + 1);
    if (v.ok && v.payment) this.payment(v.payment.rail, "verified");
  }
  payment(rail: string, step: "verified" | "settled" | "settle_failed"): void {
    const k = `${rail}\t${step}`;
    this.payments.set(k, (this.payments.get(k) ?? 0) + 1);
  }
}

export class Admission {
  /** The usage month of the last metered request: every metered request asks, and months change rarely. */
  private month = { from: NaN, until: NaN, text: "" };
  readonly counts = new AdmissionCounts();

  constructor(private readonly deps: AdmissionDeps) {}

  /** The verdict on a request (synchronous when no I/O is needed), counted. */
  admit(req: AdmissionRequest): Verdict | Promise<Verdict> {
    const v = this.decide(req);
    if (v instanceof Promise) return v.then((d) => (this.counts.verdict(d), d));
    this.counts.verdict(v);
    return v;
  }

  private decide(req: AdmissionRequest): Verdict | Promise<Verdict> {
    const cred = req.credential;
    if (cred.kind === "malformed") return refusal("INVALID_API_KEY", `Malformed API key: ${cred.reason}. ${HOW_TO_AUTHENTICATE}`);
    if (cred.kind === "key") {
      const cached = authenticateCachedKey(this.deps, cred.key, req.now);
      if (cached !== undefined) return this.withKey(req, cached);
      return authenticateKey(this.deps, cred.key).then((auth) => this.withKey(req, auth));
    }
    if (req.purpose !== "paid") return ANONYMOUS;
    const { access } = this.deps;
    if (access.payments) return this.pay(req);
    if (!access.keys) return ANONYMOUS;
    // The price rides along (as in a 402), so a caller (and an MCP tool) can tell what the request would cost.
    return refusal("INVALID_API_KEY", `This endpoint needs an API key: ${HOW_TO_AUTHENTICATE}`, { price_usd: req.quote!.usd });
  }

  /**
   * Who asks, before admission: the key, when it authenticates and has not expired; "open" where access is open (no
   * keys and no payments: nobody is a stranger); null for anyone else. Nothing is counted: this only tells a
   * stranger from a customer where a read would start an upstream fetch (src/services/provisioning-budget.ts).
   */
  async knownKey(credential: Credential, now: Date): Promise<AuthenticatedKey | "open" | null> {
    const { access } = this.deps;
    if (!access.keys) return access.payments ? null : "open";
    if (credential.kind !== "key") return null;
    const auth = authenticateCachedKey(this.deps, credential.key, now) ?? (await authenticateKey(this.deps, credential.key));
    return auth.ok && !auth.expired ? auth.key : null;
  }

  /**
   * Whether a key may read data: premium data needs an unrestricted plan or the `svc-premium` scope, a
   * region-restricted key reads only its regions. Anonymous requests pay per request (or are served openly).
   * Also used for Key routes (saving a briefing needs premium access).
   */
  entitlement(key: AuthenticatedKey | null, want: EntitlementWant): Refusal | null {
    if (!key || !this.deps.access.keys) return null;
    const verdict = entitlementVerdict(key, want);
    if (verdict.ok) return null;
    const refused = refusal(verdict.code, verdict.message, { key_hint: key.hint, ...(want.indicator ? { indicator: want.indicator } : {}) });
    this.counts.verdict(refused);
    return refused;
  }

  /** Every read of a priced request entitled under the route's policy: the refusal of the request, or per read the refusal of one the answer leaves out. */
  entitleReads(key: AuthenticatedKey | null, reads: readonly Read[], policy: ReadPolicy): Refusal | readonly (Refusal | null)[] {
    if (!key || !this.deps.access.keys) return NONE_REFUSED;
    let first: Refusal | null = null;
    let permitted = 0;
    const out = reads.map((r) => {
      const refused = this.entitlement(key, { premium: isPremiumRead(r), region: r.region, indicator: r.indicator, surface: r.surface });
      if (refused) first ??= refused;
      else permitted++;
      return refused;
    });
    if (!first) return NONE_REFUSED;
    if (policy === "all" || (policy === "any" && permitted === 0)) return first;
    return out;
  }

  /**
   * The handler answered below 400: meter the key's request or settle. A request that cannot be metered durably (the
   * usage journal cannot be written: a full disk, an unwritable directory, a closing meter) is not served: 503 with
   * Retry-After, and the client's retry is served once the journal can be written again.
   */
  served(verdict: Admitted, now: Date): Served | Promise<Served> {
    if (verdict.metered) {
      try {
        this.deps.keys.meter.count(verdict.key!.id, this.usageMonth(now));
      } catch {
        // The meter logged it (once per outage).
        this.counts.verdict(UNMETERED as Refusal);
        return UNMETERED;
      }
      return SERVED;
    }
    if (verdict.payment) return settle(verdict.payment, this.counts);
    return SERVED;
  }

  private usageMonth(now: Date): string {
    const t = now.getTime();
    const m = this.month;
    if (t >= m.from && t < m.until) return m.text;
    const text = usageMonth(now);
    this.month = { from: monthStart(text).getTime(), until: monthEnd(text).getTime(), text };
    return text;
  }

  /** The handler answered 400 or more, or threw: whatever was reserved for the request is given back. */
  async notServed(verdict: Admitted): Promise<void> {
    await verdict.payment?.release();
  }

  private withKey(req: AdmissionRequest, auth: Authentication): Verdict | Promise<Verdict> {
    if (!auth.ok) return refusal("INVALID_API_KEY", auth.revoked ? REVOKED_KEY : UNKNOWN_KEY);
    const key = auth.key;
    if (auth.expired && !req.allowExpired) return refusal("EXPIRED_API_KEY", auth.expired);
    if (req.purpose === "key_management") return { ok: true, refused: NONE_REFUSED, key, rate: null, metered: false, payment: null };
    const paid = req.purpose === "paid";
    let refused = NONE_REFUSED;
    if (paid) {
      const entitled = this.entitleReads(key, req.serving!.reads, req.policy ?? "all");
      if (!Array.isArray(entitled)) return entitled as Refusal;
      refused = entitled as readonly (Refusal | null)[];
    }
    const metered = paid && this.deps.access.keys;
    const window = rateWindow(req.now);
    let count: number | Promise<number>;
    try {
      // Kept a second past the window's end: processes' clocks differ a little.
      count = this.deps.rateLimits.hit(req.purpose === "ping" ? `ping:${key.id}` : key.id, window.index, window.msUntilReset + 1000);
    } catch (e) {
      return this.limiterDown(key, metered, refused, e);
    }
    if (typeof count === "number") return counted(key, metered, refused, rateDecision(count, key.rateLimitPerMinute, window));
    return count.then(
      (n) => counted(key, metered, refused, rateDecision(n, key.rateLimitPerMinute, window)),
      (e) => this.limiterDown(key, metered, refused, e),
    );
  }

  /** The counters cannot be reached: the request is served uncounted (a limiter outage must not take the API down). */
  private limiterDown(key: AuthenticatedKey, metered: boolean, refused: Admitted["refused"], e: unknown): Admitted {
    this.deps.logger.error("rate limiter unavailable; request not counted", { key_hint: key.hint, error: String(e) });
    return { ok: true, refused, key, rate: null, metered, payment: null };
  }

  private async pay(req: AdmissionRequest): Promise<Verdict> {
    const quote = req.quote!;
    const d = await this.deps.access.payments!.authorize({ header: (name) => req.header?.(name) }, paymentQuoteOf(req, this.deps.access.publicBaseUrl));
    return paymentVerdict(d, quote, baseUrlOf({ publicBaseUrl: this.deps.access.publicBaseUrl }, req.url!));
  }
}

function counted(key: AuthenticatedKey, metered: boolean, refused: Admitted["refused"], rate: RateDecision): Verdict {
  if (!rate.allowed) {
    return refusal(
      "RATE_LIMIT_EXCEEDED",
      `Rate limit of ${rate.limit} requests per minute exceeded for key ${key.hint}; retry in ${waitText(rate.retryAfterSeconds)}.`,
      { limit: rate.limit, reset: rate.resetUnix, retry_after_seconds: rate.retryAfterSeconds },
      { rate },
    );
  }
  return { ok: true, refused, key, rate, metered, payment: null };
}

function refusal(code: ErrorCode, message: string, details?: Record<string, unknown>, advice?: ErrorAdvice, body?: Record<string, unknown>): Refusal {
  return { ok: false, code, message, ...(details ? { details } : {}), ...(advice ? { advice } : {}), ...(body ? { body } : {}) };
}


/** How the payment rails describe a priced request: price, binding, resource and its bazaar discovery. */
export function paymentQuoteOf(req: Pick<AdmissionRequest, "quote" | "serving" | "url" | "describe">, publicBaseUrl: string | null): PaymentQuote {
  const quote = req.quote!;
  const serving = req.serving!;
  const url = new URL(req.url!);
  const d = req.describe?.();
  const method = d?.method.toUpperCase() ?? "GET";
  return {
    microUsd: quote.microUsd,
    usd: quote.usd,
    binding: serving.indicator ? { kind: "indicator", value: serving.indicator } : { kind: "resource", value: serving.resource },
    label: quote.surface,
    resource: { url: `${baseUrlOf({ publicBaseUrl }, url.href)}${url.pathname}${url.search}`, path: serving.resource, description: quote.description, mimeType: "application/json" },
    ...(method === "GET" || method === "HEAD"
      ? {
          discovery: {
            method,
            queryParams: d?.query ?? {},
            ...(d?.shape ? { queryParamsSchema: d.shape.queryParamsSchema } : {}),
            ...(d && Object.keys(d.pathParams).length ? { pathParams: d.pathParams } : {}),
            ...(d?.shape?.outputSchema ? { outputSchema: d.shape.outputSchema } : {}),
          },
        }
      : {}),
  };
}

/** The payment rails' decision in this service's terms (spec "Authentication" and "Errors"). */
function paymentVerdict(d: Decision, quote: Quote, base: string): Verdict {
  switch (d.kind) {
    case "malformed":
      return refusal("INVALID_PARAMETER", d.message, { parameter: "payment" });
    case "unavailable":
      return refusal("SERVICE_UNAVAILABLE", d.message, undefined, { retryAfterSeconds: 5, noStore: true });
    case "challenge": {
      const details: Record<string, unknown> = { price_usd: quote.usd, rails: [...(d.paymentRequired ? ["x402"] : []), ...(d.l402 ? ["l402"] : [])] };
      // Where a key comes from, for people and programs alike: the signup endpoint and the page that calls it.
      details.api_key = { signup: `${base}/v1/signup`, page: `${base}/keys` };
      if (d.reason) details.reason = d.reason;
      if (d.l402) details.l402 = { invoice: d.l402.invoice, macaroon: d.l402.macaroon, amount_sats: d.l402.amountSats, valid_until: new Date(d.l402.validUntil * 1000).toISOString() };
      // The x402 PaymentRequired goes into the body beside the envelope, for clients that read bodies.
      const { error: _x402Error, ...paymentRequired } = d.paymentRequired ?? ({} as Record<string, unknown>);
      return refusal("PAYMENT_REQUIRED", `${d.message} Free API keys: POST ${base}/v1/signup, or in a browser at ${base}/keys.`, details, { payment: d.headers }, paymentRequired);
    }
    case "granted":
      return { ok: true, refused: NONE_REFUSED, key: null, rate: null, metered: false, payment: d };
  }
}

async function settle(payment: Granted, counts: AdmissionCounts): Promise<Served> {
  const s = await payment.settle();
  counts.payment(payment.rail, s.ok ? "settled" : "settle_failed");
  if (s.ok) return { ok: true, receipt: s.headers };
  return refusal("INTERNAL_ERROR", "The payment could not be settled, so the data is withheld and nothing was charged.", { reason: s.reason }, { payment: s.headers, noStore: true });
}
