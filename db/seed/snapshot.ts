// Seeds the real data snapshot shipped in db/seed/snapshot/ (origins and licences in the README beside each file),
// plus the vega-datasets samples that add a kind of data nothing in the snapshot covers (vega-samples.ts). Parsing is
// pure (src/domain/snapshot-files.ts); series go in through the bulk loader (db/bulk-load.ts): COPY for series not
// held yet, the revision-aware write path for held ones, so loading a snapshot over an older database (an upgrade)
// revises what changed and leaves the rest alone. The loaded version is recorded (seed_snapshots): a later start with
// the same snapshot does nothing.
import type { Database } from "../client";
import { bulkLoadSeries, type BulkSeries } from "../bulk-load";
import { indicatorIdsBySourceCode } from "../repos/catalog";
import { seedSnapshots } from "../schema";
import { COUNTY_CHANGES } from "../../src/domain/region-list";
import { blsStateUnemployed, ersUnemployment, fredCsv, mergeVintages, ownStrings, pepVintage, worldBankLong, type SnapshotSeries } from "../../src/domain/snapshot-files";
import { lausCountyAnnual, lausStateRates, lausStatesMonthly, type RateCorrection } from "../../src/domain/snapshot-laus";
import { qcewAnnualTotals } from "../../src/domain/snapshot-qcew";
import { FRED_2026_01, FRED_2026_06, LAUS_ANNUAL, LAUS_STATES, PEP_VINTAGES, QCEW_ANNUAL, WORLD_BANK_2025, WORLD_BANK_EARLIER, type VintageFile } from "./snapshot-manifest";
import { countyCodeRenames } from "../../src/domain/vega-samples";
import { regionList } from "./regions";
import { keptSampleSeries } from "./samples";
import type { SeedOptions } from "./options";
import type { Progress } from "../../src/progress";
import { SNAPSHOT_NAME, SNAPSHOT_VERSION } from "./snapshot-version";

async function gunzipText(path: string, encoding: "utf-8" | "latin1" = "utf-8"): Promise<string> {
  const bytes = Bun.gunzipSync(await Bun.file(path).bytes());
  return new TextDecoder(encoding).decode(bytes);
}
const when = (f: VintageFile) => f.sourceUpdatedAt ?? undefined;

/** The files snapshotSeries reads. */
const SNAPSHOT_FILES = [FRED_2026_01, FRED_2026_06, LAUS_STATES, LAUS_ANNUAL, QCEW_ANNUAL, WORLD_BANK_EARLIER, WORLD_BANK_2025].reduce((n, g) => n + Object.keys(g).length, 2);

export type SnapshotReport = {
  series: SnapshotSeries[];
  /** Rows for areas that are not current regions (counties since replaced) and World Bank codes that are no country. */
  skipped: { dataset: string; region: string }[];
  worldBankAggregates: { code: string; name: string }[];
  /** Published LAUS rates that their own file's levels contradict; the levels' rate is stored instead. */
  rateCorrections: RateCorrection[];
};

/** A World Bank file of one vintage, with the aggregates it holds. */
async function worldBank(text: (f: VintageFile) => Promise<string>, own: (list: SnapshotSeries[]) => SnapshotSeries[], files: Record<string, VintageFile>, dataset: string, alpha3: Map<string, string>) {
  return Promise.all(
    Object.entries(files).map(async ([code, f]) => {
      const parsed = worldBankLong(await text(f), code, alpha3, { dataset, sourceUpdatedAt: when(f) });
      return { ...parsed, series: own(parsed.series) };
    }),
  );
}

/**
 * Every snapshot series, parsed, with regions mapped to current codes. Vintages of the same series are merged oldest
 * first (mergeVintages), so a value a later vintage revised is stored as a revision of the earlier one.
 */
