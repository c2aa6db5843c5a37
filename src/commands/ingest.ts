// `svc ingest SOURCE [--indicator CODE] [--region CODE | --all-regions] [--start DATE] [--end DATE]`: pulls catalog
// series from their upstream providers now, through the one write path (unchanged values write nothing, changed ones
// become revisions). Without --indicator every indicator of the source; without --region each indicator's default
// region; --all-regions every region of the kinds a per-region indicator is offered for (a LAUS measure across every
// county: 50 series per BLS query with BLS_API_KEY, 25 without). Exit status 1 when a series failed.
import { parseArgs } from "node:util";
import { listAllIndicatorsWithSource, listAllSources, type IndicatorWithSource } from "../../db/repos/catalog";
import { listRegions as listRegionRows, type RegionRow } from "../../db/repos/regions";
import { isIsoDate } from "../domain/calendar";
import { ApiError } from "../errors";
import { systemClock } from "../ports";
import { silentProgress, terminalProgress } from "../progress";
import { deriveAll } from "../services/derived-series";
import { resolveImportIndicator } from "../services/import";
import { ingestSeries, type IngestTarget, type SeriesIngestResult } from "../services/ingest";
import { resolveRegionAmong } from "../services/regions";
import { createConnectors } from "../upstream";
import { CliError } from "./cli-error";
import { consoleContext, type Command } from "./command";
import { withDatabase } from "./access-cli";
import { DATABASE_ENV } from "./help";

/** Failed series listed one per line; past this many, a count. */
const LISTED_FAILURES = 20;

function parseIngestArgs(args: string[]) {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        indicator: { type: "string" },
        region: { type: "string" },
        "all-regions": { type: "boolean" },
        start: { type: "string" },
        end: { type: "string" },
      },
    });
  } catch (e) {
    throw new CliError((e as Error).message);
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1)
    throw new CliError(
      positionals.length === 0
        ? "missing SOURCE (a source slug: fred, bls, census, worldbank)"
        : `expected one SOURCE, got ${positionals.length}`,
    );
  if (values.region !== undefined && values["all-regions"])
    throw new CliError("--region and --all-regions exclude each other");
  for (const name of ["start", "end"] as const) {
    const v = values[name];
    if (v !== undefined && !isIsoDate(v)) throw new CliError(`--${name} must be a YYYY-MM-DD date, got '${v}'`);
  }
  if (values.start && values.end && values.start > values.end) throw new CliError("--start is after --end");
  return {
    source: positionals[0],
    indicator: values.indicator,
    region: values.region,
    allRegions: values["all-regions"] === true,
    start: values.start,
    end: values.end,
  };
}

export function formatIngestSummary(results: SeriesIngestResult[]): string {
  const ok = results.filter((r) => r.status === "ok");
  const failed = results.filter((r) => r.status === "failed").length;
  const unsupported = results.filter((r) => r.status === "unsupported").length;
  const sum = (k: "inserted" | "revised" | "unchanged") => ok.reduce((n, r) => n + r[k], 0);
  return (
    `${results.length} series: ${ok.length} fetched (${sum("inserted")} inserted, ${sum("revised")} revised, ${sum("unchanged")} unchanged)` +
    `, ${failed} failed, ${unsupported} not fetchable`
  );
}

