// Seeds the real data snapshot shipped in db/seed/snapshot/ (origins and licences in the README beside each file),
// plus the vega-datasets samples that add a kind of data nothing in the snapshot covers (vega-samples.ts). Parsing is
// pure (src/domain/snapshot-files.ts); series go in through the bulk loader (db/bulk-load.ts): COPY for series not
// held yet, the revision-aware write path for held ones, so loading a snapshot over an older database (an upgrade)
// revises what changed and leaves the rest alone. The loaded version is recorded (seed_snapshots): a later start with
// the same snapshot does nothing.
import fredAHETPI from "./snapshot/fred-macro-us/AHETPI.csv.gz" with { type: "file" };
import fredCIVPART from "./snapshot/fred-macro-us/CIVPART.csv.gz" with { type: "file" };
import fredCPIAUCSL from "./snapshot/fred-macro-us/CPIAUCSL.csv.gz" with { type: "file" };
import fredCPILFESL from "./snapshot/fred-macro-us/CPILFESL.csv.gz" with { type: "file" };
import fredDCOILWTICO from "./snapshot/fred-macro-us/DCOILWTICO.csv.gz" with { type: "file" };
import fredDGS10 from "./snapshot/fred-macro-us/DGS10.csv.gz" with { type: "file" };
import fredDGS2 from "./snapshot/fred-macro-us/DGS2.csv.gz" with { type: "file" };
import fredDTWEXBGS from "./snapshot/fred-macro-us/DTWEXBGS.csv.gz" with { type: "file" };
import fredFEDFUNDS from "./snapshot/fred-macro-us/FEDFUNDS.csv.gz" with { type: "file" };
import fredGDP from "./snapshot/fred-macro-us/GDP.csv.gz" with { type: "file" };
import fredGDPC1 from "./snapshot/fred-macro-us/GDPC1.csv.gz" with { type: "file" };
import fredHOUST from "./snapshot/fred-macro-us/HOUST.csv.gz" with { type: "file" };
import fredICSA from "./snapshot/fred-macro-us/ICSA.csv.gz" with { type: "file" };
import fredINDPRO from "./snapshot/fred-macro-us/INDPRO.csv.gz" with { type: "file" };
import fredJTSJOL from "./snapshot/fred-macro-us/JTSJOL.csv.gz" with { type: "file" };
import fredM2SL from "./snapshot/fred-macro-us/M2SL.csv.gz" with { type: "file" };
import fredPAYEMS from "./snapshot/fred-macro-us/PAYEMS.csv.gz" with { type: "file" };
import fredPCEPILFE from "./snapshot/fred-macro-us/PCEPILFE.csv.gz" with { type: "file" };
import fredRSXFS from "./snapshot/fred-macro-us/RSXFS.csv.gz" with { type: "file" };
import fredT10Y2Y from "./snapshot/fred-macro-us/T10Y2Y.csv.gz" with { type: "file" };
import fredU6RATE from "./snapshot/fred-macro-us/U6RATE.csv.gz" with { type: "file" };
import fredUNRATE from "./snapshot/fred-macro-us/UNRATE.csv.gz" with { type: "file" };
import fredUSREC from "./snapshot/fred-macro-us/USREC.csv.gz" with { type: "file" };
import blsStateFile from "./snapshot/bls-state-unemployment-monthly/State_level_unemployment.csv.gz" with { type: "file" };
import ersFile from "./snapshot/ers-county-unemployment/Unemployment.csv.gz" with { type: "file" };
import pep2020File from "./snapshot/census-pep-county/co-est2020-alldata.csv.gz" with { type: "file" };
import pep2024File from "./snapshot/census-pep-county/co-est2024-alldata.csv.gz" with { type: "file" };
import wbGdpFile from "./snapshot/worldbank-country/gdp.csv.gz" with { type: "file" };
import wbPopulationFile from "./snapshot/worldbank-country/population.csv.gz" with { type: "file" };
import { eq } from "drizzle-orm";
import type { Database } from "../client";
import { bulkLoadSeries, type BulkSeries } from "../bulk-load";
import { indicatorIdsBySourceCode } from "../repos/catalog";
import { seedSnapshots } from "../schema";
import { COUNTY_CHANGES } from "../../src/domain/region-list";
import { blsStateUnemployed, ersUnemployment, fredCsv, mergeVintages, pepVintage, worldBankLong, type SnapshotSeries } from "../../src/domain/snapshot-files";
import { countyCodeRenames } from "../../src/domain/vega-samples";
import { regionList } from "./regions";
import { keptSampleSeries } from "./samples";
import type { SeedOptions } from "./options";

