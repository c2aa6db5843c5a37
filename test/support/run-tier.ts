// Runs one tier of the suite (test/support/tiers.ts) with the flags of `bun run test`:
// `bun test/support/run-tier.ts fast|database|once [bun test flags]` (`bun run test:fast`, `bun run test:db`).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { filesOf, loadsWholeSnapshot, ROOT, TIERS, type Tier } from "./tiers";

const [tier, ...flags] = process.argv.slice(2);
if (!(TIERS as readonly string[]).includes(tier ?? "")) {
  console.error(`usage: bun test/support/run-tier.ts ${TIERS.join("|")} [bun test flags]`);
  process.exit(2);
}
const files = filesOf(tier as Tier);
const env: Record<string, string | undefined> = { ...process.env };
// The inner loop is on the embedded database whatever the shell has set.
if (tier === "fast") delete env.TEST_DATABASE_URL;
// Workers warm only the test seed unless a file of the tier reads the whole snapshot (test/support/preload.ts).
const whole = files.some((f) => loadsWholeSnapshot(readFileSync(join(ROOT, f), "utf8")));
env.TEST_WARM_SEEDS = whole ? "all" : "test-seed";
console.log(`${tier} tier: ${files.length} files${tier === "fast" ? ", on the embedded database" : ""}`);
const argv = [
  "test",
  "--parallel=3",
  "--no-isolate",
  "--timings=test/timings.json",
  ...flags,
  ...files.map((f) => `./${f}`),
];
const run = Bun.spawn([process.execPath, ...argv], { cwd: ROOT, env, stdio: ["inherit", "inherit", "inherit"] });
process.exit(await run.exited);
