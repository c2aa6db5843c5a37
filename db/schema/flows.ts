// Origin-destination flows (src/domain/flows.ts): one row per directed edge, measure, period and dataset. Both ends
// reference regions, so a pseudo-area of a raw file (a total, "other flows", abroad) can never be stored as a place.
// Reads: the primary key serves "from an origin, one measure, dataset and period", flows_destination_idx the same
// into a destination; both lead with (end, measure, dataset, period_start) so the slices held for a place are found
// by a loose index scan (db/repos/flows.ts listFlowSlices), one probe per slice. All writes go through db/repos/flows.ts.
import { date, doublePrecision, index, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { regions } from "./regions";

export const flows = pgTable(
  "flows",
  {
    originCode: text("origin_code")
      .notNull()
      .references(() => regions.code),
    destinationCode: text("destination_code")
      .notNull()
      .references(() => regions.code),
    measure: text("measure").notNull(),
    periodStart: date("period_start").notNull(),
    periodEnd: date("period_end").notNull(),
    // The dataset names the source (src/domain/flows.ts FLOW_DATASETS); kept as the source slug too for reads.
    dataset: text("dataset").notNull(),
    source: text("source").notNull(),
    // Null: suppressed by the source.
    value: doublePrecision("value"),
    moe: doublePrecision("moe"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.originCode, t.measure, t.dataset, t.periodStart, t.destinationCode] }),
    index("flows_destination_idx").on(t.destinationCode, t.measure, t.dataset, t.periodStart),
  ],
);