/** The 23 national FRED series of the snapshot, by FRED id. */
export const FRED_SNAPSHOT: Record<string, string> = {
  AHETPI: fredAHETPI,
  CIVPART: fredCIVPART,
  CPIAUCSL: fredCPIAUCSL,
  CPILFESL: fredCPILFESL,
  DCOILWTICO: fredDCOILWTICO,
  DGS10: fredDGS10,
  DGS2: fredDGS2,
  DTWEXBGS: fredDTWEXBGS,
  FEDFUNDS: fredFEDFUNDS,
  GDP: fredGDP,
  GDPC1: fredGDPC1,
  HOUST: fredHOUST,
  ICSA: fredICSA,
  INDPRO: fredINDPRO,
  JTSJOL: fredJTSJOL,
  M2SL: fredM2SL,
  PAYEMS: fredPAYEMS,
  PCEPILFE: fredPCEPILFE,
  RSXFS: fredRSXFS,
  T10Y2Y: fredT10Y2Y,
  U6RATE: fredU6RATE,
  UNRATE: fredUNRATE,
  USREC: fredUSREC,
};

/**
 * The snapshot's version: bump it whenever a file or a parser changes what the snapshot stores, so existing databases
 * load the new one at their next start.
 */
export const SNAPSHOT_VERSION = "2026-11-24.1";
const SNAPSHOT_NAME = "real-data";

// PEP vintage release dates (the county files): when the Census Bureau published the estimates.
const PEP_RELEASED: Record<number, string> = { 2020: "2021-05-27T00:00:00Z", 2024: "2025-03-13T00:00:00Z" };

async function gunzipText(path: string, encoding: "utf-8" | "latin1" = "utf-8"): Promise<string> {
  const bytes = Bun.gunzipSync(await Bun.file(path).bytes());
  return new TextDecoder(encoding).decode(bytes);
}

export type SnapshotReport = {
  series: SnapshotSeries[];
  /** Rows for areas that are not current regions (counties since replaced) and World Bank codes that are no country. */
  skipped: { dataset: string; region: string }[];
  worldBankAggregates: { code: string; name: string }[];
};

type ParsedPart = { series: SnapshotSeries[]; dropped?: { code: string; name: string }[] };
type PartContext = { alpha3: ReadonlyMap<string, string>; renames: ReadonlyMap<string, string> };

/** The snapshot's files, as parts parsed one at a time (a part: one dataset, its vintages merged). */
function snapshotParts(): { name: string; parse: (ctx: PartContext) => Promise<ParsedPart> }[] {
  return [
    { name: "fred", parse: async () => ({ series: await Promise.all(Object.entries(FRED_SNAPSHOT).map(async ([code, path]) => fredCsv(await gunzipText(path), code))) }) },
    { name: "bls states", parse: async () => ({ series: blsStateUnemployed(await gunzipText(blsStateFile)) }) },
    {
      name: "ers counties",
      parse: async ({ renames }) => ({ series: ersUnemployment(await gunzipText(ersFile, "latin1")).map((s) => ({ ...s, region: renames.get(s.region) ?? s.region })) }),
    },
    {
      name: "census pep counties",
      parse: async () => ({
        series: mergeVintages([
          pepVintage(await gunzipText(pep2020File, "latin1"), 2020, PEP_RELEASED[2020]),
          pepVintage(await gunzipText(pep2024File, "latin1"), 2024, PEP_RELEASED[2024]),
        ]),
      }),
    },
    { name: "world bank gdp", parse: async ({ alpha3 }) => worldBankLong(await gunzipText(wbGdpFile), "NY.GDP.MKTP.CD", alpha3) },
    { name: "world bank population", parse: async ({ alpha3 }) => worldBankLong(await gunzipText(wbPopulationFile), "SP.POP.TOTL", alpha3) },
    { name: "vega samples", parse: async () => ({ series: keptSampleSeries() }) },
  ];
}

