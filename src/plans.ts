// The one plan table (spec "Plans" and "Limits"): monthly price, included requests, per-minute rate
// limit and overage for each tier. Money is integer micro-USD like src/pricing.ts; key limits, the
// `/` index, llms.txt and checkout links all read it from here.
import { formatUsd } from "./pricing";

export type PlanId = "free" | "developer" | "professional";
export type PaidPlanId = Exclude<PlanId, "free">;

export type Plan = {
  id: PlanId;
  name: string;
  /** Base fee per month. */
  monthlyMicroUsd: number;
  /** Requests included per calendar month; null = no monthly quota (free tier). */
  includedRequestsPerMonth: number | null;
  rateLimitPerMinute: number;
  /** Price per 1,000 requests beyond the included ones; null = no overage (free tier). */
  overageMicroUsdPer1000: number | null;
  /** Reads premium indicators (`access_tier: premium`, `svc:` series) and signals without the `svc-premium` scope. */
  unrestricted: boolean;
};

export const PLANS: Record<PlanId, Plan> = {
  free: {
    id: "free",
    name: "Free",
    monthlyMicroUsd: 0,
    includedRequestsPerMonth: null,
    rateLimitPerMinute: 60,
    overageMicroUsdPer1000: null,
    unrestricted: false,
  },
  developer: {
    id: "developer",
    name: "Developer",
    monthlyMicroUsd: 19_000_000,
    includedRequestsPerMonth: 100_000,
    rateLimitPerMinute: 300,
    overageMicroUsdPer1000: 500_000,
    unrestricted: true,
  },
  professional: {
    id: "professional",
    name: "Professional",
    monthlyMicroUsd: 99_000_000,
    includedRequestsPerMonth: 1_000_000,
    rateLimitPerMinute: 1_000,
    overageMicroUsdPer1000: 250_000,
    unrestricted: true,
  },
};

export const PLAN_IDS: readonly PlanId[] = ["free", "developer", "professional"];
export const PAID_PLAN_IDS: readonly PaidPlanId[] = ["developer", "professional"];

export function isPaidPlan(id: string): id is PaidPlanId {
  return (PAID_PLAN_IDS as readonly string[]).includes(id);
}

/** `/checkout` starts a subscription; `/checkout/{plan}` preselects a paid plan. */
export function checkoutUrl(baseUrl: string): string {
  return `${baseUrl}/checkout`;
}

export function checkoutPlanUrl(baseUrl: string, plan: PaidPlanId): string {
  return `${baseUrl}/checkout/${plan}`;
}

export function checkoutPlanUrls(baseUrl: string): Record<PaidPlanId, string> {
  return Object.fromEntries(PAID_PLAN_IDS.map((p) => [p, checkoutPlanUrl(baseUrl, p)])) as Record<PaidPlanId, string>;
}

/** A plan as published (USD as decimal strings, like the per-request price list). */
export type PublicPlan = {
  id: PlanId;
  name: string;
  price_usd_per_month: string;
  included_requests_per_month: number | null;
  rate_limit_per_minute: number;
  overage_usd_per_1000_requests: string | null;
  checkout: string | null;
};

export function publicPlans(baseUrl: string): PublicPlan[] {
  return PLAN_IDS.map((id) => {
    const p = PLANS[id];
    return {
      id,
      name: p.name,
      price_usd_per_month: formatUsd(p.monthlyMicroUsd),
      included_requests_per_month: p.includedRequestsPerMonth,
      rate_limit_per_minute: p.rateLimitPerMinute,
      overage_usd_per_1000_requests: p.overageMicroUsdPer1000 === null ? null : formatUsd(p.overageMicroUsdPer1000),
      checkout: isPaidPlan(id) ? checkoutPlanUrl(baseUrl, id) : null,
    };
  });
}
