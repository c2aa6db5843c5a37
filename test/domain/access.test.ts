import { describe, expect, test } from "bun:test";
import {
  DAY_MS,
  EVERY_REGION,
  addressGroup,
  GRACE_PERIOD_MS,
  INVOICE_SETTLE_MS,
  clientAddress,
  dunningEndsAt,
  dunningOver,
  entitlementVerdict,
  isMonth,
  monthEnd,
  monthInvoiceable,
  monthStart,
  monthToInvoice,
  previousMonth,
  overage,
  rateDecision,
  rateWindow,
  recoveryTokenState,
  slidingLimit,
  subscriptionState,
  usageMonth,
} from "../../src/domain/access";
import { PLANS } from "../../src/plans";

const t0 = new Date("2026-11-22T12:00:00Z");
const at = (ms: number) => new Date(t0.getTime() + ms);

describe("subscriptionState", () => {
  test("active without a failed payment", () => {
    expect(subscriptionState({ status: "active", paymentFailedAt: null }, at(365 * DAY_MS))).toBe("active");
  });
  test("a failed payment keeps it active through the 7-day grace, past due from the 7th day on", () => {
    const s = { status: "active" as const, paymentFailedAt: t0 };
    expect(subscriptionState(s, at(GRACE_PERIOD_MS - 1))).toBe("active");
    expect(subscriptionState(s, at(GRACE_PERIOD_MS))).toBe("past_due");
  });
  test("ended wins", () => {
    expect(subscriptionState({ status: "ended", paymentFailedAt: null }, t0)).toBe("ended");
  });
});

describe("slidingLimit", () => {
  const five = [0, 1000, 2000, 3000, 4000].map(at);
  test("fewer than max events is allowed", () => {
    expect(slidingLimit(five.slice(0, 4), at(5000), DAY_MS, 5)).toEqual({ allowed: true, retryAfterSeconds: 0 });
  });
  test("max events in the window refuses until the oldest leaves", () => {
    expect(slidingLimit(five, at(5000), DAY_MS, 5)).toEqual({ allowed: false, retryAfterSeconds: 86_395 });
    expect(slidingLimit(five, at(DAY_MS - 1), DAY_MS, 5).allowed).toBe(false);
    expect(slidingLimit(five, at(DAY_MS), DAY_MS, 5).allowed).toBe(true);
  });
});

describe("recoveryTokenState", () => {
  const token = { expiresAt: at(30 * 60_000), consumedAt: null };
  test("issued until 30 minutes, expired at 30 minutes", () => {
    expect(recoveryTokenState(token, at(30 * 60_000 - 1))).toBe("issued");
    expect(recoveryTokenState(token, at(30 * 60_000))).toBe("expired");
  });
  test("consumed stays consumed", () => {
    expect(recoveryTokenState({ ...token, consumedAt: at(1) }, at(2))).toBe("consumed");
    expect(recoveryTokenState({ ...token, consumedAt: at(1) }, at(DAY_MS))).toBe("consumed");
  });
});

describe("rate windows", () => {
  test("fixed minute aligned to the epoch; reset is the window's end in Unix seconds", () => {
    const w = rateWindow(new Date("2026-11-22T12:00:30.250Z"));
    expect(w.resetUnix).toBe(Date.UTC(2026, 10, 22, 12, 1, 0) / 1000);
    expect(w.msUntilReset).toBe(29_750);
  });
  test("the limit-th request passes with 0 remaining; the next is refused with Retry-After", () => {
    const w = rateWindow(new Date("2026-11-22T12:00:30.250Z"));
    expect(rateDecision(60, 60, w)).toEqual({
      allowed: true,
      limit: 60,
      remaining: 0,
      resetUnix: w.resetUnix,
      retryAfterSeconds: 0,
    });
    const refused = rateDecision(61, 60, w);
    expect(refused).toEqual({ allowed: false, limit: 60, remaining: 0, resetUnix: w.resetUnix, retryAfterSeconds: 30 });
  });
});

