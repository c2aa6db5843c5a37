// Queries over the catalog (sources, indicators) and the catalog's view of series coverage.
//
// Visibility: an indicator is "active" when its own is_active is true and its source (if any) is active; the
// include_inactive flags widen every read to all rows.
import { inKeyOrder } from "./write-order";
import { and, asc, eq, ilike, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../client";
import { announceCatalogWritten } from "../events";
import { indicators, regions, series, sources } from "../schema";

export type SourceRow = typeof sources.$inferSelect;
export type NewSourceRow = typeof sources.$inferInsert;
export type IndicatorRow = typeof indicators.$inferSelect;
export type NewIndicatorRow = typeof indicators.$inferInsert;

/** An indicator with the name and active flag of its source. */
export type IndicatorWithSource = IndicatorRow & { sourceName: string | null; sourceIsActive: boolean | null };

// The same filter the in-memory catalog search takes (src/domain/catalog-search.ts).
export type { IndicatorFilter } from "../../src/domain/catalog-search";
import type { IndicatorFilter } from "../../src/domain/catalog-search";

// Byte order ("C") so codes sort the same on every server locale and on PGlite.
const byCode = sql`${indicators.code} collate "C"`;
const bySource = sql`${indicators.sourceSlug} collate "C"`;

const activeIndicator = sql`(${indicators.isActive} and coalesce(${sources.isActive}, true))`;

/** Inserts new sources and rewrites only rows whose values differ; returns how many rows were written. */
export async function upsertSources(db: Db, rows: NewSourceRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const written = await db
    .insert(sources)
    .values(inKeyOrder(rows, (r) => r.slug))
    .onConflictDoUpdate({
      target: sources.slug,
      set: {
        name: sql`excluded.name`,
        provider: sql`excluded.provider`,
        category: sql`excluded.category`,
        docsUrl: sql`excluded.docs_url`,
        isActive: sql`excluded.is_active`,
        attribution: sql`excluded.attribution`,
        license: sql`excluded.license`,
      },
      setWhere: sql`(${sources.name}, ${sources.provider}, ${sources.category}, ${sources.docsUrl}, ${sources.isActive}, ${sources.attribution}, ${sources.license})
        is distinct from (excluded.name, excluded.provider, excluded.category, excluded.docs_url, excluded.is_active, excluded.attribution, excluded.license)`,
    })
    .returning({ slug: sources.slug });
  if (written.length > 0) announceCatalogWritten(db);
  return written.length;
}

/**
 * Inserts new indicators (by id) and rewrites only rows whose curated values differ, so a repeated seed writes
 * nothing and leaves updated_at alone. Returns how many rows were inserted and how many updated.
 */
export async function upsertIndicators(
  db: Db,
  rows: NewIndicatorRow[],
): Promise<{ inserted: number; updated: number }> {
  if (rows.length === 0) return { inserted: 0, updated: 0 };
  const written = await db
    .insert(indicators)
    .values(inKeyOrder(rows, (r) => r.id!))
    .onConflictDoUpdate({
      target: indicators.id,
      set: {
        code: sql`excluded.code`,
        sourceSlug: sql`excluded.source_slug`,
        name: sql`excluded.name`,
        description: sql`excluded.description`,
        category: sql`excluded.category`,
        subcategory: sql`excluded.subcategory`,
        accessTier: sql`excluded.access_tier`,
        unit: sql`excluded.unit`,
        frequency: sql`excluded.frequency`,
        isActive: sql`excluded.is_active`,
        regionKinds: sql`excluded.region_kinds`,
        defaultRegionCode: sql`excluded.default_region_code`,
        upIsGood: sql`excluded.up_is_good`,
        meta: sql`excluded.meta`,
        updatedAt: sql`excluded.updated_at`,
      },
      setWhere: sql`(${indicators.code}, ${indicators.sourceSlug}, ${indicators.name}, ${indicators.description}, ${indicators.category},
          ${indicators.subcategory}, ${indicators.accessTier}, ${indicators.unit}, ${indicators.frequency}, ${indicators.isActive},
          ${indicators.regionKinds}, ${indicators.defaultRegionCode}, ${indicators.upIsGood}, ${indicators.meta})
        is distinct from (excluded.code, excluded.source_slug, excluded.name, excluded.description, excluded.category,
          excluded.subcategory, excluded.access_tier, excluded.unit, excluded.frequency, excluded.is_active,
          excluded.region_kinds, excluded.default_region_code, excluded.up_is_good, excluded.meta)`,
    })
    // xmax is 0 on a freshly inserted row and the updating transaction's id on an updated one.
    .returning({ inserted: sql<boolean>`(xmax = 0)` });
  const inserted = written.filter((r) => r.inserted === true || (r.inserted as unknown) === "t").length;
  if (written.length > 0) announceCatalogWritten(db);
  return { inserted, updated: written.length - inserted };
}

/**
 * Sources with the number of indicators each publishes (visible ones only unless includeInactive), by slug. The API
 * answers from memory (src/services/catalog-index.ts); this is the SQL statement of the same rule, which the tests
 * hold the in-memory answer to.
 */
export async function listSourcesWithCounts(
  db: Db,
  includeInactive: boolean,
): Promise<(SourceRow & { indicatorCount: number })[]> {
  const countWhat = includeInactive
    ? sql`count(${indicators.id})`
    : sql`count(${indicators.id}) filter (where ${indicators.isActive})`;
  const rows = await db
    .select({
      slug: sources.slug,
      name: sources.name,
      provider: sources.provider,
      category: sources.category,
      docsUrl: sources.docsUrl,
      isActive: sources.isActive,
      attribution: sources.attribution,
      license: sources.license,
      indicatorCount: sql<number>`${countWhat}::int`,
    })
    .from(sources)
    .leftJoin(indicators, eq(indicators.sourceSlug, sources.slug))
    .where(includeInactive ? undefined : eq(sources.isActive, true))
    .groupBy(sources.slug)
    .orderBy(sql`${sources.slug} collate "C"`);
  return rows.map((r) => ({ ...r, indicatorCount: Number(r.indicatorCount) }));
}

/** Escapes LIKE wildcards so a search term matches literally (backslash is PostgreSQL's default LIKE escape). */
export function likeContains(term: string): string {
  return `%${term.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

function indicatorWhere(f: IndicatorFilter): SQL | undefined {
  const where: SQL[] = [];
  if (!f.includeInactive) where.push(activeIndicator);
  if (f.source !== undefined) where.push(eq(indicators.sourceSlug, f.source));
  if (f.category !== undefined) where.push(eq(indicators.category, f.category));
  if (f.frequency !== undefined) where.push(eq(indicators.frequency, f.frequency));
  if (f.search !== undefined) {
    const pattern = likeContains(f.search);
    where.push(
      or(ilike(indicators.name, pattern), ilike(indicators.code, pattern), ilike(indicators.description, pattern))!,
    );
  }
  return where.length ? and(...where) : undefined;
}

/**
 * One page of indicators and the total matching the filter: two statements whatever the page size.
 * Order: with a search, exact code matches first, then code prefixes, then name matches; then by code and source.
 */
export async function listIndicatorPage(
  db: Db,
  filter: IndicatorFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: IndicatorRow[]; total: number }> {
  const where = indicatorWhere(filter);
  const order: SQL[] = [];
  if (filter.search !== undefined) {
    const term = filter.search.toLowerCase();
    const prefix = likeContains(filter.search).slice(1); // "term%"
    order.push(
      sql`(lower(${indicators.code}) = ${term}) desc`,
      sql`(${indicators.code} ilike ${prefix}) desc`,
      sql`(${indicators.name} ilike ${likeContains(filter.search)}) desc`,
    );
  }
  order.push(asc(byCode), asc(bySource));
  const pageQuery =
    page.limit === 0
      ? Promise.resolve([] as IndicatorRow[])
      : db
          .select(indicatorColumns)
          .from(indicators)
          .leftJoin(sources, eq(sources.slug, indicators.sourceSlug))
          .where(where)
          .orderBy(...order)
          .limit(page.limit)
          .offset(page.offset);
  const countQuery = db
    .select({ n: sql<number>`count(*)::int` })
    .from(indicators)
    .leftJoin(sources, eq(sources.slug, indicators.sourceSlug))
    .where(where);
  const [rows, count] = await Promise.all([pageQuery, countQuery]);
  return { rows, total: Number(count[0]?.n ?? 0) };
}

const indicatorColumns = {
  id: indicators.id,
  code: indicators.code,
  sourceSlug: indicators.sourceSlug,
  name: indicators.name,
  description: indicators.description,
  category: indicators.category,
  subcategory: indicators.subcategory,
  accessTier: indicators.accessTier,
  unit: indicators.unit,
  frequency: indicators.frequency,
  isActive: indicators.isActive,
  regionKinds: indicators.regionKinds,
  defaultRegionCode: indicators.defaultRegionCode,
  upIsGood: indicators.upIsGood,
  meta: indicators.meta,
  updatedAt: indicators.updatedAt,
};

/**
 * Every indicator whose code equals `code` ignoring case (exact-case rows are the caller's to prefer), across
 * sources, with its source's name and active flag; visible ones only unless includeInactive. Ordered by source.
 */
export async function findIndicatorsByCode(
  db: Db,
  code: string,
  includeInactive: boolean,
): Promise<IndicatorWithSource[]> {
  const match = sql`lower(${indicators.code}) = lower(${code})`;
  return db
    .select({ ...indicatorColumns, sourceName: sources.name, sourceIsActive: sources.isActive })
    .from(indicators)
    .leftJoin(sources, eq(sources.slug, indicators.sourceSlug))
    .where(includeInactive ? match : and(match, activeIndicator))
    .orderBy(asc(bySource));
}

/** Where an indicator has data: the regions holding a non-empty series (by code) and the span of their dates. */
export async function indicatorCoverage(
  db: Db,
  indicatorId: string,
): Promise<{ regions: string[]; start: string | null; end: string | null }> {
  const rows = await db
    .select({
      regions: sql<string[] | null>`array_agg(${series.regionCode} order by ${series.regionCode} collate "C")`,
      start: sql<string | null>`min(${series.firstDate})::text`,
      end: sql<string | null>`max(${series.lastDate})::text`,
    })
    .from(series)
    .where(and(eq(series.indicatorId, indicatorId), sql`${series.observationCount} > 0`));
  const r = rows[0];
  return { regions: r?.regions ?? [], start: r?.start ?? null, end: r?.end ?? null };
}

/** Per indicator with any data: regions held, first and last date, when a series of it last changed. */
export async function heldSummaries(
  db: Db,
): Promise<Map<string, { regionsHeld: number; start: string | null; end: string | null; lastUpdated: string | null }>> {
  const rows = await db
    .select({
      indicatorId: series.indicatorId,
      regionsHeld: sql<number>`count(*)::int`,
      start: sql<string | null>`min(${series.firstDate})::text`,
      end: sql<string | null>`max(${series.lastDate})::text`,
      lastUpdated: sql<Date | string | null>`max(${series.updatedAt})`,
    })
    .from(series)
    .where(sql`${series.observationCount} > 0`)
    .groupBy(series.indicatorId);
  const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());
  return new Map(
    rows.map((r) => [
      r.indicatorId,
      { regionsHeld: Number(r.regionsHeld), start: r.start, end: r.end, lastUpdated: iso(r.lastUpdated) },
    ]),
  );
}

/** Every series of a source's active indicators that holds data, with its indicator and region rows. */
export async function heldSeriesOfSource(
  db: Db,
  source: string,
): Promise<{ indicator: IndicatorRow; region: typeof regions.$inferSelect }[]> {
  const rows = await db
    .select({ indicator: indicators, region: regions })
    .from(series)
    .innerJoin(indicators, eq(indicators.id, series.indicatorId))
    .innerJoin(regions, eq(regions.code, series.regionCode))
    .where(and(eq(indicators.sourceSlug, source), eq(indicators.isActive, true), sql`${series.observationCount} > 0`))
    .orderBy(asc(indicators.code), asc(series.regionCode));
  return rows;
}

/** How many regions of each type the regions table holds. */
export async function regionCountsByType(db: Db): Promise<Map<string, number>> {
  const rows = await db
    .select({ type: regions.type, n: sql<number>`count(*)::int` })
    .from(regions)
    .groupBy(regions.type);
  return new Map(rows.map((r) => [r.type, Number(r.n)]));
}

/** Indicator ids by `${source}:${code}` for the given sources (the sample seed maps its files onto them). */
export async function indicatorIdsBySourceCode(db: Db): Promise<Map<string, string>> {
  const rows = await db
    .select({ id: indicators.id, code: indicators.code, source: indicators.sourceSlug })
    .from(indicators);
  return new Map(rows.map((r) => [`${r.source ?? ""}:${r.code}`, r.id]));
}

// ------------------------------------------------------------------------------------------ in-memory catalog

/**
 * Every indicator (inactive ones too) with its source's name and active flag, ordered by code, then source, in byte
 * order: the order listIndicatorPage pages in, so an in-memory copy can page the same way.
 */
export async function listAllIndicatorsWithSource(db: Db): Promise<IndicatorWithSource[]> {
  return db
    .select({ ...indicatorColumns, sourceName: sources.name, sourceIsActive: sources.isActive })
    .from(indicators)
    .leftJoin(sources, eq(sources.slug, indicators.sourceSlug))
    .orderBy(asc(byCode), asc(bySource));
}

/** Every source (inactive ones too), by slug in byte order. */
export async function listAllSources(db: Db): Promise<SourceRow[]> {
  return db.select().from(sources).orderBy(sql`${sources.slug} collate "C"`);
}

/**
 * A cheap fingerprint of what an in-memory catalog is built from, for noticing writes made by other processes:
 * - `catalog`: row count and the sum of xmin (the id of the transaction that wrote each row version) of sources,
 *   indicators and regions. An insert or update gives its rows a newer xmin, so the sum grows; a delete lowers the
 *   count. No per-row hashing: about 1 ms on PostgreSQL for the 3,445 regions.
 * - `series`: per indicator, the number of series, the sum of their versions and the newest series id. The write path
 *   bumps a series' version on every change (db/repos/observations.ts) and creating a series adds a row, so any change
 *   to an indicator's coverage changes its entry.
 */
export async function catalogFingerprint(db: Db): Promise<{ catalog: string; series: Map<string, string> }> {
  const part = (table: string) =>
    sql.raw(`(select count(*)::text || ':' || coalesce(sum(xmin::text::bigint), 0)::text from ${table})`);
  const [catalogRows, seriesRows] = await Promise.all([
    db.execute(sql`select ${part("sources")} || '/' || ${part("indicators")} || '/' || ${part("regions")} as print`),
    db
      .select({
        indicatorId: series.indicatorId,
        print: sql<string>`count(*)::text || ':' || coalesce(sum(${series.version}), 0)::text || ':' || max(${series.id})::text`,
      })
      .from(series)
      .groupBy(series.indicatorId),
  ]);
  const rows = (Array.isArray(catalogRows) ? catalogRows : (catalogRows as { rows: unknown[] }).rows) as {
    print: string;
  }[];
  return { catalog: rows[0]?.print ?? "", series: new Map(seriesRows.map((r) => [r.indicatorId, r.print])) };
}
