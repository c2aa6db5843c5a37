// Signal intervals (spec "Signal (interval)"): what the detectors found in a series (src/domain/signals.ts), one row
// per interval. A series has at most one interval per type starting at a given observation (the unique index); an
// open interval has valid_to null. Rows are reconciled with each detection run (db/repos/signals.ts): re-detection
// on unchanged data writes nothing. Listing pages by (valid_from, id) descending, keyset-style, so a cursor stays
// valid while intervals are written.
import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { indicators } from "./catalog";
import { regions } from "./regions";

export const signalIntervals = pgTable(
  "signal_intervals",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    indicatorId: uuid("indicator_id")
      .notNull()
      .references(() => indicators.id),
    regionCode: text("region_code")
      .notNull()
      .references(() => regions.code),
    type: text("type", { enum: ["acceleration", "extreme", "trend_break"] }).notNull(),
    direction: text("direction", { enum: ["up", "down"] }),
    strength: text("strength", { enum: ["weak", "neutral", "strong"] }).notNull(),
    /** Start of the current run: the first observation where the condition held (midnight UTC of its date). */
    validFrom: timestamp("valid_from", { withTimezone: true }).notNull(),
    /** The first observation where it no longer held, or the flip; null while open. */
    validTo: timestamp("valid_to", { withTimezone: true }),
    /** When a detection run first stored it. */
    detectedAt: timestamp("detected_at", { withTimezone: true }).notNull(),
    /** The last detection run that confirmed it with changed data. */
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull(),
    evidence: jsonb("evidence").$type<Record<string, unknown>>().notNull(),
  },
  (t) => [
    uniqueIndex("signal_intervals_series_type_from_idx").on(t.indicatorId, t.regionCode, t.type, t.validFrom),
    index("signal_intervals_from_id_idx").on(t.validFrom, t.id),
    index("signal_intervals_open_idx").on(t.validFrom, t.id).where(sql`valid_to is null`),
  ],
);
