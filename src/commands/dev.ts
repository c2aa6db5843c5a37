// `svc dev pay <bolt11>`: pays an invoice of the development Lightning backend and prints its preimage, so the
// L402 flow can be tried locally. It reads the invoice store under DATA_DIR and never opens the database, so it
// works while the server runs. Not available in production mode.
import { cryptoRandom, systemClock } from "../deps";
import { existsSync } from "node:fs";
import { devLightningDir, devLightningNode } from "../payments";
import { CliError } from "./cli-error";
import type { Command } from "./command";

export const devCommand: Command = {
  usage: "pay <bolt11>",
  env: [
    "DATA_DIR (default ./data: where the development Lightning node keeps its invoices)",
    "LIGHTNING_BACKEND (must be dev, the default)",
    "NODE_ENV (not production)",
  ],
  async run(args, config) {
    if (config.env === "production") throw new CliError("'svc dev' is not available in production mode.");
    const [sub, invoice, ...rest] = args;
    if (sub !== "pay" || !invoice || rest.length) throw new CliError("usage: svc dev pay <bolt11>");
    if (config.payments.l402?.backend !== "dev")
      throw new CliError("LIGHTNING_BACKEND is not 'dev': only development invoices can be paid locally.");
    // Only a server's own invoices can be paid: its DATA_DIR holds them. Anywhere else nothing is created (no stray ./data).
    const store = devLightningDir(config.dataDir);
    if (!existsSync(store))
      throw new CliError(
        `no development Lightning invoices in ${store}: run this with the DATA_DIR of the server that issued the invoice`,
        1,
      );
    const result = devLightningNode(config, { clock: systemClock, random: cryptoRandom }).pay(invoice);
    if (!result.ok) throw new CliError(`cannot pay: ${result.message}`, 1);
    console.error(
      `paid ${BigInt(result.amountMsat) / 1000n} sat; retry with 'Authorization: L402 <macaroon>:<preimage>'`,
    );
    console.log(result.preimage);
  },
};
