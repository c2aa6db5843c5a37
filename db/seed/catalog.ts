// Seeds the curated catalog (db/seed/catalog-data): an idempotent upsert of sources and indicators that rewrites
// only rows whose curated values changed. Indicator ids are name-based UUIDs (RFC 4122 version 5) of
// `${source}:${code}` in this project's namespace, so the same indicator has the same id on every database.
import { createHash } from "node:crypto";
import type { Db } from "../client";
import { CATEGORIES, FREQUENCIES } from "../schema";
import { upsertIndicators, upsertSources, type NewIndicatorRow } from "../repos/catalog";
import { CATALOG, type IndicatorSeed, type SourceCatalog } from "./catalog-data";
import { valueSpecProblems, valuesMeta } from "../../src/domain/value-kinds";
import { SHORT_NAMES, withShortName } from "./catalog-data/short-names";
import { deriveShortName, SHORT_NAME_MAX } from "../../src/domain/short-name";
import type { SeedOptions } from "./options";

/** RFC 4122 name-based UUID, version 5 (SHA-1). */
export function uuidV5(name: string, namespace: string): string {
  const ns = Buffer.from(namespace.replace(/-/g, ""), "hex");
  if (ns.length !== 16) throw new Error(`invalid namespace uuid ${namespace}`);
  const bytes = createHash("sha1").update(ns).update(Buffer.from(name, "utf8")).digest().subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** RFC 4122 appendix C namespace for URLs. */
export const NAMESPACE_URL = "6ba7b811-9dad-11d1-80b4-00c04fd430c8";
/** This project's indicator namespace: uuidV5("urn:econ-series-svc:indicator", NAMESPACE_URL). */
export const INDICATOR_NAMESPACE = uuidV5("urn:econ-series-svc:indicator", NAMESPACE_URL);

/** The stable id of an indicator. */
export function indicatorId(sourceSlug: string, code: string): string {
  return uuidV5(`${sourceSlug}:${code}`, INDICATOR_NAMESPACE);
}

const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** Every rule of catalog-data/types.ts that can be checked mechanically; returns the violations. */
export function catalogProblems(catalog: readonly SourceCatalog[]): string[] {
  const problems: string[] = [];
  const slugs = new Set<string>();
  for (const { source, indicators } of catalog) {
    if (slugs.has(source.slug)) problems.push(`source ${source.slug} listed twice`);
    slugs.add(source.slug);
    const codes = new Set<string>();
    for (const i of indicators) {
      const at = `${source.slug}:${i.code}`;
      if (codes.has(i.code)) problems.push(`${at} listed twice`);
      codes.add(i.code);
      if (!(CATEGORIES as readonly string[]).includes(i.category))
        problems.push(`${at}: unknown category ${i.category}`);
      if (!(FREQUENCIES as readonly string[]).includes(i.frequency))
        problems.push(`${at}: unknown frequency ${i.frequency}`);
      if (!KEBAB.test(i.subcategory)) problems.push(`${at}: subcategory ${i.subcategory} is not kebab-case`);
      problems.push(...shortNameProblems(at, i));
      if (i.regionKinds.length === 0) problems.push(`${at}: no region kinds`);
      if (!i.values) problems.push(`${at}: does not state what its values are (catalog-data/value-kinds.ts)`);
      else for (const p of valueSpecProblems(i.values, i.unit)) problems.push(`${at}: ${p}`);
      const derived = i.code.startsWith("svc:");
      if (derived !== (source.slug === "svc"))
        problems.push(`${at}: svc: codes belong to the svc source and only there`);
      if (derived) {
        const d = (i.meta as { derived?: { inputs?: unknown; formula?: unknown } }).derived;
        if ((i.accessTier ?? "free") !== "premium") problems.push(`${at}: derived series must be premium`);
        if (!d || !Array.isArray(d.inputs) || d.inputs.length === 0 || typeof d.formula !== "string") {
          problems.push(`${at}: meta.derived needs inputs and a formula`);
        }
      }
    }
  }
  return problems;
}

/** A name too long to shorten by rule needs a short name (catalog-data/short-names.ts), itself short. */
function shortNameProblems(at: string, i: IndicatorSeed): string[] {
  const short = SHORT_NAMES.get(i.code);
  if (short === undefined)
    return deriveShortName(i.name).length > SHORT_NAME_MAX
      ? [`${at}: name longer than ${SHORT_NAME_MAX} characters and no short name`]
      : [];
  return short.length > SHORT_NAME_MAX || short.length >= i.name.length
    ? [`${at}: short name "${short}" is longer than ${SHORT_NAME_MAX} characters or than the name`]
    : [];
}

function indicatorRow(sourceSlug: string, i: IndicatorSeed, now: Date): NewIndicatorRow {
  return {
    id: indicatorId(sourceSlug, i.code),
    code: i.code,
    sourceSlug,
    name: i.name,
    description: i.description,
    category: i.category,
    subcategory: i.subcategory,
    accessTier: i.accessTier ?? "free",
    unit: i.unit,
    frequency: i.frequency,
    isActive: i.isActive ?? true,
    regionKinds: i.regionKinds,
    defaultRegionCode: i.defaultRegionCode,
    upIsGood: i.upIsGood,
    meta: i.values ? { ...i.meta, values: valuesMeta(i.values) } : i.meta,
    updatedAt: now,
  };
}

export type CatalogSeedResult = { sources: number; indicators: number; inserted: number; updated: number };

/** Upserts every curated source and indicator. A second run writes nothing (inserted = updated = 0). */
export async function seedCatalog(
  db: Db,
  opts: SeedOptions = {},
  catalog: readonly SourceCatalog[] = CATALOG,
): Promise<CatalogSeedResult> {
  const problems = catalogProblems(catalog);
  if (problems.length) throw new Error(`catalog data is invalid:\n  ${problems.join("\n  ")}`);
  const now = opts.now ?? new Date();
  const total = catalog.reduce((n, c) => n + c.indicators.length, 0);
  opts.progress?.start("catalog", total);
  await upsertSources(
    db,
    catalog.map(({ source: s }) => ({
      slug: s.slug,
      name: s.name,
      provider: s.provider,
      category: s.category,
      docsUrl: s.docsUrl,
      isActive: s.isActive ?? true,
      attribution: s.attribution,
      license: s.license,
    })),
  );
  let inserted = 0;
  let updated = 0;
  for (const c of catalog) {
    const r = await upsertIndicators(
      db,
      c.indicators.map((i) => indicatorRow(c.source.slug, withShortName(i), now)),
    );
    inserted += r.inserted;
    updated += r.updated;
    opts.progress?.tick(c.indicators.length);
  }
  opts.progress?.done(`${inserted} new, ${updated} updated`);
  return { sources: catalog.length, indicators: total, inserted, updated };
}
