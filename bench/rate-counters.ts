// Memory of the in-process rate-limit counters under a flood from rotating client addresses: one provisioning
// counter per address (`provision:client:<ip>`, one-minute windows), as the strangers' budget counts them, for
// --addresses distinct addresses over --minutes minutes. Prints the JavaScript heap after a full collection, before and
// after the flood (the store of --root: the code before a change with --root /work/main).
//   bun bench/rate-counters.ts [--root /work/main] [--addresses 1000000] [--minutes 10]
import { join } from "node:path";
import { parseArgs } from "node:util";
import { heapStats } from "bun:jsc";
import { REPO_ROOT } from "./lib/load";

const { values: args } = parseArgs({
  options: { root: { type: "string" }, addresses: { type: "string" }, minutes: { type: "string" } },
});
const ROOT = args.root ?? REPO_ROOT;
const ADDRESSES = Number(args.addresses ?? 1_000_000);
const MINUTES = Number(args.minutes ?? 10);
const { memoryRateLimitStore } = (await import(
  join(ROOT, "src/services/rate-limit-stores.ts")
)) as typeof import("../src/services/rate-limit-stores");

const heapMb = () => {
  Bun.gc(true);
  return heapStats().heapSize / 1e6;
};
const store = memoryRateLimitStore();
const before = heapMb();
const t0 = performance.now();
const perMinute = Math.ceil(ADDRESSES / MINUTES);
const samples: string[] = [];
for (let i = 0; i < ADDRESSES; i++) {
  const minute = Math.floor(i / perMinute);
  store.hit(`provision:client:10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, minute, 61_000);
  if ((i + 1) % perMinute === 0) samples.push(heapMb().toFixed(0));
}
const ms = performance.now() - t0;
const after = heapMb();
console.log(
  `\nrate-limit counters (${ROOT}): ${ADDRESSES.toLocaleString("en-US")} addresses over ${MINUTES} windows\n`,
);
console.log("| heap before | heap after | heap after each window (MB) | per hit |");
console.log("|---|---|---|---|");
console.log(
  `| ${before.toFixed(0)} MB | ${after.toFixed(0)} MB | ${samples.join(" ")} | ${((ms * 1000) / ADDRESSES).toFixed(2)} µs |`,
);
