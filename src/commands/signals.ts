// `svc signals detect [--indicator CODE]`: runs signal detection over every held series (or every series of the
// indicators with that code) and stores the intervals (src/services/signal-detection.ts); a running server carries it
// out on its job thread. Idempotent: a second run on
// unchanged data changes nothing. Writes need no run of it: each queues detection of the series it changed (the
// `detect` job, src/jobs/runtime.ts); this re-detects everything, after a change of the detectors say.
import { parseArgs } from "node:util";
import { detectSignalsForIndicators } from "../services/signal-detection";
import { CliError } from "./cli-error";
import { consoleContext, type Command } from "./command";
import { withDatabase } from "./access-cli";

function parse(args: string[]): { indicator?: string } {
  const [sub, ...rest] = args;
  if (sub !== "detect")
    throw new CliError(
      sub === undefined
        ? "missing subcommand: svc signals detect [--indicator CODE]"
        : `unknown subcommand '${sub}' (expected detect)`,
    );
  try {
    const { values, positionals } = parseArgs({
      args: rest,
      options: { indicator: { type: "string" } },
      allowPositionals: true,
    });
    if (positionals.length > 0) throw new CliError(`unexpected argument '${positionals[0]}'`);
    return { indicator: values.indicator };
  } catch (e) {
    throw e instanceof CliError ? e : new CliError((e as Error).message);
  }
}

export const signalsCommand: Command = {
  usage: "detect [--indicator CODE]",
  admin: true,
  async run(args, config, io = consoleContext()) {
    const { indicator } = parse(args);
    await withDatabase(config, io, {}, async ({ database, caches }) => {
      const ctx = { db: database.db, caches, now: () => new Date() };
      let ids: string[] | undefined;
      if (indicator !== undefined) {
        const catalog = await ctx.caches.catalog.catalog();
        const rows = catalog.byLowerCode.get(indicator.toLowerCase()) ?? [];
        const exact = rows.filter((r) => r.code === indicator);
        ids = (exact.length ? exact : rows).map((r) => r.id);
        if (ids.length === 0) throw new CliError(`unknown indicator '${indicator}' (not in the catalog)`);
      }
      const t0 = performance.now();
      // Carried out by a running server: on its job thread, off the thread that answers requests.
      const jobs = io.server?.jobs;
      const s =
        jobs?.detectSignals && jobs.runsJobs
          ? await jobs.detectSignals(ids)
          : await detectSignalsForIndicators(ctx, ids);
      const seconds = (performance.now() - t0) / 1000;
      io.out(
        `${s.series} series (${s.observations} observations) in ${seconds.toFixed(1)} s: ${s.inserted} intervals new, ${s.updated} updated, ${s.removed} removed, ${s.unchanged} unchanged`,
      );
    });
  },
};
