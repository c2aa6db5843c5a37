// What the job engine's tables (pg-boss, its own schema) do not say: per series not yet held, the state of its
// on-demand provisioning; per source, its last scheduled refresh. Jobs themselves live in pg-boss.
import { sql } from "drizzle-orm";
import { check, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { indicators } from "./catalog";
import { regions } from "./regions";

/**
 * One row per series a request asked for that the store did not hold, while it is being fetched ('provisioning') or
 * after the upstream gave up ('failed'). The row goes once the series is held. `request_ref` names one provisioning
 * (every 202 of it carries the same ref); a new one starts only after a failure whose `retry_at` has passed.
 */
export const provisioning = pgTable(
  "provisioning",
  {
    indicatorId: uuid("indicator_id")
      .notNull()
      .references(() => indicators.id),
    regionCode: text("region_code")
      .notNull()
      .references(() => regions.code),
    requestRef: uuid("request_ref").notNull(),
    state: text("state", { enum: ["provisioning", "failed"] }).notNull(),
    /** The upstream that answered the last failed attempt (or that serves the series). */
    provider: text("provider"),
    lastError: text("last_error"),
    /** Fetch attempts that failed so far in this provisioning. */
    failedAttempts: integer("failed_attempts").notNull().default(0),
    /** state 'failed': when a request may start a new provisioning. */
    retryAt: timestamp("retry_at", { withTimezone: true }),
    requestedAt: timestamp("requested_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.indicatorId, t.regionCode] }),
    check("provisioning_failed_has_retry_at", sql`${t.state} <> 'failed' or ${t.retryAt} is not null`),
  ],
);

/** The last scheduled (or manual) refresh of each source: what /api/health reports. */
export const sourceRefreshes = pgTable("source_refreshes", {
  source: text("source").primaryKey(),
  lastStartedAt: timestamp("last_started_at", { withTimezone: true }).notNull(),
  lastFinishedAt: timestamp("last_finished_at", { withTimezone: true }),
  /** 'running', 'ok' or 'failed'. */
  status: text("status", { enum: ["running", "ok", "failed"] }).notNull(),
  changedSeries: integer("changed_series"),
  lastError: text("last_error"),
  /** When the last refresh that succeeded finished. */
  lastSuccessAt: timestamp("last_success_at", { withTimezone: true }),
});
