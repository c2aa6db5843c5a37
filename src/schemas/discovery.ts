// Bodies of the discovery and health endpoints (spec "Discovery and health").
import { z } from "@hono/zod-openapi";
import { PRICES_MICRO_USD } from "../pricing";
import { PAID_PLAN_IDS, PLAN_IDS, type PaidPlanId, type PlanId } from "../plans";

const url = (description: string, example: string) => z.string().url().openapi({ description, example });

const usd = z
  .string()
  .regex(/^\d+\.\d{2,6}$/)
  .openapi({ description: "USD amount as a decimal string", example: "0.01" });

export const planSchema = z
  .object({
    id: z.enum(PLAN_IDS as [PlanId, ...PlanId[]]),
    name: z.string().openapi({ example: "Developer" }),
    price_usd_per_month: usd,
    included_requests_per_month: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "null: no monthly quota", example: 100000 }),
    rate_limit_per_minute: z.number().int().openapi({ example: 300 }),
    overage_usd_per_1000_requests: usd.nullable().openapi({ description: "null: no overage", example: "0.50" }),
    checkout: z.string().url().nullable().openapi({
      description: "Where to subscribe; null for the free plan",
      example: "https://api.example.com/checkout/developer",
    }),
  })
  .openapi("Plan");

const surfaceKeys = [...Object.keys(PRICES_MICRO_USD), "catalog"];

export const pricingSchema = z
  .object({
    currency: z.literal("USD"),
    per_request: z.object(Object.fromEntries(surfaceKeys.map((k) => [k, usd.optional()]))).openapi({
      description:
        "Price per request by surface, the same on the x402 and L402 rails; `catalog` is free. Only the surfaces this " +
        "server's routes serve are listed (`derived_series`: the price of `svc:` series on the per-series surfaces).",
    }),
    plans: z.array(planSchema),
  })
  .openapi("Pricing");

export const serviceIndexSchema = z
  .object({
    name: z.string().openapi({ example: "Economic Time-Series API" }),
    version: z.string().openapi({ description: "Service build version", example: "0.1.0" }),
    contract_version: z.string().openapi({ description: "OpenAPI contract version", example: "1.0.0" }),
    docs: url("Interactive API reference", "https://api.example.com/docs"),
    openapi: url("OpenAPI 3.1 contract", "https://api.example.com/openapi.json"),
    mcp: url("Streamable HTTP MCP endpoint", "https://api.example.com/api/mcp"),
    llms: url("Compact agent discovery file", "https://api.example.com/llms.txt"),
    llms_full: url("Full agent discovery file", "https://api.example.com/llms-full.txt"),
    changelog: url("Public changelog", "https://api.example.com/changelog.md"),
    health: url("Service health", "https://api.example.com/api/health"),
    pricing: pricingSchema,
    checkout: url("Start a paid subscription", "https://api.example.com/checkout"),
    checkout_plans: z
      .object(Object.fromEntries(PAID_PLAN_IDS.map((p) => [p, z.string().url()])) as Record<PaidPlanId, z.ZodString>)
      .openapi({ description: "One checkout URL per paid plan" }),
  })
  .openapi("ServiceIndex");

export type ServiceIndex = z.infer<typeof serviceIndexSchema>;

