// The outbox of series writes: one row per series whose data changed and whose signals are not yet re-detected.
// Written by the database itself (triggers on `series`, migration 0007): a series row created, or its `version`
// moved (db/repos/observations.ts bumps it once per write that changed anything), upserts the row in the writer's
// own transaction, whichever process or path wrote (seed, COPY bulk load, import, ingest, provisioning, refresh).
// The detection job (src/jobs/detection.ts) drains it; `seq` (a sequence) tells a row it read from one re-written
// meanwhile, which it must leave for the next pass.
import { bigint, index, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";

export const seriesChanges = pgTable(
  "series_changes",
  {
    indicatorId: uuid("indicator_id").notNull(),
    regionCode: text("region_code").notNull(),
    seq: bigint("seq", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.indicatorId, t.regionCode] }), index("series_changes_seq_idx").on(t.seq)],
);
