// Seeds the real data snapshot shipped in db/seed/snapshot/ (origins and licences in the README beside each file),
// plus the vega-datasets samples that add a kind of data nothing in the snapshot covers (vega-samples.ts). Parsing is
// pure (src/domain/snapshot-files.ts); series go in through the bulk loader (db/bulk-load.ts): COPY for series not
// held yet, the revision-aware write path for held ones, so loading a snapshot over an older database (an upgrade)
// revises what changed and leaves the rest alone. The loaded version is recorded (seed_snapshots): a later start with
// the same snapshot does nothing.
import type { Database } from "../client";
import { bulkLoadSeries, type BulkSeries } from "../bulk-load";
import { indicatorIdsBySourceCode } from "../repos/catalog";
import { COUNTY_CHANGES } from "../../src/domain/region-list";
import {
  blsStateUnemployed,
  ersUnemployment,
  fredCsv,
  mergeVintages,
  ownStrings,
  pepVintage,
  worldBankLong,
  type SnapshotSeries,
} from "../../src/domain/snapshot-files";
import {
  lausCountyAnnual,
  lausStateRates,
  lausStatesMonthly,
  type RateCorrection,
} from "../../src/domain/snapshot-laus";
import { qcewAnnualTotals } from "../../src/domain/snapshot-qcew";
import {
  FRED_2026_01,
  FRED_2026_06,
  LAUS_ANNUAL,
  LAUS_STATES,
  PEP_VINTAGES,
  QCEW_ANNUAL,
  WORLD_BANK_2025,
  WORLD_BANK_EARLIER,
  type VintageFile,
} from "./snapshot-manifest";
import { countyCodeRenames } from "../../src/domain/vega-samples";
import { regionList } from "./regions";
import { keptSampleSeries } from "./samples";
import type { SeedOptions } from "./options";
import type { Progress } from "../../src/progress";
import { snapshotVersion } from "./snapshot-version";
import { DATA_FAMILY_IDS, familyOfIndicator, type DataFamilyId } from "./families";
import { recordFamily, storedFamilies } from "./family-records";

async function gunzipText(path: string, encoding: "utf-8" | "latin1" = "utf-8"): Promise<string> {
  const bytes = Bun.gunzipSync(await Bun.file(path).bytes());
  return new TextDecoder(encoding).decode(bytes);
}
const when = (f: VintageFile) => f.sourceUpdatedAt ?? undefined;

export type SnapshotReport = {
  series: SnapshotSeries[];
  /** Rows for areas that are not current regions (counties since replaced) and World Bank codes that are no country. */
  skipped: { dataset: string; region: string }[];
  worldBankAggregates: { code: string; name: string }[];
  /** Published LAUS rates that their own file's levels contradict; the levels' rate is stored instead. */
  rateCorrections: RateCorrection[];
};

/** What a family's files hold: its series by vintage, oldest first, and what the World Bank and LAUS parsers report. */
type FamilyRead = {
  vintages: SnapshotSeries[][];
  worldBankAggregates?: { code: string; name: string }[];
  rateCorrections?: RateCorrection[];
};

/** How a family reads its files: each file's text (a progress tick each), its series owning their strings, renamed counties. */
type FamilyReader = {
  text(f: VintageFile, encoding?: "utf-8" | "latin1"): Promise<string>;
  own(list: SnapshotSeries[]): SnapshotSeries[];
  renamed(list: SnapshotSeries[]): SnapshotSeries[];
  alpha3: ReadonlyMap<string, string>;
};

/**
 * The snapshot in families: files whose series share keys (source, code, region) are one family, so each family's
 * vintages merge on their own and a family's parse is garbage before the next one's files are read (a first start
 * held the whole snapshot's parse at once: its peak memory). Families must not share a series: snapshotFamilies
 * refuses one that would (it would have to be merged with another family's vintages).
 */
