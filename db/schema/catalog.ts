// Catalog aggregate: data sources and the indicators they publish.
import { sql } from "drizzle-orm";
import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

// The catalog's fixed vocabularies. Columns stay plain text (new values need no migration); the seed,
// the API schemas and the filters validate against these lists.
/** Top-level taxonomy domains (spec "Indicator"). */
export const CATEGORIES = [
  "macro",
  "labor",
  "prices",
  "markets",
  "housing",
  "government-finance",
  "demographics",
  "business",
  "energy",
  "crypto",
  "health",
  "environment",
  "education",
] as const;
export type Category = (typeof CATEGORIES)[number];

/** Native observation frequencies, finest first. */
export const FREQUENCIES = ["daily", "weekly", "monthly", "quarterly", "annual"] as const;
export type Frequency = (typeof FREQUENCIES)[number];

export const ACCESS_TIERS = ["free", "premium"] as const;
export type AccessTier = (typeof ACCESS_TIERS)[number];

export const sources = pgTable("sources", {
  slug: text("slug").primaryKey(),
  name: text("name").notNull(),
  provider: text("provider"),
  category: text("category"),
  docsUrl: text("docs_url"),
  isActive: boolean("is_active").notNull().default(true),
  // The credit line the source asks users of its data to give, and the terms the data are under.
  attribution: text("attribution"),
  license: text("license"),
});

export const indicators = pgTable(
  "indicators",
  {
    id: uuid("id").primaryKey(),
    code: text("code").notNull(),
    sourceSlug: text("source_slug").references(() => sources.slug),
    name: text("name").notNull(),
    description: text("description"),
    category: text("category"),
    subcategory: text("subcategory"),
    accessTier: text("access_tier", { enum: ["free", "premium"] })
      .notNull()
      .default("free"),
    unit: text("unit"),
    frequency: text("frequency"),
    isActive: boolean("is_active").notNull().default(true),
    // Region kinds the indicator is offered for: 'country', 'state', 'county'.
    regionKinds: text("region_kinds").array().notNull().default(sql`'{}'::text[]`),
    defaultRegionCode: text("default_region_code"),
    // true: higher is better (payrolls); false: lower is better (unemployment); null: neutral.
    upIsGood: boolean("up_is_good"),
    // Provider-specific details: upstream series id patterns, derived-series formula and inputs.
    meta: jsonb("meta").$type<Record<string, unknown>>().notNull().default({}),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("indicators_code_source_idx").on(t.code, t.sourceSlug),
    index("indicators_category_idx").on(t.category),
  ],
);
