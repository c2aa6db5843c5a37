// Seeds real origin-destination flows from the gzip files in db/seed/snapshot/migration-flows (origin, commits and
// licence in the README beside them), so a fresh database answers GET /v1/flows with no network:
//   acs_state_to_state_2019.csv.gz            Census ACS 1-year 2019 state-to-state matrix -> movers, 51 x 50 edges
//   countyinflow1415.csv.gz                   IRS SOI county-to-county flows into every county, 2014 -> 2015
//                                              -> returns, exemptions, agi (irs-soi-county-flows/)
//   irs_06075_sf_county_flows_2004_2015.csv.gz IRS SOI flows in and out of San Francisco County, 0405..1415
//                                              -> returns, exemptions, agi; read after the national file, so its
//                                              values stand for San Francisco's edges (the IRS outflow file, which
//                                              it follows for flows out of San Francisco, differs from the inflow
//                                              file by a return or two on 95 of 36,001 edges)
// The files are imported `with { type: "file" }` so `bun build --compile` embeds them (a path at runtime, read with
// Bun.file). Parsing is src/domain/acs-flows.ts and irs-soi-flows.ts; records naming a code that is not a region
// (a county since renamed or merged) are skipped and reported. Writes go through db/repos/flows.ts; a re-run finds
// every value unchanged and writes nothing. Regions must be seeded first.
import acsStatesGzPath from "./snapshot/migration-flows/acs_state_to_state_2019.csv.gz" with { type: "file" };
import irsCountyInflowGzPath from "./snapshot/irs-soi-county-flows/countyinflow1415.csv.gz" with { type: "file" };
import irsSanFranciscoGzPath from "./snapshot/migration-flows/irs_06075_sf_county_flows_2004_2015.csv.gz" with {
  type: "file",
};
import type { Database } from "../client";
import { copyInto } from "../copy";
import { FLOWS_COPY_TARGET, flowCsvLine, holdsFlows, upsertFlows } from "../repos/flows";
import { listRegions } from "../repos/regions";
import { parseAcsStateMatrix } from "../../src/domain/acs-flows";
import { keepKnownRegions, type FlowRecord } from "../../src/domain/flows";
import { parseIrsSoiCountyFlows } from "../../src/domain/irs-soi-flows";
import type { SeedOptions } from "./options";

export type FlowSeedResult = {
  /** Records parsed from the files, and rows inserted or changed by this run (0 on a re-run). */
  records: number;
  written: number;
  /** Codes of the files that are not regions, with how many records named them. */
  unknownRegions: { code: string; records: number }[];
};

async function gunzipText(path: string): Promise<string> {
  return new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await Bun.file(path).arrayBuffer())));
}

/** Every flow record of the seed files (regions are needed to name the ACS states). */
export async function seedFlowRecords(stateCode: (name: string) => string | null): Promise<FlowRecord[]> {
  const [acs, irsNational, irs] = await Promise.all([
    gunzipText(acsStatesGzPath),
    gunzipText(irsCountyInflowGzPath),
    gunzipText(irsSanFranciscoGzPath),
  ]);
  const national = parseIrsSoiCountyFlows(irsNational, { yearPair: "1415" }).flows;
  const sanFrancisco = parseIrsSoiCountyFlows(irs).flows;
  const key = (f: FlowRecord) => `${f.measure}|${f.origin}|${f.destination}|${f.periodStart}`;
  const fromSanFrancisco = new Set(sanFrancisco.map(key));
  return [
    ...parseAcsStateMatrix(acs, { year: 2019, stateCode }),
    ...national.filter((f) => !fromSanFrancisco.has(key(f))),
    ...sanFrancisco,
  ];
}

/** Flow rows per COPY transaction, on a fresh database. */
const COPY_ROWS = 20_000;

export async function seedFlows(
  database: Pick<Database, "db" | "raw">,
  opts: SeedOptions = {},
): Promise<FlowSeedResult> {
  const db = database.db;
  const regions = await listRegions(db);
  if (regions.length === 0) throw new Error("seed flows: the regions table is empty (seed the regions first)");
  const states = new Map(regions.filter((r) => r.type === "state").map((r) => [r.name, r.code]));
  opts.progress?.start("flows: reading files", 1);
  const records = await seedFlowRecords((name) => states.get(name) ?? null);
  opts.progress?.done();
  const known = keepKnownRegions(records, new Set(regions.map((r) => r.code)));
  const unknown = known.unknown;
  // A region filter (test databases) keeps the flows that touch a kept region.
  const filter = opts.regionFilter;
  const kept = filter ? known.kept.filter((f) => filter.keep(f.origin) || filter.keep(f.destination)) : known.kept;
  opts.progress?.start("flows", kept.length);
  const now = opts.now ?? new Date();
  let written: number;
  if (await holdsFlows(db)) written = await upsertFlows(db, kept, now, (n) => opts.progress?.tick(n));
  else {
    // A fresh database: every row is new, and the upsert would write each anyway. COPY writes the same columns in a
    // tenth of the time (a re-run then finds every value unchanged).
    const at = now.toISOString();
    for (let i = 0; i < kept.length; i += COPY_ROWS) {
      const part = kept.slice(i, i + COPY_ROWS);
      // Both ends of every record are regions read above (keepKnownRegions).
      await copyInto(database, FLOWS_COPY_TARGET, part.map((r) => flowCsvLine(r, at)).join(""), { checked: true });
      opts.progress?.tick(part.length);
    }
    written = kept.length;
  }
  const unknownRegions = [...unknown]
    .map(([code, n]) => ({ code, records: n }))
    .sort((a, b) => (a.code < b.code ? -1 : 1));
  opts.progress?.done(
    `${written} flows new or changed, ${records.length - kept.length} skipped (${unknownRegions.length} codes not held as regions)`,
  );
  return { records: records.length, written, unknownRegions };
}
