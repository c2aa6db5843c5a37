// Catalog resources (spec "Source", "Indicator", "IndicatorDetail") and the /v1/sources and /v1/indicators parameters.
import { z } from "@hono/zod-openapi";
import { ACCESS_TIERS, CATEGORIES, FREQUENCIES } from "../../db/schema/catalog";
import { VALUE_KINDS } from "../domain/value-kinds";
import { booleanQuery, integerQuery } from "./query";

const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const categorySchema = z
  .enum(CATEGORIES, { message: `must be one of: ${CATEGORIES.join(", ")}` })
  .openapi({ description: `Top-level taxonomy domain: ${CATEGORIES.join(", ")}.`, example: "labor" });

export const frequencySchema = z
  .enum(FREQUENCIES, { message: `must be one of: ${FREQUENCIES.join(", ")}` })
  .openapi({ description: `Native frequency: ${FREQUENCIES.join(", ")}.`, example: "monthly" });

export const sourceSchema = z
  .object({
    slug: z.string().openapi({ example: "fred" }),
    name: z.string().openapi({ example: "FRED, Federal Reserve Bank of St. Louis" }),
    provider: z.string().nullable().openapi({ example: "Federal Reserve Bank of St. Louis" }),
    category: z.string().nullable().openapi({ example: "macro" }),
    indicator_count: z.number().int().min(0).openapi({
      description: "Indicators the source publishes in the catalog (active ones unless include_inactive=true).",
      example: 59,
    }),
    docs_url: z.string().url().nullable().openapi({ example: "https://fred.stlouisfed.org/docs/api/fred/" }),
    attribution: z.string().nullable().openapi({
      description: "The credit line the source asks users of its data to give.",
      example: "Source: World Bank, World Development Indicators (CC BY 4.0).",
    }),
    license: z
      .string()
      .nullable()
      .openapi({ description: "The terms the source's data are under.", example: "CC BY 4.0" }),
  })
  .openapi("Source");

export const coverageSchema = z
  .object({
    regions_held: z
      .number()
      .int()
      .min(0)
      .openapi({ description: "Regions whose series of this indicator holds observations.", example: 3144 }),
    regions_offered: z.number().int().min(0).openapi({
      description:
        "Regions the indicator is offered for: every region of its kinds when published per region, else its default region.",
      example: 3144,
    }),
    start: date.nullable().openapi({
      description: "First observation date held (any region); null when nothing is held.",
      example: "2010-01-01",
    }),
    end: date.nullable().openapi({ description: "Last observation date held (any region).", example: "2024-01-01" }),
    last_updated: z.string().datetime().nullable().openapi({
      description: "When a series of this indicator last changed in this service.",
      example: "2026-11-24T09:00:00.000Z",
    }),
    other_regions: z.enum(["none", "fetch_on_request", "computed_from_inputs", "not_available", "loading"]).openapi({
      description:
        "What happens for offered regions not held: `none` (all held), `fetch_on_request` (fetched from the upstream on the first read: 202, then a retry returns the data), `computed_from_inputs` (svc: series, computed wherever their inputs are held), `not_available` (an operator can load them with `svc import`), `loading` (the service's first start is still storing this indicator's data: its data routes answer 503 with `Retry-After` until it is served, seconds later).",
      example: "none",
    }),
    fetch_via: z.string().nullable().openapi({
      description: "The upstream that fetches regions not held, when other_regions is fetch_on_request.",
      example: null,
    }),
    note: z.string().openapi({
      description: "The same in one sentence.",
      example: "Held for all 3,144 counties, 2010-01-01 to 2024-01-01.",
    }),
  })
  .openapi("Coverage", {
    description: "What the service holds of an indicator before you pay for a read (additive to the spec's fields).",
  });

export const indicatorSchema = z
  .object({
    id: z.string().uuid().openapi({
      description: "Stable identifier (a name-based UUID of source and code).",
      example: "23e93bbf-1d3e-537e-b512-d96342d21e32",
    }),
    code: z.string().openapi({ description: "Provider code, or a `svc:` derived code.", example: "PAYEMS" }),
    name: z.string().openapi({ example: "All Employees, Total Nonfarm" }),
    description: z.string().nullable(),
    source: z.string().nullable().openapi({ description: "Source slug.", example: "fred" }),
    category: z.string().nullable().openapi({ example: "labor" }),
    subcategory: z.string().nullable().openapi({ description: "kebab-case", example: "payrolls" }),
    access_tier: z.enum(ACCESS_TIERS).openapi({ example: "free" }),
    unit: z.string().nullable().openapi({ example: "thousands of persons" }),
    frequency: z.string().nullable().openapi({ example: "monthly" }),
    is_active: z.boolean(),
    coverage: coverageSchema,
  })
  .openapi("Indicator");

