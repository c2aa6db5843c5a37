// Everything createApp needs from the outside world, injected so tests control time, randomness and I/O.
import type { Config } from "./config";
import type { Database } from "../db/client";
import type { Logger } from "./logger";
import type { AccessGate } from "./http/paid";

export type Clock = { now(): Date };
export type RandomSource = { bytes(n: number): Uint8Array };

export const systemClock: Clock = { now: () => new Date() };
export const cryptoRandom: RandomSource = { bytes: (n) => crypto.getRandomValues(new Uint8Array(n)) };

export type Deps = {
  config: Config;
  database: Database;
  clock: Clock;
  random: RandomSource;
  logger: Logger;
  version: string;
  /** Key entitlement/allowance and per-request payment; openAccess until those layers are configured. */
  access: AccessGate;
};