export const healthReportSchema = z
  .object({
    status: z.enum(["ok", "degraded", "unavailable"]).openapi({
      description:
        "`ok` when the database answers; `degraded` when it does but Redis does not (rate limits are counted per process meanwhile); `unavailable` when the database does not answer (HTTP 503)",
    }),
    version: z.string().openapi({ example: "0.1.0" }),
    contract_version: z.string().openapi({ example: "1.0.0" }),
    database: z.object({
      kind: z.enum(["pglite", "postgres"]),
      ok: z.boolean(),
      latency_ms: z
        .number()
        .nonnegative()
        .openapi({ description: "Round trip of a `select 1`, or the time until the probe gave up", example: 0.4 }),
    }),
    rate_limits: z.object({
      store: z.enum(["memory", "redis"]).openapi({
        description: "Where per-key rate-limit counts are kept: this process, or Redis (shared by every node)",
      }),
      shared: z
        .boolean()
        .openapi({ description: "False while Redis is unreachable: each node counts alone until it answers again" }),
    }),
    jobs: z
      .object({
        runs_here: z.boolean().openapi({
          description: "Whether this node runs jobs (JOBS=on) or only enqueues them for `svc worker` processes",
        }),
        queues: z
          .array(
            z.object({
              queue: z.string().openapi({ example: "provision" }),
              queued: z
                .number()
                .int()
                .nonnegative()
                .openapi({ description: "Jobs waiting (including those waiting for a retry)" }),
              active: z.number().int().nonnegative().openapi({ description: "Jobs running" }),
              deferred: z
                .number()
                .int()
                .nonnegative()
                .openapi({ description: "Waiting jobs whose start is still ahead (retry backoff)" }),
              counted_at: z
                .string()
                .datetime()
                .nullable()
                .openapi({ description: "When the job engine counted them (at most a minute ago)" }),
            }),
          )
          .nullable()
          .openapi({
            description: "Queue depth; null when the job engine is not started on this node or could not be read",
          }),
        refresh: z.array(
          z.object({
            source: z.string().openapi({ example: "fred" }),
            schedule: z.string().nullable().openapi({
              description: "Cron of the scheduled refresh (REFRESH_SCHEDULES, in `timezone`); null: not scheduled",
              example: "30 9,17 * * 1-5",
            }),
            timezone: z.string().openapi({ example: "America/New_York" }),
            status: z
              .enum(["never", "running", "ok", "failed"])
              .openapi({ description: "Outcome of the last refresh" }),
            last_started_at: z.string().datetime().nullable(),
            last_finished_at: z.string().datetime().nullable(),
            last_success_at: z.string().datetime().nullable(),
            changed_series: z
              .number()
              .int()
              .nonnegative()
              .nullable()
              .openapi({ description: "Series the last successful refresh changed" }),
            error: z.string().nullable().openapi({ description: "Why the last refresh failed" }),
          }),
        ),
      })
      .optional()
      .openapi({
        description: "Jobs (provisioning, refresh, briefing runs): queue depth and the last refresh per source",
      }),
    loading: z
      .object({
        stored: z
          .number()
          .int()
          .nonnegative()
          .openapi({ description: "Parts of the first start's data stored and served", example: 2 }),
        total: z.number().int().positive().openapi({ example: 10 }),
        families: z.array(z.string()).openapi({
          description: "The parts still being stored, in the order they will be served",
          example: ["countries", "county-wages"],
        }),
      })
      .optional()
      .openapi({
        description:
          "Present while the service's first start is still storing its data, part by part (what people ask first first: the US national " +
          "series, then the states' monthly unemployment): a part is served once all of it is stored; until then its data routes answer 503 " +
          "`SERVICE_UNAVAILABLE` with `Retry-After`, and the catalog's coverage of its indicators says `loading`.",
      }),
  })
  .openapi("HealthReport");

export type HealthReport = z.infer<typeof healthReportSchema>;

/** What /api/health answers while the server starts (src/startup/starting.ts): live, not yet serving data. */
export const healthStartingSchema = z
  .object({
    status: z.literal("starting").openapi({
      description:
        "The server answers but does not serve data yet: data routes answer 503 `SERVICE_UNAVAILABLE` with `Retry-After`",
    }),
    version: z.string().openapi({ example: "0.1.0" }),
    contract_version: z.string().openapi({ example: "1.0.0" }),
    database: z.object({ kind: z.enum(["pglite", "postgres"]) }),
    startup: z.object({
      step: z.string().openapi({ description: "What the start is doing", example: "observations" }),
      done: z
        .number()
        .int()
        .nonnegative()
        .openapi({ description: "Units of the step done (rows, for the seed's observations)" }),
      total: z.number().int().nonnegative().openapi({ description: "Units of the step in all (0: not counted)" }),
      started_at: z.string().datetime(),
    }),
  })
  .openapi("HealthStarting");

export type HealthStarting = z.infer<typeof healthStartingSchema>;
