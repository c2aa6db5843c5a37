// Rules of key access, as pure functions over plain values (times as Dates, no clock reads).
// - Subscription state: 'ended' once ended; 'past_due' from payment_failed_at + 7 days (the grace period,
//   during which the key keeps working) until a payment succeeds; otherwise 'active'. A subscription still
//   unpaid at payment_failed_at + 7 days + the dunning period (default 14 days) is due to be ended.
// - Months: the UTC calendar month 'YYYY-MM' covers [start, next month's start). A month's overage is invoiced
//   once the month has ended and a settling delay (5 minutes, for other processes' last usage) has passed.
// - Rotation limit: at most 5 rotations per key in any 24-hour window (a rotation at t counts while now < t + 24 h).
// - Recovery token: valid while now < created + 30 minutes and unconsumed; at most 3 issued per key per hour.
// - Client limits: 5 signups and 10 recovery requests per client IP in any 24-hour window.
// - Rate limit: fixed one-minute windows aligned to the Unix epoch; window w covers [w*60 s, (w+1)*60 s).
// - Overage: requests beyond the plan's monthly inclusion, billed per 1,000 at the plan's price, pro rata
//   per request, in integer micro-USD.
// - Entitlement: premium data needs an unrestricted plan or the `svc-premium` scope; a key restricted to
//   regions reads only those region codes.
export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

export const GRACE_PERIOD_MS = 7 * DAY_MS;
export const DEFAULT_DUNNING_PERIOD_DAYS = 14;
export const INVOICE_SETTLE_MS = 5 * MINUTE_MS;
export const ROTATIONS_PER_DAY = 5;
export const RECOVERY_TOKEN_TTL_MS = 30 * MINUTE_MS;
export const RECOVERY_TOKENS_PER_KEY_PER_HOUR = 3;
export const SIGNUPS_PER_CLIENT_PER_DAY = 5;
export const RECOVERIES_PER_CLIENT_PER_DAY = 10;
export const PREMIUM_SCOPE = "svc-premium";

export type SubscriptionState = "active" | "past_due" | "ended";

export function subscriptionState(
  s: { status: "active" | "ended"; paymentFailedAt: Date | null },
  now: Date,
): SubscriptionState {
  if (s.status === "ended") return "ended";
  if (s.paymentFailedAt && now.getTime() >= s.paymentFailedAt.getTime() + GRACE_PERIOD_MS) return "past_due";
  return "active";
}

/** When the grace period of a failed payment ends (the subscription is past due from then on). */
export function graceEndsAt(paymentFailedAt: Date): Date {
  return new Date(paymentFailedAt.getTime() + GRACE_PERIOD_MS);
}

/** When a subscription whose payment failed at `paymentFailedAt` and was never paid is ended (grace + dunning). */
export function dunningEndsAt(paymentFailedAt: Date, dunningPeriodMs: number): Date {
  return new Date(paymentFailedAt.getTime() + GRACE_PERIOD_MS + dunningPeriodMs);
}

export function dunningOver(
  s: { status: "active" | "ended"; paymentFailedAt: Date | null },
  now: Date,
  dunningPeriodMs: number,
): boolean {
  return (
    s.status === "active" &&
    s.paymentFailedAt !== null &&
    now.getTime() >= dunningEndsAt(s.paymentFailedAt, dunningPeriodMs).getTime()
  );
}

/**
 * A sliding-window limit over event times: allowed when fewer than `max` events fall in (now - window, now];
 * otherwise retryAfterSeconds says when the oldest counted event leaves the window.
 */
export function slidingLimit(
  eventTimes: Date[],
  now: Date,
  windowMs: number,
  max: number,
): { allowed: boolean; retryAfterSeconds: number } {
  const since = now.getTime() - windowMs;
  const inWindow = eventTimes
    .map((d) => d.getTime())
    .filter((t) => t > since)
    .sort((a, b) => a - b);
  if (inWindow.length < max) return { allowed: true, retryAfterSeconds: 0 };
  // The (count - max + 1)-th oldest must leave before one more is allowed.
  const leaving = inWindow[inWindow.length - max]!;
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((leaving + windowMs - now.getTime()) / 1000)) };
}

export type RecoveryTokenState = "issued" | "consumed" | "expired";

export function recoveryTokenState(t: { expiresAt: Date; consumedAt: Date | null }, now: Date): RecoveryTokenState {
  if (t.consumedAt) return "consumed";
  return now.getTime() < t.expiresAt.getTime() ? "issued" : "expired";
}

export type RateWindow = { index: number; resetUnix: number; msUntilReset: number };

