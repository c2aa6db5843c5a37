// Builds the seeds a test run loads before the run starts (.ci/run does, one process per seed so they are built side
// by side): `bun test/support/warm-seeds.ts [test-seed|whole-snapshot|all]`, on the backend TEST_DATABASE_URL names.
// Each is built once across processes and kept under its fingerprint (test/support/seed-cache.ts, db.ts), so this
// does nothing when they are already there.
import { testBackend, warmTestSeeds } from "./db";

const which = (process.argv[2] ?? "all") as "test-seed" | "whole-snapshot" | "all";
if (!["test-seed", "whole-snapshot", "all"].includes(which)) {
  console.error("usage: bun test/support/warm-seeds.ts [test-seed|whole-snapshot|all]");
  process.exit(2);
}
const started = performance.now();
await warmTestSeeds(which);
console.log(`seeds ready (${which}, ${testBackend}) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
process.exit(0);