/** The FRED national series of one family (db/seed/families.ts lists which), both vintages. */
function fredFamily(id: "us-national" | "us-daily", name: string): (typeof FAMILIES)[number] {
  const mine = ([code]: [string, VintageFile]) => familyOfIndicator("fred", code) === id;
  const vintages: [Record<string, VintageFile>, string][] = [
    [FRED_2026_01, "fred-macro-us"],
    [FRED_2026_06, "fred-national-2026-vintage"],
  ];
  return {
    id,
    name,
    files: vintages.reduce((n, [files]) => n + Object.entries(files).filter(mine).length, 0),
    async read(r) {
      const fred = (files: Record<string, VintageFile>, dataset: string) =>
        Promise.all(
          Object.entries(files)
            .filter(mine)
            .map(
              async ([code, f]) => r.own([fredCsv(await r.text(f), code, { dataset, sourceUpdatedAt: when(f) })])[0]!,
            ),
        );
      return { vintages: await Promise.all(vintages.map(([files, dataset]) => fred(files, dataset))) };
    },
  };
}

const FAMILIES: { id: DataFamilyId; name: string; files: number; read(r: FamilyReader): Promise<FamilyRead> }[] = [
  fredFamily("us-national", "FRED national series"),
  fredFamily("us-daily", "FRED daily rates and prices"),
  {
    id: "state-unemployment",
    name: "state unemployment",
    files: 3,
    async read(r) {
      const monthly = lausStatesMonthly(await r.text(LAUS_STATES.all2025), when(LAUS_STATES.all2025));
      return {
        vintages: [
          r.own(blsStateUnemployed(await r.text(LAUS_STATES.unemployed2020))),
          r.own(monthly.series),
          r.own(lausStateRates(await r.text(LAUS_STATES.rates2026), when(LAUS_STATES.rates2026))),
        ],
        rateCorrections: monthly.corrected,
      };
    },
  },
  {
    id: "county-unemployment",
    name: "county unemployment",
    files: 3,
    async read(r) {
      const ers = async (f: VintageFile, dataset: string) =>
        r.own(r.renamed(ersUnemployment(await r.text(f, "latin1"), { dataset, sourceUpdatedAt: when(f) })));
      return {
        vintages: [
          await ers(LAUS_ANNUAL.ers2018, "ers-county-unemployment"),
          await ers(LAUS_ANNUAL.ers2023, "laus-county-annual-ers"),
          r.own(r.renamed(lausCountyAnnual(await r.text(LAUS_ANNUAL.county2024), when(LAUS_ANNUAL.county2024)))),
        ],
      };
    },
  },
  {
    id: "population",
    name: "county population",
    files: 2,
    async read(r) {
      const pep = async (vintage: number) =>
        r.own(
          pepVintage(await r.text(PEP_VINTAGES[vintage], "latin1"), vintage, PEP_VINTAGES[vintage].sourceUpdatedAt!),
        );
      return { vintages: [await pep(2020), await pep(2024)] };
    },
  },
  {
    id: "countries",
    name: "World Bank countries",
    files: Object.keys(WORLD_BANK_EARLIER).length + Object.keys(WORLD_BANK_2025).length,
    async read(r) {
      const vintage = (files: Record<string, VintageFile>, dataset: string) =>
        Promise.all(
          Object.entries(files).map(async ([code, f]) =>
            worldBankLong(await r.text(f), code, r.alpha3, { dataset, sourceUpdatedAt: when(f) }),
          ),
        );
      const earlier = await vintage(WORLD_BANK_EARLIER, "worldbank-country");
      const latest = await vintage(WORLD_BANK_2025, "worldbank-wdi-2025");
      return {
        vintages: [earlier, latest].map((files) => r.own(files.flatMap((w) => w.series))),
        worldBankAggregates: [...earlier, ...latest].flatMap((w) => w.dropped),
      };
    },
  },
  {
    id: "county-wages",
    name: "county employment and wages",
    files: QCEW_ANNUAL.length,
    async read(r) {
      return {
        vintages: await Promise.all(
          QCEW_ANNUAL.map(async (f) => r.own(qcewAnnualTotals(await r.text(f), when(f)).series)),
        ),
      };
    },
  },
];

