// Loading flows from an upstream into the flows table: the IRS SOI national county files of one year pair
// (src/upstream/irs-soi.ts), each parsed, kept to edges whose ends are regions (a county since renamed or merged is
// reported, not stored) and written through db/repos/flows.ts, one file at a time (an edge between two counties is in
// both the inflow and the outflow file, with the same values: the second write changes nothing).
import type { Db } from "../../db/client";
import { upsertFlows } from "../../db/repos/flows";
import { listRegions } from "../../db/repos/regions";
import { keepKnownRegions } from "../domain/flows";
import type { IrsSoiClient, IrsSoiDirection } from "../upstream/irs-soi";

export type FlowImportFile = {
  url: string;
  direction: IrsSoiDirection;
  records: number;
  written: number;
  skipped: { pseudo: number; nonMigrants: number; repeated: number };
  suppressed: number;
};

export type FlowImportResult = {
  files: FlowImportFile[];
  /** Codes of the files that are not regions, with how many records named them. */
  unknownRegions: { code: string; records: number }[];
};

export async function importIrsSoiFlows(
  db: Db,
  client: IrsSoiClient,
  opts: { yearPair: string; directions: readonly IrsSoiDirection[]; now: Date },
): Promise<FlowImportResult> {
  const known = new Set((await listRegions(db)).map((r) => r.code));
  const unknown = new Map<string, number>();
  const files: FlowImportFile[] = [];
  for (const direction of opts.directions) {
    const file = await client.countyFlows(direction, opts.yearPair);
    const { kept, unknown: missing } = keepKnownRegions(file.flows, known);
    for (const [code, n] of missing) unknown.set(code, (unknown.get(code) ?? 0) + n);
    const written = await upsertFlows(db, kept, opts.now);
    files.push({
      url: file.url,
      direction,
      records: kept.length,
      written,
      skipped: file.skipped,
      suppressed: file.suppressed,
    });
  }
  return {
    files,
    unknownRegions: [...unknown]
      .map(([code, records]) => ({ code, records }))
      .sort((a, b) => (a.code < b.code ? -1 : 1)),
  };
}