export function rateWindow(now: Date): RateWindow {
  const t = now.getTime();
  const index = windowIndex(t);
  const endMs = windowEndMs(index);
  return { index, resetUnix: endMs / 1000, msUntilReset: endMs - t };
}

/** The fixed one-minute window holding instant `t` (ms), and the instant it ends (exclusive). */
export const windowIndex = (t: number): number => Math.floor(t / MINUTE_MS);
export const windowEndMs = (index: number): number => (index + 1) * MINUTE_MS;

export type RateDecision = {
  allowed: boolean;
  limit: number;
  remaining: number;
  resetUnix: number;
  retryAfterSeconds: number;
};

/** Requests left in the window once the `count`-th (1 for the first) is let through; -1 when it is over the limit. */
export function remainingAfter(count: number, limit: number): number {
  return count <= limit ? limit - count : -1;
}

/** `count` is this request's position in its window (1 for the first). */
export function rateDecision(count: number, limit: number, window: RateWindow): RateDecision {
  const remaining = remainingAfter(count, limit);
  const allowed = remaining >= 0;
  return {
    allowed,
    limit,
    remaining: Math.max(0, remaining),
    resetUnix: window.resetUnix,
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(window.msUntilReset / 1000)),
  };
}

/** UTC calendar month of a moment, `YYYY-MM`: the metering period. */
export function usageMonth(now: Date): string {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  return `${y}-${m < 9 ? "0" : ""}${m + 1}`;
}

const MONTH_RE = /^(\d{4})-(0[1-9]|1[0-2])$/;

export function isMonth(s: string): boolean {
  return MONTH_RE.test(s);
}

/** First instant of a 'YYYY-MM' month (UTC). */
export function monthStart(month: string): Date {
  const m = MONTH_RE.exec(month);
  if (!m) throw new RangeError(`not a YYYY-MM month: ${month}`);
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1));
}

/** First instant after the month: the next month's start. */
export function monthEnd(month: string): Date {
  const s = monthStart(month);
  return new Date(Date.UTC(s.getUTCFullYear(), s.getUTCMonth() + 1, 1));
}

export function previousMonth(month: string): string {
  const s = monthStart(month);
  return usageMonth(new Date(Date.UTC(s.getUTCFullYear(), s.getUTCMonth() - 1, 1)));
}

/** True once `month` has ended and the settling delay has passed, so its usage is complete enough to invoice. */
export function monthInvoiceable(month: string, now: Date): boolean {
  return now.getTime() >= monthEnd(month).getTime() + INVOICE_SETTLE_MS;
}

/** The month the billing job invoices at `now`: the previous one, once it is invoiceable; else the one before. */
export function monthToInvoice(now: Date): string {
  const prev = previousMonth(usageMonth(now));
  return monthInvoiceable(prev, now) ? prev : previousMonth(prev);
}

export type OveragePlan = { includedRequestsPerMonth: number | null; overageMicroUsdPer1000: number | null };

export function overage(plan: OveragePlan, requests: number): { overageRequests: number; amountMicroUsd: number } {
  if (plan.includedRequestsPerMonth === null || plan.overageMicroUsdPer1000 === null)
    return { overageRequests: 0, amountMicroUsd: 0 };
  const over = Math.max(0, requests - plan.includedRequestsPerMonth);
  // Prices per 1,000 are multiples of 1,000 micro-USD, so this is exact; round half up otherwise.
  return { overageRequests: over, amountMicroUsd: Math.round((over * plan.overageMicroUsdPer1000) / 1000) };
}

export type Entitlement = {
  unrestricted: boolean;
  scopes: readonly string[];
  allowedRegions: readonly string[] | null;
};

export type EntitlementVerdict =
  | { ok: true }
  | { ok: false; code: "CATEGORY_NOT_ALLOWED" | "REGION_NOT_ALLOWED"; message: string };

export function canReadPremium(e: Pick<Entitlement, "unrestricted" | "scopes">): boolean {
  return e.unrestricted || e.scopes.includes(PREMIUM_SCOPE);
}

/**
 * A read of every region at once (a list with no region filter, such as signals): a key restricted to some regions
 * is refused it and told to name its regions, as it would be refused any one region outside them.
 */
export const EVERY_REGION = "*";

/** What a request reads, for the entitlement rule: its region (null: none; EVERY_REGION: all), indicator (null for routes without one) and surface. */
export type EntitlementWant = { premium: boolean; region: string | null; indicator: string | null; surface?: string };

