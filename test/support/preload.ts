import { afterAll } from "bun:test";
import { runCleanups } from "./cleanup";

// Note: bun resets the default test timeout per file, so files that start databases or processes set their own.
// Dropping every database this run created on PostgreSQL takes longer than the 5 s hook default.
afterAll(runCleanups, 120_000);

// A worker of `bun test --parallel` builds (or waits for) the seeds first: a test hook waiting for a seed another worker
// is building would time out. A plain `bun test` builds a seed when a file first asks for it. A tier none of whose
// files reads the whole snapshot says so (TEST_WARM_SEEDS=test-seed, test/support/run-tier.ts).
if (process.argv.includes("--test-worker")) {
  const { warmTestSeeds } = await import("./db");
  await warmTestSeeds(process.env.TEST_WARM_SEEDS === "test-seed" ? "test-seed" : "all");
}
