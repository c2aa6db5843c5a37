import { openConfiguredDatabase } from "../configured-database";
import type { Command } from "./command";

export const migrateCommand: Command = {
  async run(_args, config) {
    const database = await openConfiguredDatabase(config, { maintenance: true });
    await database.close();
    console.log(`migrations applied (${database.kind})`);
  },
};
