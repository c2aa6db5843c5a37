// Import use case: one CSV file's observations into one series (indicator x region), through the one write path,
// so an import follows the same revision rules as every other writer (re-importing identical values changes nothing,
// changed values become revisions).
import type { Db } from "../../db/client";
import type { Store } from "./caches";
import { findIndicatorsByCode } from "../../db/repos/catalog";
import { findSeries, writeSeriesObservations } from "../../db/repos/observations";
import { hasIndicators } from "../../db/repos/seed-state";
import { CsvObservationsError, parseObservationsCsv, type ParsedObservationsCsv } from "../domain/csv-observations";
import { fail } from "../errors";
import { silentProgress, type Progress } from "../progress";
import { resolveRegionAmong } from "./regions";

export type ImportCsvOptions = { dateColumn?: string; valueColumn?: string };

export type ImportCsvArgs = ImportCsvOptions & {
  text: string;
  indicator: string;
  region: string;
  source?: string;
  now: Date;
  progress?: Progress;
};

export type ImportCsvResult = {
  seriesId: number;
  indicator: { id: string; code: string; source: string | null };
  region: { code: string; name: string };
  dateColumn: string;
  valueColumn: string;
  /** Rows in the file, and how many of them had no value. */
  rows: number;
  missing: number;
  inserted: number;
  revised: number;
  unchanged: number;
  /** The series after the import (all its dates, not only the file's). */
  series: { observationCount: number; firstDate: string | null; lastDate: string | null; version: number };
};

/** Parses and checks a CSV without touching a database: 400 INVALID_PARAMETER naming the line and column. */
export function parseImportCsv(text: string, opts: ImportCsvOptions = {}): ParsedObservationsCsv {
  let parsed: ParsedObservationsCsv;
  try {
    parsed = parseObservationsCsv(text, opts);
  } catch (e) {
    if (e instanceof CsvObservationsError) {
      fail("INVALID_PARAMETER", e.message, {
        ...(e.line !== null && { line: e.line }),
        ...(e.column !== null && { column: e.column }),
      });
    }
    throw e;
  }
  if (parsed.rows.length === 0) fail("INVALID_PARAMETER", "the file has a header but no observations");
  return parsed;
}

/**
 * The indicator a code names (exact case preferred, else any case; inactive ones too: data may be loaded before an
 * indicator is switched on), narrowed by source slug; ambiguity across sources is an error listing them.
 */
export async function resolveImportIndicator(db: Db, code: string, source?: string) {
  const any = await findIndicatorsByCode(db, code, true);
  const exact = any.filter((i) => i.code === code);
  const found = exact.length > 0 ? exact : any;
  if (found.length === 0) {
    const hint = (await hasIndicators(db)) ? "" : " (the catalog is empty: seed the database first)";
    fail("RESOURCE_NOT_FOUND", `unknown indicator '${code}'${hint}`, { indicator: code });
  }
  const sources = found.map((i) => i.sourceSlug ?? "(none)");
  if (source !== undefined) {
    const match = found.filter((i) => i.sourceSlug === source);
    if (match.length === 0) {
      fail(
        "RESOURCE_NOT_FOUND",
        `indicator '${code}' is not published by source '${source}' (sources: ${sources.join(", ")})`,
        {
          indicator: code,
          source,
          sources,
        },
      );
    }
    return match[0];
  }
  if (found.length > 1) {
    fail(
      "INVALID_PARAMETER",
      `indicator '${code}' exists in several sources (${sources.join(", ")}): choose one with the source option`,
      {
        indicator: code,
        sources,
      },
    );
  }
  return found[0];
}

export async function importObservationsCsv(store: Store, args: ImportCsvArgs): Promise<ImportCsvResult> {
  const parsed = parseImportCsv(args.text, { dateColumn: args.dateColumn, valueColumn: args.valueColumn });
  const db = store.db;
  const indicator = await resolveImportIndicator(db, args.indicator, args.source);
  const region = await resolveRegionAmong(store, args.region, indicator.regionKinds);
  if (!indicator.regionKinds.includes(region.type)) {
    fail(
      "INVALID_PARAMETER",
      `Indicator '${indicator.code}' is offered for ${indicator.regionKinds.join(", ") || "no region kind"} regions, not for the ${region.type} ${region.code} (${region.name}).`,
      {
        parameter: "region",
      },
    );
  }
  const progress = args.progress ?? silentProgress;

  progress.start(`import ${indicator.code}/${region.code}`, parsed.rows.length);
  const written = await writeSeriesObservations(db, {
    indicatorId: indicator.id,
    regionCode: region.code,
    rows: parsed.rows.map((r) => ({ date: r.date, value: r.value })),
    now: args.now,
    onProgress: (n) => progress.tick(n),
  });
  progress.done();
  const series = (await findSeries(db, indicator.id, region.code))!;

  return {
    seriesId: written.seriesId,
    indicator: { id: indicator.id, code: indicator.code, source: indicator.sourceSlug },
    region: { code: region.code, name: region.name },
    dateColumn: parsed.dateColumn,
    valueColumn: parsed.valueColumn,
    rows: parsed.rows.length,
    missing: parsed.rows.filter((r) => r.value === null).length,
    inserted: written.inserted,
    revised: written.revised,
    unchanged: written.unchanged,
    series: {
      observationCount: series.observationCount,
      firstDate: series.firstDate,
      lastDate: series.lastDate,
      version: series.version,
    },
  };
}
