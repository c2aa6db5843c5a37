// Which version of each shipped data snapshot the database holds: a start loads a snapshot whose version it does not
// hold yet (a fresh database, or an upgrade that ships newer data) and skips it otherwise.
import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

export const seedSnapshots = pgTable("seed_snapshots", {
  name: text("name").primaryKey(),
  version: text("version").notNull(),
  rows: integer("rows").notNull(),
  loadedAt: timestamp("loaded_at", { withTimezone: true }).notNull(),
});
