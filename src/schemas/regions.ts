// Region resource (spec "Region") and the /v1/regions parameters.
import { z } from "@hono/zod-openapi";
import { REGION_TYPES, type RegionType } from "../domain/region-list";

export const regionTypeSchema = z
  .enum(REGION_TYPES as [RegionType, ...RegionType[]])
  .openapi({ description: `Region type: ${REGION_TYPES.join(", ")}.`, example: "county" });

export const regionSchema = z
  .object({
    code: z.string().openapi({ description: "Canonical code: ISO 3166-1 alpha-2 (country), 2-digit FIPS (state), 5-digit FIPS (county).", example: "06037" }),
    type: z.string().openapi({ example: "county" }),
    name: z.string().openapi({ example: "Los Angeles County" }),
    slug: z.string().openapi({ example: "los-angeles-county-ca" }),
    parent_code: z.string().nullable().openapi({ example: "06" }),
    fips_state: z.string().nullable().openapi({ example: "06" }),
    fips_county: z.string().nullable().openapi({ example: "037" }),
  })
  .openapi("Region");

export type Region = z.infer<typeof regionSchema>;

// Region inputs accept codes, USPS abbreviations, "US-CA", alpha-3, names and slugs (src/domain/regions.ts).
const regionInput = (name: string, description: string, example: string) =>
  z.string().min(1).max(200).openapi({ param: { name, in: "query" }, description, example });

export const regionListQuerySchema = z.object({
  type: regionTypeSchema.optional().openapi({ param: { name: "type", in: "query" } }),
  parent: regionInput(
    "parent",
    "Only the children of this region. Accepts a code (06, US), USPS abbreviation (CA), US-CA, ISO alpha-3, a name or a slug.",
    "CA",
  ).optional(),
});

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

export const regionListResponseSchema = z.object({ data: z.array(regionSchema) }).openapi("RegionList");
export const regionResponseSchema = z.object({ data: regionSchema }).openapi("RegionResponse");