describe("overage", () => {
  test("free has none", () => {
    expect(overage(PLANS.free, 10_000_000)).toEqual({ overageRequests: 0, amountMicroUsd: 0 });
  });
  test("developer: 0.50 per 1,000 beyond 100,000", () => {
    expect(overage(PLANS.developer, 100_000)).toEqual({ overageRequests: 0, amountMicroUsd: 0 });
    expect(overage(PLANS.developer, 100_001)).toEqual({ overageRequests: 1, amountMicroUsd: 500 });
    expect(overage(PLANS.developer, 102_000)).toEqual({ overageRequests: 2000, amountMicroUsd: 1_000_000 });
  });
  test("professional: 0.25 per 1,000 beyond 1,000,000", () => {
    expect(overage(PLANS.professional, 1_000_000)).toEqual({ overageRequests: 0, amountMicroUsd: 0 });
    expect(overage(PLANS.professional, 1_004_000)).toEqual({ overageRequests: 4000, amountMicroUsd: 1_000_000 });
  });
  test("usage month is the UTC calendar month", () => {
    expect(usageMonth(new Date("2026-11-30T23:59:59.999Z"))).toBe("2026-11");
    expect(usageMonth(new Date("2026-12-01T00:00:00Z"))).toBe("2026-12");
  });
  test("usage month is right whichever month was asked before (it is remembered between calls)", () => {
    const cases: [string, string][] = [
      ["2026-12-31T23:59:59.999Z", "2026-12"],
      ["2027-01-01T00:00:00Z", "2027-01"],
      ["2026-11-15T08:00:00Z", "2026-11"],
      ["2028-02-29T12:00:00Z", "2028-02"],
      ["2028-03-01T00:00:00Z", "2028-03"],
      ["2028-02-01T00:00:00Z", "2028-02"],
      ["2028-01-31T23:59:59.999Z", "2028-01"],
      ["1999-09-30T23:59:59.999Z", "1999-09"],
      ["1999-10-01T00:00:00Z", "1999-10"],
    ];
    expect(cases.map(([t]) => usageMonth(new Date(t)))).toEqual(cases.map(([, m]) => m));
  });
});

describe("entitlementVerdict", () => {
  const free = { unrestricted: false, scopes: [], allowedRegions: null };
  test("premium needs an unrestricted plan or the svc-premium scope", () => {
    expect(entitlementVerdict(free, { premium: true, region: null, indicator: "x" })).toMatchObject({
      ok: false,
      code: "CATEGORY_NOT_ALLOWED",
    });
    expect(
      entitlementVerdict({ ...free, scopes: ["svc-premium"] }, { premium: true, region: null, indicator: "x" }),
    ).toEqual({ ok: true });
    expect(
      entitlementVerdict({ ...free, unrestricted: true }, { premium: true, region: null, indicator: "x" }),
    ).toEqual({ ok: true });
    expect(entitlementVerdict(free, { premium: false, region: null, indicator: "x" })).toEqual({ ok: true });
  });
  test("the refusal names what is premium; saving a briefing (a Key route) offers no payment instead", () => {
    expect(entitlementVerdict(free, { premium: true, region: null, indicator: "svc:x" })).toMatchObject({
      message: expect.stringMatching(/^'svc:x' is premium: .*\(or pay per request without a key\)\.$/),
    });
    expect(entitlementVerdict(free, { premium: true, region: null, indicator: null, surface: "briefings" })).toEqual({
      ok: false,
      code: "CATEGORY_NOT_ALLOWED",
      message:
        "Saving a briefing is premium: it needs a Developer or Professional key, or a key granting the 'svc-premium' scope.",
    });
  });
  test("a region-restricted key reads only its regions", () => {
    const k = { ...free, allowedRegions: ["06", "US"] };
    expect(entitlementVerdict(k, { premium: false, region: "06", indicator: "x" })).toEqual({ ok: true });
    expect(entitlementVerdict(k, { premium: false, region: "48", indicator: "x" })).toMatchObject({
      ok: false,
      code: "REGION_NOT_ALLOWED",
    });
  });
  test("every region at once (a list without a region filter): refused to a region-restricted key, which is told to name its regions", () => {
    expect(
      entitlementVerdict(
        { ...free, allowedRegions: ["06", "US"] },
        { premium: false, region: EVERY_REGION, indicator: null },
      ),
    ).toEqual({
      ok: false,
      code: "REGION_NOT_ALLOWED",
      message:
        "This key reads only regions 06,US: name them with 'region' (region=06,US) rather than asking for every region.",
    });
    expect(
      entitlementVerdict({ ...free, allowedRegions: null }, { premium: false, region: EVERY_REGION, indicator: null }),
    ).toEqual({ ok: true });
  });
});