/** One family of the snapshot, parsed, merged and with regions mapped to current codes (the samples come last, as they are). */
export type SnapshotFamily = SnapshotReport & { id: DataFamilyId; name: string };

/**
 * The snapshot's series, one family at a time in the order the first start stores them (db/seed/families.ts), the
 * kept vega samples last. Vintages of the same series are merged oldest first (mergeVintages), so a value a later
 * vintage revised is stored as a revision of the earlier one. `skip`: families not read at all (stored already).
 */
export async function* snapshotFamilies(
  progress?: Progress,
  skip: ReadonlySet<DataFamilyId> = new Set(),
): AsyncGenerator<SnapshotFamily> {
  const regions = regionList();
  const regionCodes = new Set(regions.map((r) => r.code));
  const alpha3 = new Map<string, string>();
  for (const r of regions)
    if (r.type === "country") for (const a of r.aliases) if (/^[A-Z]{3}$/.test(a)) alpha3.set(a, r.code);
  const renames = countyCodeRenames(COUNTY_CHANGES);
  // Each file's series own their strings as soon as it is parsed, so its text is garbage from then on (ownStrings).
  const pool = new Map<string, string>();
  const reader: FamilyReader = {
    // A tick per file: the seed worker collects garbage between its progress messages.
    text: (f, encoding) => (progress?.tick(), gunzipText(f.path, encoding)),
    own: (list) => ownStrings(list, pool),
    renamed: (list) => list.map((s) => ({ ...s, region: renames.get(s.region) ?? s.region })),
    alpha3,
  };
  const familyOf = new Map<string, string>();
  // A family's series in current regions (the rest reported as skipped), each series checked to be in no other family.
  const asFamily = (id: DataFamilyId, name: string, list: SnapshotSeries[]): SnapshotFamily => {
    const skipped: SnapshotReport["skipped"] = [];
    const series = list.filter((s) => {
      const key = `${s.source}:${s.code}:${s.region}`;
      const other = familyOf.get(key);
      if (other !== undefined)
        throw new Error(
          `snapshot: ${key} is in the families "${other}" and "${name}": their vintages must merge as one family`,
        );
      // Readers wait for the family named in db/seed/families.ts: a series stored under another would be served early.
      if (familyOfIndicator(s.source, s.code) !== id)
        throw new Error(
          `snapshot: ${s.source}:${s.code} is stored by the family "${id}" but db/seed/families.ts lists it under "${familyOfIndicator(s.source, s.code)}"`,
        );
      familyOf.set(key, name);
      if (regionCodes.has(s.region)) return true;
      skipped.push({ dataset: s.dataset, region: s.region });
      return false;
    });
    return { id, name, series, skipped, worldBankAggregates: [], rateCorrections: [] };
  };
  // In a function of its own, so nothing of a family's parse but what it yields outlives the read.
  const readFamily = async (family: (typeof FAMILIES)[number]): Promise<SnapshotFamily> => {
    progress?.start(`${family.name}: reading files`, family.files);
    const read = await family.read(reader);
    progress?.done();
    return {
      ...asFamily(family.id, family.name, mergeVintages(read.vintages)),
      worldBankAggregates: read.worldBankAggregates ?? [],
      rateCorrections: read.rateCorrections ?? [],
    };
  };
  const ordered = [...FAMILIES].sort((a, b) => DATA_FAMILY_IDS.indexOf(a.id) - DATA_FAMILY_IDS.indexOf(b.id));
  for (const family of ordered) if (!skip.has(family.id)) yield await readFamily(family);
  if (!skip.has("samples")) yield asFamily("samples", "vega samples", keptSampleSeries());
}

