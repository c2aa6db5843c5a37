// Catalog routes under load, next to a bare Bun.serve baseline measured in the same run.
//   bun run bench/catalog.ts [--connections 64] [--duration 10] [--rounds 1] [--db pglite|postgres|URL]
// Flags and BENCH_* variables are described in bench/lib/load.ts.
import { parseBenchArgs } from "./lib/options";
import { runBench } from "./lib/run-bench";

const opts = parseBenchArgs(process.argv.slice(2), { connections: 64, durationSec: 10 });
await runBench(
  "catalog",
  [
    { name: "indicator search", path: "/v1/indicators?search=unemployment" },
    { name: "county regions", path: "/v1/regions?type=county" },
  ],
  opts,
);
