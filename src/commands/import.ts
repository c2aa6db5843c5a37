// `svc import FILE --indicator CODE --region CODE [--source SLUG] [--date-column C] [--value-column C]`:
// loads a CSV into one series. FRED downloads (`observation_date,UNRATE` or `date,value`) need no column flags.
import { parseArgs } from "node:util";
import { ApiError } from "../errors";
import { silentProgress, terminalProgress } from "../progress";
import { importObservationsCsv, parseImportCsv, type ImportCsvResult } from "../services/import";
import { deriveAll } from "../services/derived-series";
import { CliError } from "./cli-error";
import { createLogger } from "../logger";
import { seedIfNeeded } from "../services/seeding";
import { restoreKeptImage } from "../startup/image";
import { consoleContext, type Command } from "./command";
import { withDatabase } from "./access-cli";
import { resolve } from "node:path";

// Below this many rows an import takes a blink; a bar would only flicker.
const PROGRESS_MIN_ROWS = 1000;

function parseImportArgs(args: string[]) {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        indicator: { type: "string" },
        region: { type: "string" },
        source: { type: "string" },
        "date-column": { type: "string" },
        "value-column": { type: "string" },
      },
    });
  } catch (e) {
    throw new CliError((e as Error).message);
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) {
    throw new CliError(
      positionals.length === 0 ? "missing FILE (the CSV to import)" : `expected one FILE, got ${positionals.length}`,
    );
  }
  if (!values.indicator) throw new CliError("missing --indicator CODE");
  if (!values.region) throw new CliError("missing --region CODE");
  return {
    file: positionals[0],
    indicator: values.indicator,
    region: values.region,
    source: values.source,
    dateColumn: values["date-column"],
    valueColumn: values["value-column"],
  };
}

// Service errors carry API wording; on the command line the options have flag names.
function asCliError(e: unknown, file: string): unknown {
  if (!(e instanceof ApiError)) return e;
  const message = e.message
    .replace("the source option", "--source")
    .replace("the value column option", "--value-column")
    .replace(/^date column /, "--date-column ")
    .replace(/^value column /, "--value-column ");
  return new CliError(/^line \d/.test(message) ? `${file}: ${message}` : message, 1);
}

export function formatImportResult(r: ImportCsvResult): string {
  const s = r.series;
  const span = s.firstDate ? `${s.firstDate}..${s.lastDate}` : "no dates";
  const source = r.indicator.source ? ` (${r.indicator.source})` : "";
  const missing = r.missing > 0 ? `; ${r.missing} of the file's ${r.rows} rows have no value` : "";
  return (
    `${r.inserted} inserted, ${r.revised} revised, ${r.unchanged} unchanged ` +
    `(series ${r.indicator.code}${source} / ${r.region.code}: ${s.observationCount} observations, ${span}${missing})`
  );
}

export const importCommand: Command = {
  usage: "FILE --indicator CODE --region CODE [--source SLUG] [--date-column C --value-column C]",
  admin: true,
  async run(args, config, ctx = consoleContext()) {
    const opts = parseImportArgs(args);
    // Relative to the directory the command was typed in, also when the running server carries it out.
    const file = Bun.file(resolve(ctx.cwd, opts.file));
    if (!(await file.exists())) throw new CliError(`cannot read ${opts.file}: no such file`, 1);
    let text: string;
    try {
      text = await file.text();
    } catch (e) {
      throw new CliError(`cannot read ${opts.file}: ${(e as Error).message}`, 1);
    }
    // A malformed file is reported before the database is opened (or created).
    let rows: number;
    try {
      rows = parseImportCsv(text, opts).rows.length;
    } catch (e) {
      throw asCliError(e, opts.file);
    }

    const logger = createLogger(config.logLevel);
    // A fresh embedded data directory starts from the seeded image when this machine has one, as `svc serve` does.
    if (!ctx.server) await restoreKeptImage(config, logger);
    await withDatabase(config, ctx, { maintenance: true }, async ({ database, caches }) => {
      try {
        // A fresh data directory (or database) is migrated and seeded first, as `svc serve` does, with the same progress.
        if (!ctx.server) await seedIfNeeded(database, { now: new Date(), progress: terminalProgress(), logger });
        const store = { db: database.db, caches };
        const result = await importObservationsCsv(store, {
          text,
          indicator: opts.indicator,
          region: opts.region,
          source: opts.source,
          dateColumn: opts.dateColumn,
          valueColumn: opts.valueColumn,
          now: new Date(),
          progress: ctx.tty && rows >= PROGRESS_MIN_ROWS ? terminalProgress() : silentProgress,
        });
        // PGlite has no autovacuum: refresh planner statistics and the visibility map (index-only scans) ourselves.
        // PostgreSQL's autovacuum keeps the visibility map; statistics are refreshed at once so new series plan well.
        if (result.inserted + result.revised > 0) {
          // Derived svc: series whose inputs just changed are recomputed now (unchanged ones write nothing).
          await deriveAll({ ...store, now: () => new Date() });
          await database.exec(
            database.kind === "pglite" ? "VACUUM ANALYZE series, observations" : "ANALYZE series, observations",
          );
        }
        ctx.out(formatImportResult(result));
      } catch (e) {
        throw asCliError(e, opts.file);
      }
    });
  },
};
