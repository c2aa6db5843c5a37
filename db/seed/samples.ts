// Seeds real sample observations from the installed vega-datasets package (no network), so a fresh database serves
// real numbers. Files, licences and mappings: src/domain/vega-samples.ts. Used (licence from datapackage.json):
//   us-employment.csv                    U.S. Government Dataset (BLS CES)   -> fred PAYEMS and 21 CES supersectors, US
//   unemployment-across-industries.json  U.S. Government Dataset (BLS CPS)   -> bls LNU04/LNU03 by industry, US
//   unemployment.tsv                     U.S. Government Dataset (BLS LAUS)  -> bls LAUCN03, every county, 2009-09
//   co2-concentration.csv                CC BY 4.0 (Scripps CO2 Program)     -> scripps MLO.CO2, MLO.CO2.SA, county 15001
//   iowa-electricity.csv                 U.S. Government Dataset (EIA)       -> eia ELEC.GEN.{FOS,NUC,REN}-99.A, state 19
//   obesity.json                         U.S. Government Dataset (CDC BRFSS) -> cdc Q036, 50 states, 1995
//   gapminder.json                       CC BY 4.0 (Gapminder)               -> gapminder population, life expectancy, fertility
//   budget.json                          U.S. Government Dataset (OMB)       -> fred FYFR, FY1962-FY2014
// Not used: sp500.csv and stocks.csv (no licence stated; S&P data are copyrighted), budgets.json (NYT projections in
// 2010 dollars, no observed series), global-temp.csv (a global series, and the regions table has no world region).
//
// Writes go through writeManySeries (the one write path), in batches of series so the progress bar moves and no
// transaction grows large; a re-run finds every value unchanged and writes nothing.
import usEmploymentCsv from "../../node_modules/vega-datasets/data/us-employment.csv" with { type: "text" };
import countyUnemploymentTsv from "../../node_modules/vega-datasets/data/unemployment.tsv" with { type: "text" };
import co2Csv from "../../node_modules/vega-datasets/data/co2-concentration.csv" with { type: "text" };
import iowaCsv from "../../node_modules/vega-datasets/data/iowa-electricity.csv" with { type: "text" };
import industriesJson from "../../node_modules/vega-datasets/data/unemployment-across-industries.json";
import obesityJson from "../../node_modules/vega-datasets/data/obesity.json";
import gapminderJson from "../../node_modules/vega-datasets/data/gapminder.json";
import budgetJson from "../../node_modules/vega-datasets/data/budget.json";
import type { Db } from "../client";
import { indicatorIdsBySourceCode } from "../repos/catalog";
import { writeManySeries, type SeriesWrite } from "../repos/observations";
import { listRegions } from "../repos/regions";
import { COUNTY_CHANGES } from "../../src/domain/region-list";
import {
  co2Concentration, countyCodeRenames, countyUnemployment, federalReceipts, gapminder, iowaElectricity, obesity,
  unemploymentAcrossIndustries, usEmployment, type SampleSeries,
} from "../../src/domain/vega-samples";
import { CPS_INDUSTRY_CODES } from "./catalog-data";
import type { SeedOptions } from "./options";

/** Every sample series, parsed from the package files. */
export function sampleSeries(): SampleSeries[] {
  return [
    ...usEmployment(usEmploymentCsv),
    ...unemploymentAcrossIndustries(industriesJson as never, CPS_INDUSTRY_CODES),
    ...countyUnemployment(countyUnemploymentTsv, countyCodeRenames(COUNTY_CHANGES)),
    ...co2Concentration(co2Csv),
    ...iowaElectricity(iowaCsv),
    ...obesity(obesityJson as never),
    ...gapminder(gapminderJson as never),
    ...federalReceipts(budgetJson as never),
  ];
}

export type SampleSeedResult = {
  series: number;
  inserted: number;
  revised: number;
  unchanged: number;
  /** Series whose region the regions table does not hold (counties since split or merged). */
  skipped: { dataset: string; code: string; region: string }[];
};

// Series per write transaction: small enough that progress moves, large enough that statements stay few. A batch
// holds one file's series (measured on PGlite: mixing the long national series with hundreds of one-row county
// series in one transaction took about three times as long as writing them apart).
const BATCH_SERIES = 500;

function batches<T extends { dataset: string }>(writes: T[]): T[][] {
  const out: T[][] = [];
  for (const w of writes) {
    const last = out[out.length - 1];
    if (last && last.length < BATCH_SERIES && last[0].dataset === w.dataset) last.push(w);
    else out.push([w]);
  }
  return out;
}

export async function seedSamples(db: Db, opts: SeedOptions = {}): Promise<SampleSeedResult> {
  const now = opts.now ?? new Date();
  const all = sampleSeries();
  const regionCodes = new Set((await listRegions(db)).map((r) => r.code));
  const ids = await indicatorIdsBySourceCode(db);
  const skipped: SampleSeedResult["skipped"] = [];
  const writes: (SeriesWrite & { dataset: string })[] = [];
  for (const s of all) {
    const indicatorId = ids.get(`${s.source}:${s.code}`);
    if (!indicatorId) throw new Error(`sample ${s.dataset}: indicator ${s.source}:${s.code} is not in the catalog (seed the catalog first)`);
    if (!regionCodes.has(s.region)) {
      skipped.push({ dataset: s.dataset, code: s.code, region: s.region });
      continue;
    }
    const sourceUpdatedAt = s.sourceUpdatedAt ? new Date(s.sourceUpdatedAt) : null;
    writes.push({
      dataset: s.dataset,
      indicatorId,
      regionCode: s.region,
      rows: s.rows.map((r) => ({ date: r.date, value: r.value, isPreliminary: r.isPreliminary ?? false, sourceUpdatedAt })),
    });
  }

  const result: SampleSeedResult = { series: writes.length, inserted: 0, revised: 0, unchanged: 0, skipped };
  opts.progress?.start("sample series", writes.length);
  for (const batch of batches(writes)) {
    for (const r of await writeManySeries(db, { items: batch, now })) {
      result.inserted += r.inserted;
      result.revised += r.revised;
      result.unchanged += r.unchanged;
    }
    opts.progress?.tick(batch.length);
  }
  opts.progress?.done(`${result.inserted} observations new, ${result.revised} revised, ${skipped.length} series skipped (region not held)`);
  return result;
}
