// `svc flows import-irs YYZZ [--direction inflow|outflow]`: loads the IRS SOI national county-to-county migration
// files of one year pair (countyinflowYYZZ.csv and countyoutflowYYZZ.csv under IRS_SOI_BASE_URL) into the flows
// table, served by GET /v1/flows. Re-running writes nothing that did not change.
import { parseArgs } from "node:util";
import { openConfiguredDatabase } from "../configured-database";
import { irsYearPairPeriod } from "../domain/flows";
import { importIrsSoiFlows, type FlowImportResult } from "../services/flows-import";
import { IRS_SOI_DIRECTIONS, UpstreamError, createIrsSoiClient, type IrsSoiDirection } from "../upstream/irs-soi";
import { CliError } from "./cli-error";
import type { Command } from "./command";

const USAGE = "import-irs YYZZ [--direction inflow|outflow]";

export function formatFlowImport(r: FlowImportResult): string {
  const lines = r.files.map(
    (f) =>
      `${f.url}: ${f.records} flows (${f.written} new or changed); skipped ${f.skipped.pseudo} totals and other-flows rows, ` +
      `${f.skipped.nonMigrants} non-migrant rows, ${f.skipped.repeated} repeated rows; ${f.suppressed} values suppressed`,
  );
  if (r.unknownRegions.length > 0) {
    const shown = r.unknownRegions
      .slice(0, 10)
      .map((u) => u.code)
      .join(", ");
    lines.push(
      `not regions here, not stored: ${r.unknownRegions.length} codes (${shown}${r.unknownRegions.length > 10 ? ", ..." : ""})`,
    );
  }
  return lines.join("\n");
}

export const flowsCommand: Command = {
  usage: USAGE,
  async run(args, config) {
    let parsed;
    try {
      parsed = parseArgs({ args, allowPositionals: true, options: { direction: { type: "string" } } });
    } catch (e) {
      throw new CliError((e as Error).message);
    }
    const [sub, yearPair, ...rest] = parsed.positionals;
    if (sub !== "import-irs" || !yearPair || rest.length > 0) throw new CliError(`usage: svc flows ${USAGE}`);
    if (!irsYearPairPeriod(yearPair))
      throw new CliError(`'${yearPair}' is not a year pair YYZZ (e.g. 1415 for returns filed in 2014 and 2015)`);
    const direction = parsed.values.direction;
    if (direction !== undefined && !IRS_SOI_DIRECTIONS.includes(direction as IrsSoiDirection))
      throw new CliError(`--direction must be inflow or outflow, not '${direction}'`);
    const directions = direction ? [direction as IrsSoiDirection] : IRS_SOI_DIRECTIONS;

    const database = await openConfiguredDatabase(config);
    try {
      const client = createIrsSoiClient({ baseUrl: config.upstream.irsSoi.baseUrl });
      console.log(
        formatFlowImport(await importIrsSoiFlows(database.db, client, { yearPair, directions, now: new Date() })),
      );
    } catch (e) {
      if (e instanceof UpstreamError) throw new CliError(e.message, 1);
      throw e;
    } finally {
      await database.close();
    }
  },
};
