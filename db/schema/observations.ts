// Series (indicator x region) and their observations. Every revision of every date is kept;
// exactly one row per (series, date) has is_latest = true, and reads go through the partial index on
// those rows: "one series, a date range, newest first" is a single backward range scan of
// observations_latest_idx, however many revisions or other series the table holds.
// That index also INCLUDEs revision, value, is_preliminary and source_updated_at (migration
// 0000_init.sql, which drizzle-kit cannot express), so reads of latest rows are index-only
// scans and do not visit the heap, where a daily-refreshed series' rows lie one per page. Keep it
// covering if this declaration ever changes. All writes go through db/repos/observations.ts.
import { sql } from "drizzle-orm";
import {
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { indicators } from "./catalog";
import { regions } from "./regions";

export const series = pgTable(
  "series",
  {
    id: serial("id").primaryKey(),
    indicatorId: uuid("indicator_id")
      .notNull()
      .references(() => indicators.id),
    regionCode: text("region_code")
      .notNull()
      .references(() => regions.code),
    firstDate: date("first_date"),
    lastDate: date("last_date"),
    observationCount: integer("observation_count").notNull().default(0),
    // Bumped on every write that changes what reads return: caches key on it.
    version: integer("version").notNull().default(0),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("series_indicator_region_idx").on(t.indicatorId, t.regionCode),
    index("series_region_idx").on(t.regionCode),
  ],
);

export const observations = pgTable(
  "observations",
  {
    seriesId: integer("series_id")
      .notNull()
      .references(() => series.id, { onDelete: "cascade" }),
    date: date("date").notNull(),
    revision: integer("revision").notNull(),
    value: doublePrecision("value"),
    isPreliminary: boolean("is_preliminary").notNull().default(false),
    isLatest: boolean("is_latest").notNull().default(true),
    sourceUpdatedAt: timestamp("source_updated_at", { withTimezone: true }),
    recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.seriesId, t.date, t.revision] }),
    uniqueIndex("observations_latest_idx").on(t.seriesId, t.date).where(sql`is_latest`),
  ],
);