export const valuesSchema = z
  .object({
    kind: z.enum(VALUE_KINDS).openapi({ example: "rate" }),
    span_months: z
      .number()
      .int()
      .min(1)
      .nullable()
      .openapi({ description: "For a `change`: the span it is over, in months; else null.", example: null }),
    note: z.string().openapi({
      example: "A rate or share: its change is a difference in percentage points, never a percent change.",
    }),
  })
  .openapi("Values", {
    description:
      "What the values are (additive to the spec's fields): `level` (an amount), `index`, `rate` (a rate, share or spread), `change` (a change " +
      "already computed over `span_months`, such as annual GDP growth) or `binary` (a 0/1 state). A percent change (transform=yoy, mom, qoq) " +
      "is meaningful for a level or an index only; ask, insights and the landing page choose their arithmetic from it.",
  });

export const indicatorDetailSchema = z
  .object({
    id: z.string().uuid(),
    code: z.string().openapi({ example: "PAYEMS" }),
    name: z.string().openapi({ example: "All Employees, Total Nonfarm" }),
    description: z.string().nullable(),
    source: z
      .object({ slug: z.string(), name: z.string() })
      .nullable()
      .openapi({ example: { slug: "fred", name: "FRED, Federal Reserve Bank of St. Louis" } }),
    category: z.string().nullable(),
    subcategory: z.string().nullable(),
    access_tier: z.enum(ACCESS_TIERS),
    unit: z.string().nullable(),
    frequency: z.string().nullable(),
    default_region: z
      .object({ code: z.string(), name: z.string() })
      .nullable()
      .openapi({ example: { code: "US", name: "United States" } }),
    available_regions: z.array(z.string()).openapi({
      description:
        "Codes of the regions a read can be served for, by code: the regions held, plus every offered region when the rest are fetched on request. Never a region that can neither be served nor fetched.",
      example: ["US"],
    }),
    date_range: z.object({ start: date.nullable(), end: date.nullable() }).openapi({
      description: "First and last observation dates over all of the indicator's series; null when none is held.",
      example: { start: "1980-01-01", end: "2025-11-01" },
    }),
    values: valuesSchema,
    coverage: coverageSchema,
  })
  .openapi("IndicatorDetail");

export type Source = z.infer<typeof sourceSchema>;
export type Indicator = z.infer<typeof indicatorSchema>;
export type IndicatorDetail = z.infer<typeof indicatorDetailSchema>;

const includeInactive = (what: string) =>
  booleanQuery({
    name: "include_inactive",
    default: false,
    description: `Also return inactive ${what} (\`true\` or \`false\`).`,
  });

export const sourceListQuerySchema = z.object({ include_inactive: includeInactive("sources") });

export const indicatorListQuerySchema = z.object({
  source: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .openapi({
      param: { name: "source", in: "query" },
      description: "Only this source's indicators (a source slug, e.g. `fred`).",
      example: "bls",
    }),
  category: categorySchema.optional().openapi({ param: { name: "category", in: "query" } }),
  frequency: frequencySchema.optional().openapi({ param: { name: "frequency", in: "query" } }),
  search: z
    .string()
    .trim()
    .min(1, { message: "must not be empty" })
    .max(200)
    .optional()
    .openapi({
      param: { name: "search", in: "query" },
      description: "Case-insensitive substring match over name, code and description.",
      example: "unemployment",
    }),
  include_inactive: includeInactive("indicators"),
  has_data: z
    .enum(["true", "false"], { message: "must be true or false" })
    .optional()
    .transform((v) => (v === undefined ? undefined : v === "true"))
    .openapi({
      param: { name: "has_data", in: "query" },
      type: "boolean",
      description:
        "`true`: only indicators the service holds observations of; `false`: only those it holds none of. Omitted: both.",
    }),
  limit: integerQuery({
    name: "limit",
    min: 0,
    max: 100,
    default: 50,
    description: "Page size, 0 to 100 (0 returns only the total).",
  }),
  offset: integerQuery({ name: "offset", min: 0, default: 0, description: "Rows to skip, >= 0." }),
});

export const indicatorPathSchema = z.object({
  code: z
    .string()
    .min(1)
    .max(200)
    .openapi({
      param: { name: "code", in: "path" },
      description: "Indicator code; codes may contain `.` and `:` (SP.POP.TOTL, svc:sahm_rule).",
      example: "PAYEMS",
    }),
});

export const indicatorDetailQuerySchema = z.object({
  source: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .openapi({
      param: { name: "source", in: "query" },
      description: "Source slug; picks one when several sources publish the code.",
      example: "fred",
    }),
  include_inactive: includeInactive("indicators"),
});

export const sourceListResponseSchema = z.object({ data: z.array(sourceSchema) }).openapi("SourceList");

export const indicatorListResponseSchema = z
  .object({
    data: z.array(indicatorSchema),
    meta: z.object({
      total: z.number().int().min(0),
      limit: z.number().int().min(0).max(100),
      offset: z.number().int().min(0),
    }),
  })
  .openapi("IndicatorList");

export const indicatorDetailResponseSchema = z
  .object({
    data: indicatorDetailSchema,
    meta: z.object({
      ambiguous_with: z.array(z.string()).openapi({
        description: "Other sources that publish the same code; pass `source` to pick one.",
        example: ["bls"],
      }),
    }),
  })
  .openapi("IndicatorDetailResponse");