export type SnapshotPart = SnapshotReport & { name: string };

/**
 * The snapshot part by part, parsed, with regions mapped to current codes: one part's rows are in memory at a time,
 * so the seed's memory follows the largest file, not the whole snapshot.
 */
export async function* snapshotSeriesByPart(): AsyncGenerator<SnapshotPart> {
  const regions = regionList();
  const regionCodes = new Set(regions.map((r) => r.code));
  const alpha3 = new Map<string, string>();
  for (const r of regions) if (r.type === "country") for (const a of r.aliases) if (/^[A-Z]{3}$/.test(a)) alpha3.set(a, r.code);
  const ctx: PartContext = { alpha3, renames: countyCodeRenames(COUNTY_CHANGES) };
  for (const part of snapshotParts()) {
    const parsed = await part.parse(ctx);
    const skipped: SnapshotReport["skipped"] = [];
    const series = parsed.series.filter((s) => {
      if (regionCodes.has(s.region)) return true;
      skipped.push({ dataset: s.dataset, region: s.region });
      return false;
    });
    yield { name: part.name, series, skipped, worldBankAggregates: parsed.dropped ?? [] };
  }
}

/** Every snapshot series, parsed, with regions mapped to current codes. */
export async function snapshotSeries(): Promise<SnapshotReport> {
  const report: SnapshotReport = { series: [], skipped: [], worldBankAggregates: [] };
  const aggregates = new Map<string, { code: string; name: string }>();
  for await (const part of snapshotSeriesByPart()) {
    report.series.push(...part.series);
    report.skipped.push(...part.skipped);
    for (const d of part.worldBankAggregates) aggregates.set(d.code, d);
  }
  report.worldBankAggregates = [...aggregates.values()];
  return report;
}

/** Whether the database holds this snapshot version. */
export async function holdsSnapshot(database: Database): Promise<boolean> {
  const rows = await database.db.select().from(seedSnapshots).where(eq(seedSnapshots.name, SNAPSHOT_NAME));
  return rows[0]?.version === SNAPSHOT_VERSION;
}

/** Loads the snapshot (regions and catalog must be seeded), part by part, and records its version. */
export async function seedSnapshot(database: Database, opts: SeedOptions = {}): Promise<{ series: number; rows: number; skipped: number }> {
  const now = opts.now ?? new Date();
  const filter = opts.regionFilter;
  const version = filter ? `${SNAPSHOT_VERSION}+${filter.name}` : SNAPSHOT_VERSION;
  const ids = await indicatorIdsBySourceCode(database.db);
  const totals = { series: 0, rows: 0, skipped: 0 };
  for await (const part of snapshotSeriesByPart()) {
    const kept = filter ? part.series.filter((s) => filter.keep(s.region)) : part.series;
    const items: BulkSeries[] = kept.map((s) => {
      const indicatorId = ids.get(`${s.source}:${s.code}`);
      if (!indicatorId) throw new Error(`snapshot ${s.dataset}: ${s.source}:${s.code} is not in the catalog (seed the catalog first)`);
      const sourceUpdatedAt = s.sourceUpdatedAt ? new Date(s.sourceUpdatedAt) : null;
      return {
        indicatorId,
        regionCode: s.region,
        rows: s.rows.map((r) => ({ date: r.date, value: r.value, isPreliminary: r.isPreliminary ?? false, sourceUpdatedAt })),
      };
    });
    const rows = items.reduce((n, s) => n + s.rows.length, 0);
    opts.progress?.start(`observations: ${part.name}`, rows);
    const result = await bulkLoadSeries(database, items, { now, onProgress: (n) => opts.progress?.tick(n) });
    opts.progress?.done(`${items.length} series, ${result.inserted} observations new, ${result.revised} revised, ${part.skipped.length} series skipped (area not a current region)`);
    totals.series += items.length;
    totals.rows += rows;
    totals.skipped += part.skipped.length;
  }
  await database.db
    .insert(seedSnapshots)
    .values({ name: SNAPSHOT_NAME, version, rows: totals.rows, loadedAt: now })
    .onConflictDoUpdate({ target: seedSnapshots.name, set: { version, rows: totals.rows, loadedAt: now } });
  return totals;
}
