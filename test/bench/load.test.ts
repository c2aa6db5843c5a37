// The bench runner's parsing of wrk output and of its flags (the load itself is not run here).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { parseBenchArgs } from "../../bench/lib/options";
import { parseWrk } from "../../bench/lib/results";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

const wrkOut = `Running 10s test @ http://127.0.0.1:41234/v1/regions?type=county
  1 threads and 64 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency    35.10ms   20.01ms 151.00ms   80.00%
    Req/Sec     1.62k   200.00     2.00k    70.00%
  Latency Distribution
     50%  633.00us
     75%   40.00ms
     90%   60.00ms
     99%    1.51s
  16150 requests in 10.00s, 6.67GB read
  Socket errors: connect 0, read 2, write 0, timeout 3
  Non-2xx or 3xx responses: 7
Requests/sec:   1615.25
Transfer/sec:    683.13MB
`;

describe("parseWrk", () => {
  test("requests/s, request count, p50 and p99 in ms across us/ms/s units, errors = non-2xx + socket errors", () => {
    expect(parseWrk(wrkOut)).toEqual({ rps: 1615.25, requests: 16150, p50Ms: 0.633, p99Ms: 1510, errors: 12 });
  });
  test("a clean run has zero errors", () => {
    const clean = wrkOut.replace(/ {2}Socket errors.*\n/, "").replace(/ {2}Non-2xx.*\n/, "");
    expect(parseWrk(clean).errors).toBe(0);
  });
  test("output without a latency distribution is refused", () => {
    expect(() => parseWrk("Requests/sec: 10\n")).toThrow(/could not parse wrk output/);
  });
});

describe("parseBenchArgs", () => {
  test("defaults, then the caller's defaults, then flags", () => {
    const env = { ...process.env };
    for (const k of Object.keys(env)) if (k.startsWith("BENCH_")) delete process.env[k];
    try {
      expect(parseBenchArgs([])).toEqual({
        connections: 64,
        durationSec: 10,
        warmupSec: 2,
        rounds: 1,
        threads: 1,
        db: "pglite",
        dataDir: undefined,
        tool: undefined,
        env: undefined,
      });
      expect(parseBenchArgs([], { connections: 16, durationSec: 5 })).toMatchObject({
        connections: 16,
        durationSec: 5,
      });
      expect(
        parseBenchArgs(["--connections", "8", "--duration", "3", "--db", "postgres", "--tool", "autocannon"], {
          connections: 16,
        }),
      ).toMatchObject({ connections: 8, durationSec: 3, db: "postgres", tool: "autocannon" });
    } finally {
      Object.assign(process.env, env);
    }
  });
  test("BENCH_* variables apply, and a flag wins over its variable", () => {
    process.env.BENCH_CONNECTIONS = "32";
    process.env.BENCH_ROUNDS = "3";
    try {
      expect(parseBenchArgs([])).toMatchObject({ connections: 32, rounds: 3 });
      expect(parseBenchArgs(["--connections", "4"])).toMatchObject({ connections: 4, rounds: 3 });
    } finally {
      delete process.env.BENCH_CONNECTIONS;
      delete process.env.BENCH_ROUNDS;
    }
  });
  test("bad values are refused: connections 0 (min 1), warmup -1 (min 0), an unknown tool", () => {
    expect(() => parseBenchArgs(["--connections", "0"])).toThrow("--connections: expected a number >= 1, got 0");
    expect(parseBenchArgs(["--connections", "1"]).connections).toBe(1);
    expect(() => parseBenchArgs(["--warmup=-1"])).toThrow("--warmup: expected a number >= 0, got -1");
    expect(parseBenchArgs(["--warmup", "0"]).warmupSec).toBe(0);
    expect(() => parseBenchArgs(["--tool", "ab"])).toThrow("--tool: wrk or autocannon, got ab");
  });
});
