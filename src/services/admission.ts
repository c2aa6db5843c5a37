// The admission core: the one place that decides whether a request may be served, framework-free (no HTTP
// context: the credential, what the request will read, its quote and the time come in as plain values). The paid
// gate (src/services/paid-call.ts: REST requests, page memo hits and MCP calls of paid tools alike) and the key
// middleware of unpriced routes call admit(), and so do free MCP tools, admitted as their keyed REST route
// (src/http/operation-call.ts); nothing else authenticates, entitles, counts or charges.
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
import type { Deps } from "../deps";
import {
  entitlementVerdict,
  rateDecision,
  rateWindow,
  usageMonth,
  monthStart,
  monthEnd,
  type EntitlementWant,
  type RateDecision,
} from "../domain/access";
import { publicBaseUrl as baseUrlOf } from "../contract/base-url";
import type { Credential } from "../domain/keys";
import { isPremiumRead, type Read } from "../pricing";
import { authenticateCachedKey, authenticateKey, type AuthenticatedKey, type Authentication } from "./key-auth";
import { waitText } from "../domain/wait";
import {
  AdmissionCounts,
  NONE_REFUSED,
  refusal,
  type AdmissionRequest,
  type Admitted,
  type Refusal,
  type Served,
  type Verdict,
} from "./admission-verdicts";
import { paymentQuoteOf, paymentVerdict, settle } from "./admission-payments";

import type { PaymentDescription, ReadPolicy } from "./paid-read";

export type { PaymentDescription, ReadPolicy };
export type { AdmissionRequest, Admitted, Purpose, Refusal, Served, Verdict } from "./admission-verdicts";
export { AdmissionCounts } from "./admission-verdicts";
export { paymentQuoteOf } from "./admission-payments";

const SERVED: Served = Object.freeze({ ok: true, receipt: null });
/** Seconds a client is asked to wait when its request could not be metered. */
export const UNMETERED_RETRY_AFTER_S = 5;
const UNMETERED: Served = Object.freeze(
  refusal(
    "SERVICE_UNAVAILABLE",
    "Usage cannot be recorded right now, so the data is withheld and nothing was counted; retry shortly.",
    { retry_after_seconds: UNMETERED_RETRY_AFTER_S },
    {
      retryAfterSeconds: UNMETERED_RETRY_AFTER_S,
      noStore: true,
    },
  ),
);
const ANONYMOUS: Admitted = Object.freeze({
  ok: true,
  refused: NONE_REFUSED,
  key: null,
  rate: null,
  metered: false,
  payment: null,
});
const HOW_TO_AUTHENTICATE = "Send 'Authorization: Bearer <key>' or 'X-API-Key: <key>' (free keys: POST /v1/signup).";
// A 401 says what to do next: a secret may be cut short, or replaced by a rotation or a recovery.
const UNKNOWN_KEY =
  "Unknown API key: check that the whole key was sent (it starts with svc_live_ or svc_test_). A key replaced by a rotation or a recovery no longer works: use the new one (a paid key is recovered with POST /v1/keys/recover and its billing email), or get a free key with POST /v1/signup.";
const REVOKED_KEY =
  "This API key was revoked and no longer works: get a free key with POST /v1/signup (or at /keys in a browser), or ask whoever issued it for a new one.";

export type AdmissionDeps = Pick<Deps, "database" | "clock" | "keys" | "rateLimits" | "logger" | "access">;

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
    if (cred.kind === "malformed")
      return refusal("INVALID_API_KEY", `Malformed API key: ${cred.reason}. ${HOW_TO_AUTHENTICATE}`);
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
    return refusal("INVALID_API_KEY", `This endpoint needs an API key: ${HOW_TO_AUTHENTICATE}`, {
      price_usd: req.quote!.usd,
    });
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
    const auth =
      authenticateCachedKey(this.deps, credential.key, now) ?? (await authenticateKey(this.deps, credential.key));
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
    const refused = refusal(verdict.code, verdict.message, {
      key_hint: key.hint,
      ...(want.indicator ? { indicator: want.indicator } : {}),
    });
    this.counts.verdict(refused);
    return refused;
  }

  /** Every read of a priced request entitled under the route's policy: the refusal of the request, or per read the refusal of one the answer leaves out. */
  entitleReads(
    key: AuthenticatedKey | null,
    reads: readonly Read[],
    policy: ReadPolicy,
  ): Refusal | readonly (Refusal | null)[] {
    if (!key || !this.deps.access.keys) return NONE_REFUSED;
    let first: Refusal | null = null;
    let permitted = 0;
    const out = reads.map((r) => {
      const refused = this.entitlement(key, {
        premium: isPremiumRead(r),
        region: r.region,
        indicator: r.indicator,
        surface: r.surface,
      });
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
    if (req.purpose === "key_management")
      return { ok: true, refused: NONE_REFUSED, key, rate: null, metered: false, payment: null };
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
      count = this.deps.rateLimits.hit(
        req.purpose === "ping" ? `ping:${key.id}` : key.id,
        window.index,
        window.msUntilReset + 1000,
      );
    } catch (e) {
      return this.limiterDown(key, metered, refused, e);
    }
    if (typeof count === "number")
      return counted(key, metered, refused, rateDecision(count, key.rateLimitPerMinute, window));
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
    const d = await this.deps.access.payments!.authorize(
      { header: (name) => req.header?.(name) },
      paymentQuoteOf(req, this.deps.access.publicBaseUrl),
    );
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
