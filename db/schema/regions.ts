// Regions: countries (ISO 3166-1 alpha-2), US states (2-digit FIPS), US counties (5-digit FIPS).
import { index, pgTable, text } from "drizzle-orm/pg-core";

export const regions = pgTable(
  "regions",
  {
    code: text("code").primaryKey(),
    type: text("type").notNull(),
    name: text("name").notNull(),
    slug: text("slug").notNull().unique(),
    parentCode: text("parent_code"),
    fipsState: text("fips_state"),
    fipsCounty: text("fips_county"),
    // Other codes people type for this place: USPS abbreviation, ISO alpha-3, 'US-CA'.
    aliases: text("aliases").array().notNull().default([]),
  },
  (t) => [index("regions_type_idx").on(t.type), index("regions_parent_idx").on(t.parentCode)],
);