export function entitlementVerdict(e: Entitlement, want: EntitlementWant): EntitlementVerdict {
  if (want.premium && !canReadPremium(e)) {
    return {
      ok: false,
      code: "CATEGORY_NOT_ALLOWED",
      message: `${subjectOf(want)} is premium: it needs a Developer or Professional key, or a key granting the '${PREMIUM_SCOPE}' scope${want.surface === "briefings" ? "" : " (or pay per request without a key)"}.`,
    };
  }
  if (want.region === EVERY_REGION && e.allowedRegions !== null) {
    const allowed = e.allowedRegions.join(",") || "none";
    return {
      ok: false,
      code: "REGION_NOT_ALLOWED",
      message: `This key reads only regions ${allowed}: name them with 'region' (region=${allowed}) rather than asking for every region.`,
    };
  }
  if (want.region !== null && e.allowedRegions !== null && !e.allowedRegions.includes(want.region)) {
    return {
      ok: false,
      code: "REGION_NOT_ALLOWED",
      message: `This key does not permit region '${want.region}' (allowed: ${e.allowedRegions.join(", ") || "none"}).`,
    };
  }
  return ALLOWED;
}

const ALLOWED: EntitlementVerdict = Object.freeze({ ok: true });

// `briefings`: saving a briefing (a Key route, which no payment can buy).
const subjectOf = (want: EntitlementWant) =>
  want.indicator
    ? `'${want.indicator}'`
    : want.surface === "signals"
      ? "Signals data"
      : want.surface === "briefings"
        ? "Saving a briefing"
        : "This data";

/**
 * The client address: the socket peer, unless that peer is a trusted proxy, in which case the forwarding
 * header is believed. For a list header (X-Forwarded-For) the right-most address that is not itself a
 * trusted proxy is the client: entries left of it may be forged by the client.
 */
export function clientAddress(
  socketAddress: string | null,
  forwarded: string | undefined,
  trustedProxies: readonly string[],
): string | null {
  const peer = socketAddress ? normalizeIp(socketAddress) : null;
  if (!peer || !forwarded || !trustedProxies.some((p) => ipMatches(peer, p))) return peer;
  const hops = forwarded
    .split(",")
    .map((s) => normalizeIp(s.trim()))
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!trustedProxies.some((p) => ipMatches(hops[i]!, p))) return hops[i]!;
  }
  return hops[0] ?? peer;
}

/**
 * The group a client address is counted in: an IPv4 address alone; an IPv6 address by its /64, written
 * `2001:db8:1:2::/64` (one subscriber's network: a host may take any of its 2^64 addresses at will). Text that is
 * not an address is its own group.
 */
export function addressGroup(ip: string): string {
  if (!ip.includes(":")) return ip;
  const groups = ipv6Groups(ip);
  return groups
    ? `${groups
        .slice(0, 4)
        .map((g) => g.toString(16))
        .join(":")}::/64`
    : ip;
}

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a zone dropped, a dotted IPv4 tail read), or null. */
function ipv6Groups(ip: string): number[] | null {
  let s = ip.toLowerCase().replace(/%.*$/, "");
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (tail) {
    const n = ipv4ToInt(tail[1]!);
    if (n === null) return null;
    s = `${s.slice(0, -tail[1]!.length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const parse = (h: string) =>
    h === "" ? [] : h.split(":").map((x) => (/^[0-9a-f]{1,4}$/.test(x) ? parseInt(x, 16) : NaN));
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...new Array<number>(halves.length === 2 ? missing : 0).fill(0), ...rest];
  return groups.some(Number.isNaN) ? null : groups;
}

function normalizeIp(ip: string): string {
  const v4mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return (v4mapped ? v4mapped[1]! : ip).toLowerCase();
}

/** `ip` equals `rule`, or falls in `rule` when it is an IPv4 CIDR (`10.0.0.0/8`). */
function ipMatches(ip: string, rule: string): boolean {
  const r = rule.trim().toLowerCase();
  const slash = r.indexOf("/");
  if (slash < 0) return normalizeIp(r) === ip;
  const bits = Number(r.slice(slash + 1));
  const a = ipv4ToInt(ip);
  const b = ipv4ToInt(r.slice(0, slash));
  if (a === null || b === null || !Number.isInteger(bits) || bits < 0 || bits > 32) return false;
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return (a & mask) >>> 0 === (b & mask) >>> 0;
}

function ipv4ToInt(ip: string): number | null {
  const parts = ip.split(".");
  if (parts.length !== 4) return null;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return null;
    n = n * 256 + Number(p);
  }
  return n >>> 0;
}