export async function snapshotSeries(progress?: Progress): Promise<SnapshotReport> {
  // A tick per file: the seed worker collects garbage between its progress messages, and each file's text and
  // parsed records are garbage once its series are made (collected only at the end, they set the seed's peak memory).
  progress?.start("reading the snapshot files", SNAPSHOT_FILES);
  const text = async (f: VintageFile, encoding?: "utf-8" | "latin1") => {
    progress?.tick();
    return gunzipText(f.path, encoding);
  };
  const regions = regionList();
  const regionCodes = new Set(regions.map((r) => r.code));
  const alpha3 = new Map<string, string>();
  for (const r of regions) if (r.type === "country") for (const a of r.aliases) if (/^[A-Z]{3}$/.test(a)) alpha3.set(a, r.code);
  const renames = countyCodeRenames(COUNTY_CHANGES);
  const renamed = (list: SnapshotSeries[]) => list.map((s) => ({ ...s, region: renames.get(s.region) ?? s.region }));
  // Each file's series own their strings as soon as it is parsed, so its text is garbage from then on (ownStrings).
  const pool = new Map<string, string>();
  const own = (list: SnapshotSeries[]) => ownStrings(list, pool);
  const fred = (files: Record<string, VintageFile>, dataset: string) =>
    Promise.all(Object.entries(files).map(async ([code, f]) => own([fredCsv(await text(f), code, { dataset, sourceUpdatedAt: when(f) })])[0]!));

  const lausStates = lausStatesMonthly(await text(LAUS_STATES.all2025), when(LAUS_STATES.all2025));
  own(lausStates.series);
  const ers = async (f: VintageFile, dataset: string) => own(renamed(ersUnemployment(await text(f, "latin1"), { dataset, sourceUpdatedAt: when(f) })));
  const wbEarlier = await worldBank(text, own, WORLD_BANK_EARLIER, "worldbank-country", alpha3);
  const wb2025 = await worldBank(text, own, WORLD_BANK_2025, "worldbank-wdi-2025", alpha3);
  const qcew = await Promise.all(QCEW_ANNUAL.map(async (f) => own(qcewAnnualTotals(await text(f), when(f)).series)));
  const pep = (vintage: number) => text(PEP_VINTAGES[vintage], "latin1").then((t) => own(pepVintage(t, vintage, PEP_VINTAGES[vintage].sourceUpdatedAt!)));

  // Oldest vintage first; a later group revises an earlier one where they share a series and a date.
  const merged = mergeVintages([
    [
      ...(await fred(FRED_2026_01, "fred-macro-us")),
      ...own(blsStateUnemployed(await text(LAUS_STATES.unemployed2020))),
      ...(await ers(LAUS_ANNUAL.ers2018, "ers-county-unemployment")),
      ...(await pep(2020)),
      ...wbEarlier.flatMap((w) => w.series),
    ],
    [
      ...(await fred(FRED_2026_06, "fred-national-2026-vintage")),
      ...lausStates.series,
      ...(await ers(LAUS_ANNUAL.ers2023, "laus-county-annual-ers")),
      ...(await pep(2024)),
      ...wb2025.flatMap((w) => w.series),
      ...mergeVintages(qcew),
    ],
    [
      ...own(lausStateRates(await text(LAUS_STATES.rates2026), when(LAUS_STATES.rates2026))),
      ...own(renamed(lausCountyAnnual(await text(LAUS_ANNUAL.county2024), when(LAUS_ANNUAL.county2024)))),
    ],
  ]);

  const all = [...merged, ...keptSampleSeries()];
  const skipped: SnapshotReport["skipped"] = [];
  const series = all.filter((s) => {
    if (regionCodes.has(s.region)) return true;
    skipped.push({ dataset: s.dataset, region: s.region });
    return false;
  });
  const aggregates = new Map([...wbEarlier, ...wb2025].flatMap((w) => w.dropped).map((d) => [d.code, d]));
  progress?.done();
  return { series, skipped, worldBankAggregates: [...aggregates.values()], rateCorrections: lausStates.corrected };
}

/**
 * The snapshot as bulk-load items. The parsed rows are passed on as they are (a million objects: a copy of each, or
 * a Date each, would be hundreds of MB more at the seed's peak), and nothing else of the parse outlives this call.
 */
async function snapshotItems(database: Database, filter: SeedOptions["regionFilter"], progress?: Progress): Promise<{ items: BulkSeries[]; skipped: number }> {
  const report = await snapshotSeries(progress);
  const kept = filter ? report.series.filter((s) => filter.keep(s.region)) : report.series;
  const ids = await indicatorIdsBySourceCode(database.db);
  const items = kept.map((s): BulkSeries => {
    const indicatorId = ids.get(`${s.source}:${s.code}`);
    if (!indicatorId) throw new Error(`snapshot ${s.dataset}: ${s.source}:${s.code} is not in the catalog (seed the catalog first)`);
    return { indicatorId, regionCode: s.region, rows: s.rows, sourceUpdatedAt: s.sourceUpdatedAt ?? null };
  });
  return { items, skipped: report.skipped.length };
}

/** Parsed rows handed to the bulk loader at once (it writes them in transactions of its own size). */
const ROWS_PER_LOAD = 100_000;

/** Loads the snapshot (regions and catalog must be seeded) and records its version. */
export async function seedSnapshot(database: Database, opts: SeedOptions = {}): Promise<{ series: number; rows: number; skipped: number }> {
  const now = opts.now ?? new Date();
  const filter = opts.regionFilter;
  const version = filter ? `${SNAPSHOT_VERSION}+${filter.name}` : SNAPSHOT_VERSION;
  const { items, skipped } = await snapshotItems(database, filter, opts.progress);
  const seriesCount = items.length;
  const total = items.reduce((n, s) => n + s.rows.length, 0);
  opts.progress?.start("observations", total);
  // Handed to the loader a part at a time and let go once stored: the parsed rows held to the end of the load set the
  // seed's peak memory (a million rows beside the database's own growth).
  const result = { inserted: 0, revised: 0 };
  while (items.length > 0) {
    let rows = 0;
    let n = 0;
    while (n < items.length && rows < ROWS_PER_LOAD) rows += items[n++]!.rows.length;
    const r = await bulkLoadSeries(database, items.splice(0, n), { now, onProgress: (k) => opts.progress?.tick(k) });
    result.inserted += r.inserted;
    result.revised += r.revised;
  }
  opts.progress?.done(`${seriesCount} series, ${result.inserted} observations new, ${result.revised} revised, ${skipped} series skipped (area not a current region)`);
  await database.db
    .insert(seedSnapshots)
    .values({ name: SNAPSHOT_NAME, version, rows: total, loadedAt: now })
    .onConflictDoUpdate({ target: seedSnapshots.name, set: { version, rows: total, loadedAt: now } });
  return { series: seriesCount, rows: total, skipped };
}
