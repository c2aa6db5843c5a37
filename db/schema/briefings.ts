// Briefings (spec "Briefing", "Briefings"): saved questions run weekly at the briefing depth, and their runs.
// - briefings: a public one (curated, db/seed/briefings.ts) has a slug and no owner; a saved one belongs to the key
//   that created it and has no slug. Its weekly schedule is derived from its id (src/domain/briefings.ts) and kept
//   as a pg-boss schedule of the `briefing` queue (src/jobs/runtime.ts).
// - briefing_runs: every run, good or failed, with the stored Ask response, timings and error. `seq` orders them
//   (latest first) whatever the clock said. One good run per briefing and occurrence (`scheduled_for`): a second
//   process running the same occurrence stores nothing (the partial unique index); failed runs are all kept.
import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { apiKeys } from "./keys";
import { regions } from "./regions";

/** A stored Ask response: the JSON object the briefing service wrote (its shape is the service's, src/schemas/ask.ts). */
export type StoredAskResponse = { [field: string]: unknown };

export const briefings = pgTable(
  "briefings",
  {
    id: uuid("id").primaryKey(),
    /** The key that saved it; null for a public (curated) briefing. */
    ownerKeyId: uuid("owner_key_id").references(() => apiKeys.id),
    /** Public briefings only: their address under /v1/briefings/public. */
    slug: text("slug"),
    name: text("name").notNull(),
    question: text("question").notNull(),
    cadence: text("cadence", { enum: ["weekly"] }).notNull(),
    regionCode: text("region_code").references(() => regions.code),
    /** The `window` parameter (`all` or N with d, m, y); null: the ask's default. */
    window: text("window"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex("briefings_slug_idx").on(t.slug),
    index("briefings_owner_created_idx").on(t.ownerKeyId, t.createdAt),
    check("briefings_public_xor_owned", sql`(${t.ownerKeyId} is null) = (${t.slug} is not null)`),
  ],
);

export const briefingRuns = pgTable(
  "briefing_runs",
  {
    seq: bigserial("seq", { mode: "number" }).primaryKey(),
    id: uuid("id").notNull().defaultRandom(),
    briefingId: uuid("briefing_id")
      .notNull()
      .references(() => briefings.id, { onDelete: "cascade" }),
    /** The weekly occurrence the run answers for. */
    scheduledFor: timestamp("scheduled_for", { withTimezone: true }).notNull(),
    status: text("status", { enum: ["ok", "no_coverage", "no_data", "failed"] }).notNull(),
    /** The Ask response (answer, citations, resolved, grounded, truncated, status, message, meta); null when failed. */
    response: jsonb("response").$type<StoredAskResponse>(),
    /** Copies of the response's flags, for operators' queries; null when failed. */
    grounded: boolean("grounded"),
    truncated: boolean("truncated"),
    /** Why a failed run failed (safe to show its owner); null otherwise. */
    error: text("error"),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
    finishedAt: timestamp("finished_at", { withTimezone: true }).notNull(),
    durationMs: integer("duration_ms").notNull(),
  },
  (t) => [
    uniqueIndex("briefing_runs_id_idx").on(t.id),
    index("briefing_runs_briefing_seq_idx").on(t.briefingId, t.seq),
    uniqueIndex("briefing_runs_good_occurrence_idx").on(t.briefingId, t.scheduledFor).where(sql`status <> 'failed'`),
    check(
      "briefing_runs_failed_has_error",
      sql`(${t.status} = 'failed') = (${t.response} is null) and (${t.status} = 'failed') = (${t.error} is not null)`,
    ),
  ],
);
