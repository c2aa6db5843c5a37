// `svc seed`: regions, the curated catalog and the real data snapshot (idempotent), then VACUUM ANALYZE
// (src/services/seeding.ts, which the server's first start and `svc import` run too).
import { SEED_LOCK } from "../../db/client";
import { openConfiguredDatabase } from "../configured-database";
import { terminalProgress } from "../progress";
import { seedAndAnalyze } from "../services/seeding";
import { CliError } from "./cli-error";
import type { Command } from "./command";

export const seedCommand: Command = {
  usage: "",
  async run(args, config) {
    if (args.length > 0) throw new CliError(`unexpected argument '${args[0]}' (seed takes no arguments)`);
    const database = await openConfiguredDatabase(config, { maintenance: true });
    try {
      const t0 = performance.now();
      await database.exclusive(SEED_LOCK, (locked) =>
        seedAndAnalyze(locked, { now: new Date(), progress: terminalProgress() }),
      );
      console.log(`seeded (${database.kind}) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    } finally {
      await database.close();
    }
  },
};