/** The whole snapshot at once (what a first start loads, family by family). */
export async function snapshotSeries(progress?: Progress): Promise<SnapshotReport> {
  const report: SnapshotReport = { series: [], skipped: [], worldBankAggregates: [], rateCorrections: [] };
  for await (const f of snapshotFamilies(progress)) {
    report.series.push(...f.series);
    report.skipped.push(...f.skipped);
    report.worldBankAggregates.push(...f.worldBankAggregates);
    report.rateCorrections.push(...f.rateCorrections);
  }
  report.worldBankAggregates = [...new Map(report.worldBankAggregates.map((d) => [d.code, d])).values()];
  return report;
}

/**
 * A family as bulk-load items. The parsed rows are passed on as they are (a million objects: a copy of each, or a
 * Date each, would be hundreds of MB more at the seed's peak).
 */
function familyItems(
  family: SnapshotFamily,
  ids: Map<string, string>,
  filter: SeedOptions["regionFilter"],
): BulkSeries[] {
  const kept = filter ? family.series.filter((s) => filter.keep(s.region)) : family.series;
  return kept.map((s): BulkSeries => {
    const indicatorId = ids.get(`${s.source}:${s.code}`);
    if (!indicatorId)
      throw new Error(`snapshot ${s.dataset}: ${s.source}:${s.code} is not in the catalog (seed the catalog first)`);
    return { indicatorId, regionCode: s.region, rows: s.rows, sourceUpdatedAt: s.sourceUpdatedAt ?? null };
  });
}

/** Parsed rows handed to the bulk loader at once (it writes them in transactions of its own size). */
const ROWS_PER_LOAD = 100_000;

/**
 * Loads the snapshot's series (regions and catalog must be seeded), family by family, recording each family once it
 * is stored (db/seed/families.ts; families already recorded at this version are not read again). The snapshot's own
 * version is recorded by the caller once the flows are stored too (db/seed/index.ts).
 */
export async function seedSnapshot(
  database: Database,
  opts: SeedOptions = {},
): Promise<{ series: number; rows: number; skipped: number }> {
  const now = opts.now ?? new Date();
  const filter = opts.regionFilter;
  const version = snapshotVersion(filter);
  const ids = await indicatorIdsBySourceCode(database.db);
  const totals = { series: 0, rows: 0, skipped: 0 };
  const stored = await storedFamilies(database.db, version);
  for await (const family of snapshotFamilies(opts.progress, stored)) {
    const items = familyItems(family, ids, filter);
    // The items hold the rows now: the family lets go of them, so they are garbage once loaded, before the next
    // family is read.
    family.series = [];
    const rows = items.reduce((n, s) => n + s.rows.length, 0);
    const seriesCount = items.length;
    totals.series += seriesCount;
    totals.rows += rows;
    totals.skipped += family.skipped.length;
    opts.progress?.start(`${family.name}: observations`, rows);
    // Handed to the loader a part at a time and let go once stored: parsed rows held to the end of the load add to
    // the seed's peak memory (beside the database's own growth).
    const result = { inserted: 0, revised: 0 };
    while (items.length > 0) {
      let n = 0;
      for (let part = 0; n < items.length && part < ROWS_PER_LOAD; ) part += items[n++]!.rows.length;
      const r = await bulkLoadSeries(database, items.splice(0, n), {
        now,
        onProgress: (k) => opts.progress?.tick(k),
        rowsPerTransaction: opts.rowsPerTransaction,
      });
      result.inserted += r.inserted;
      result.revised += r.revised;
    }
    opts.progress?.done(
      `${seriesCount} series, ${result.inserted} observations new, ${result.revised} revised, ${family.skipped.length} series skipped (area not a current region)`,
    );
    await recordFamily(database.db, family.id, version, now, rows);
    await opts.onFamilyStored?.(family.id);
  }
  return totals;
}