export const ingestCommand: Command = {
  usage: "SOURCE [--indicator CODE] [--region CODE | --all-regions] [--start YYYY-MM-DD] [--end YYYY-MM-DD]",
  admin: true,
  env: [
    ...DATABASE_ENV,
    "FRED_API_KEY, BLS_API_KEY, CENSUS_API_KEY (provider keys; see README)",
    "FRED_BASE_URL, BLS_BASE_URL, CENSUS_BASE_URL, WORLDBANK_BASE_URL, UPSTREAM_TIMEOUT_MS",
  ],
  async run(args, config, ctx = consoleContext()) {
    const opts = parseIngestArgs(args);
    await withDatabase(config, ctx, {}, async ({ database, caches }) => {
      const db = database.db;
      const store = { db, caches };
      const sources = await listAllSources(db);
      if (!sources.some((s) => s.slug === opts.source)) {
        throw new CliError(
          `unknown source '${opts.source}' (sources: ${sources.map((s) => s.slug).join(", ") || "none: seed the database first"})`,
          1,
        );
      }
      let indicators: IndicatorWithSource[];
      if (opts.indicator) {
        try {
          indicators = [await resolveImportIndicator(db, opts.indicator, opts.source)];
        } catch (e) {
          throw e instanceof ApiError ? new CliError(e.message, 1) : e;
        }
      } else {
        indicators = (await listAllIndicatorsWithSource(db)).filter((i) => i.sourceSlug === opts.source && i.isActive);
      }

      const regionRows = await listRegionRows(db);
      const byCode = new Map(regionRows.map((r) => [r.code, r]));
      const targets: IngestTarget[] = [];
      for (const indicator of indicators) {
        let regions: RegionRow[];
        if (opts.region !== undefined) {
          let region: RegionRow;
          try {
            region = await resolveRegionAmong(store, opts.region, indicator.regionKinds);
          } catch (e) {
            throw e instanceof ApiError ? new CliError(e.message, 1) : e;
          }
          if (!indicator.regionKinds.includes(region.type)) {
            if (opts.indicator)
              throw new CliError(
                `${indicator.sourceSlug}:${indicator.code} is offered for ${indicator.regionKinds.join(", ")} regions, not for the ${region.type} ${region.code} (${region.name})`,
                1,
              );
            continue;
          }
          regions = [region];
        } else if (opts.allRegions && (indicator.meta as { per_region?: unknown }).per_region === true) {
          regions = regionRows.filter((r) => indicator.regionKinds.includes(r.type));
        } else {
          // A national series, or no region asked for: the indicator's default region.
          const r = indicator.defaultRegionCode ? byCode.get(indicator.defaultRegionCode) : undefined;
          regions = r ? [r] : [];
        }
        for (const region of regions) targets.push({ indicator, region });
      }
      if (targets.length === 0)
        throw new CliError(
          `nothing to ingest for source '${opts.source}'${opts.region ? ` in region '${opts.region}'` : ""}`,
          1,
        );

      // Inside the running server, its connectors: one upstream limiter per process.
      const upstream = ctx.server?.upstream ?? createConnectors(config, { clock: systemClock });
      if (opts.indicator && targets.every((t) => !upstream.refFor(t.indicator, t.region))) {
        const i = targets[0].indicator;
        throw new CliError(
          `no upstream connector serves ${i.sourceSlug}:${i.code}${targets.length === 1 ? ` for ${targets[0].region.code}` : ""} ` +
            `(FRED needs FRED_API_KEY; BLS annual averages need BLS_API_KEY; Census PEP and flows are loaded from files)`,
          1,
        );
      }
      const results = await ingestSeries({ db, upstream, clock: systemClock }, targets, {
        range: opts.start || opts.end ? { start: opts.start, end: opts.end } : undefined,
        progress: ctx.tty ? terminalProgress() : silentProgress,
        progressLabel: `ingest ${opts.source}${opts.indicator ? `:${opts.indicator}` : ""}`,
      });

      const failures = results.filter((r) => r.status === "failed");
      for (const f of failures.slice(0, LISTED_FAILURES))
        ctx.out(`failed ${f.source}:${f.indicator} ${f.region}: ${f.error!.message}`);
      if (failures.length > LISTED_FAILURES) ctx.out(`... and ${failures.length - LISTED_FAILURES} more failed`);
      if (results.some((r) => r.inserted + r.revised > 0)) {
        // As after an import: derived svc: series whose inputs changed are recomputed, and planner statistics refreshed.
        await deriveAll({ ...store, now: () => new Date() });
        await database.exec(
          database.kind === "pglite" ? "VACUUM ANALYZE series, observations" : "ANALYZE series, observations",
        );
      }
      ctx.out(formatIngestSummary(results));
      if (failures.length > 0) {
        const retry = failures.every((f) => f.error!.retryable) ? " (the provider may answer later: run it again)" : "";
        throw new CliError(`${failures.length} of ${results.length} series failed${retry}`, 1);
      }
    });
  },
};
