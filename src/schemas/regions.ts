// Region resource (spec "Region") and the /v1/regions parameters.
import { z } from "@hono/zod-openapi";
import { REGION_TYPES, type RegionType } from "../domain/region-list";
import { regionKey } from "../domain/regions";
import { integerQuery, optionalIntegerQuery } from "./query";

export const regionTypeSchema = z
  .enum(REGION_TYPES as [RegionType, ...RegionType[]])
  .openapi({ description: `Region type: ${REGION_TYPES.join(", ")}.`, example: "county" });

export const regionSchema = z
  .object({
    code: z.string().openapi({
      description: "Canonical code: ISO 3166-1 alpha-2 (country), 2-digit FIPS (state), 5-digit FIPS (county).",
      example: "06037",
    }),
    type: z.string().openapi({ example: "county" }),
    name: z.string().openapi({ example: "Los Angeles County" }),
    slug: z.string().openapi({ example: "los-angeles-county-ca" }),
    parent_code: z.string().nullable().openapi({ example: "06" }),
    fips_state: z.string().nullable().openapi({ example: "06" }),
    fips_county: z.string().nullable().openapi({ example: "037" }),
  })
  .openapi("Region");

export type Region = z.infer<typeof regionSchema>;

/** The largest page of regions one request may ask for (the whole list, about 3,450 rows, comes without `limit`). */
export const REGION_PAGE_MAX = 1000;

// Region inputs accept codes, USPS abbreviations, "US-CA", alpha-3, names and slugs (src/domain/regions.ts).
const regionInput = (name: string, description: string, example: string) =>
  z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name, in: "query" }, description, example });

export const regionListQuerySchema = z.object({
  type: regionTypeSchema.optional().openapi({ param: { name: "type", in: "query" } }),
  parent: regionInput(
    "parent",
    "Only the children of this region. Accepts a code (06, US), USPS abbreviation (CA), US-CA, ISO alpha-3, a name or a slug.",
    "CA",
  ).optional(),
  search: z
    .string()
    .trim()
    .min(1, { message: "must not be empty" })
    .max(200)
    .refine((s) => regionKey(s) !== "", { message: "must contain a letter or a digit" })
    .optional()
    .openapi({
      param: { name: "search", in: "query" },
      description:
        "Case- and accent-insensitive substring match over code, name, slug and other names (`travis`, `los angeles county`, `US-TX`, `russia`).",
      example: "los angeles",
    }),
  limit: optionalIntegerQuery({
    name: "limit",
    min: 0,
    max: REGION_PAGE_MAX,
    description: `Page size, 0 to ${REGION_PAGE_MAX} (0 returns only the total). Left out: every matching region.`,
  }),
  offset: integerQuery({ name: "offset", min: 0, default: 0, description: "Rows to skip, >= 0." }),
});

export type RegionListQuery = z.output<typeof regionListQuerySchema>;

export const regionPathSchema = z.object({
  code: z
    .string()
    .min(1)
    .max(200)
    .openapi({
      param: { name: "code", in: "path" },
      description: "A region code, USPS abbreviation, US-XX, ISO alpha-3 or numeric code, name or slug.",
      example: "06037",
    }),
});

export const regionListResponseSchema = z
  .object({
    data: z.array(regionSchema),
    meta: z.object({
      total: z.number().int().min(0).openapi({ description: "Regions matching the filters (every page together)." }),
      limit: z
        .number()
        .int()
        .min(0)
        .max(REGION_PAGE_MAX)
        .nullable()
        .openapi({ description: "The page size asked for; null when `limit` was left out (every match)." }),
      offset: z.number().int().min(0),
    }),
  })
  .openapi("RegionList");
export const regionResponseSchema = z.object({ data: regionSchema }).openapi("RegionResponse");
