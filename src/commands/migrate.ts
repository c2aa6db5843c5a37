import { openConfiguredDatabase } from "../bootstrap";
import type { Command } from "./command";

export const migrateCommand: Command = {
  summary: "Apply database migrations (also done on every start).",
  async run(_args, config) {
    const database = await openConfiguredDatabase(config, { maintenance: true });
    await database.close();
    console.log(`migrations applied (${database.kind})`);
  },
};