describe("addressGroup", () => {
  test("IPv4: the address itself", () => {
    expect(addressGroup("203.0.113.9")).toBe("203.0.113.9");
  });
  test("IPv6: its /64, however the address is written", () => {
    expect(addressGroup("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(addressGroup("2001:0DB8:0001:0002:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(addressGroup("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(addressGroup("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(addressGroup("::1")).toBe("0:0:0:0::/64");
    expect(addressGroup("2001:db8::")).toBe("2001:db8:0:0::/64");
    expect(addressGroup("64:ff9b::192.0.2.33")).toBe("64:ff9b:0:0::/64");
  });
  test("not an address: its own group", () => {
    for (const bad of ["1:2:3:4:5:6:7:8:9", "1::2::3", "gggg::1", "1:2:3:4:5:6:7"]) expect(addressGroup(bad)).toBe(bad);
  });
});

describe("clientAddress", () => {
  test("the socket peer when it is not a trusted proxy; forwarding headers are then ignored", () => {
    expect(clientAddress("203.0.113.9", "198.51.100.1", ["10.0.0.1"])).toBe("203.0.113.9");
  });
  test("behind a trusted proxy: the right-most untrusted hop", () => {
    expect(clientAddress("10.0.0.1", "1.1.1.1, 198.51.100.7", ["10.0.0.1"])).toBe("198.51.100.7");
    expect(clientAddress("10.0.0.1", "198.51.100.7, 10.0.0.2", ["10.0.0.0/8"])).toBe("198.51.100.7");
    expect(clientAddress("::ffff:10.0.0.1", "198.51.100.7", ["10.0.0.1"])).toBe("198.51.100.7");
  });
  test("no socket address and no proxy: unknown", () => {
    expect(clientAddress(null, "198.51.100.7", ["10.0.0.1"])).toBe(null);
  });
});

describe("dunning", () => {
  const s = { status: "active" as const, paymentFailedAt: t0 };
  test("due when grace (7 days) plus the dunning period has passed since the failed payment", () => {
    expect(dunningEndsAt(t0, 14 * DAY_MS).toISOString()).toBe("2026-12-13T12:00:00.000Z");
    expect(dunningOver(s, at(21 * DAY_MS - 1), 14 * DAY_MS)).toBe(false);
    expect(dunningOver(s, at(21 * DAY_MS), 14 * DAY_MS)).toBe(true);
    expect(dunningOver(s, at(GRACE_PERIOD_MS), 0)).toBe(true);
  });
  test("never for a paid-up or an ended subscription", () => {
    expect(dunningOver({ status: "active", paymentFailedAt: null }, at(365 * DAY_MS), 0)).toBe(false);
    expect(dunningOver({ status: "ended", paymentFailedAt: t0 }, at(365 * DAY_MS), 0)).toBe(false);
  });
});

describe("months", () => {
  test("bounds in UTC, across year ends and leap February", () => {
    expect(monthStart("2026-11").toISOString()).toBe("2026-11-01T00:00:00.000Z");
    expect(monthEnd("2026-12").toISOString()).toBe("2027-01-01T00:00:00.000Z");
    expect(monthEnd("2028-02").getTime() - monthStart("2028-02").getTime()).toBe(29 * DAY_MS);
    expect(previousMonth("2027-01")).toBe("2026-12");
    expect(previousMonth("2026-11")).toBe("2026-10");
    for (const good of ["2026-01", "2026-12"]) expect(isMonth(good)).toBe(true);
    for (const bad of ["2026-00", "2026-13", "2026-1", "26-11", "2026-11-01"]) expect(isMonth(bad)).toBe(false);
    expect(() => monthStart("2026-13")).toThrow(RangeError);
  });
  test("a month is invoiceable from its end plus the settling delay (5 minutes)", () => {
    const end = Date.parse("2026-12-01T00:00:00Z");
    expect(INVOICE_SETTLE_MS).toBe(5 * 60_000);
    expect(monthInvoiceable("2026-11", new Date(end + INVOICE_SETTLE_MS - 1))).toBe(false);
    expect(monthInvoiceable("2026-11", new Date(end + INVOICE_SETTLE_MS))).toBe(true);
    expect(monthToInvoice(new Date(end + INVOICE_SETTLE_MS - 1))).toBe("2026-10");
    expect(monthToInvoice(new Date(end + INVOICE_SETTLE_MS))).toBe("2026-11");
    expect(monthToInvoice(new Date("2027-01-01T00:05:00Z"))).toBe("2026-12");
  });
});
