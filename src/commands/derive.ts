// `svc derive [CODE...]`: recomputes the derived svc: series (all, or the named ones) for every place whose inputs are
// held, through the one write path (unchanged values write nothing; changed ones become revisions). Seeds, imports,
// ingests, refreshes and on-demand fetches already derive after they write (reads never do): this is for data written
// any other way.
import { openConfiguredDatabase } from "../configured-database";
import { createCaches } from "../services/caches";
import { deriveAll } from "../services/derived-series";
import { CliError } from "./cli-error";
import type { Command } from "./command";

export const deriveCommand: Command = {
  usage: "[svc:CODE ...]",
  async run(args, config) {
    const bad = args.find((a) => !a.startsWith("svc:"));
    if (bad) throw new CliError(`not a derived series code: ${bad} (they start with svc:)`);
    const database = await openConfiguredDatabase(config, { maintenance: true });
    try {
      const db = database.db;
      const summary = await deriveAll(
        { db, caches: createCaches(database), now: () => new Date() },
        args.length ? args : undefined,
      );
      for (const s of summary)
        console.log(
          `${s.status === "derived" ? "derived" : "skipped"} ${s.indicator} ${s.region}${s.reason ? `: ${s.reason}` : ""}`,
        );
      console.log(
        `${summary.filter((s) => s.status === "derived").length} series derived, ${summary.filter((s) => s.status === "skipped").length} skipped`,
      );
    } finally {
      await database.close();
    }
  },
};
