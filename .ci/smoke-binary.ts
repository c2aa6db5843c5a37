// Smoke test of the compiled binary, as a user would run it: copied alone into an empty temporary
// directory (no node_modules reachable, no source tree), started on a free loopback port.
//
//   bun .ci/smoke-binary.ts [--binary dist/svc] [--postgres <admin-url>] [--timeout <seconds>]
//
// Embedded database (always): `svc` with no arguments must start the server on PGlite in
// DATA_DIR=<tmp>/data, answer /api/health 200 (first start runs initdb, migrations and the seed, hence
// the long timeout), serve the 51 state regions (50 states + DC) and stop cleanly on SIGTERM; then a
// second start on the same DATA_DIR must come up (lock released, data kept) with the same 51 rows.
// PostgreSQL (with --postgres): `svc serve` with DATABASE_URL pointing at a database created for the
// run (and dropped after) must do the same.
//
// Prints one `ok`/`not ok` line per check and ends with `smoke: N passed, N failed`; exits 1 on failure.
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { createDatabase, describeUrl, dropDatabase } from "./pg";

const { values: args } = parseArgs({
  options: {
    binary: { type: "string", default: "dist/svc" },
    postgres: { type: "string" },
    // Until it serves: a first start seeds the whole snapshot, 1.5 to 3 minutes on a busy 2-core machine.
    timeout: { type: "string", default: "300" },
  },
});
const binarySrc = resolve(args.binary!);
const startTimeoutMs = Number(args.timeout) * 1000;

let passed = 0;
let failed = 0;
function check(name: string, ok: boolean, detail = ""): boolean {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? "ok" : "not ok"} - ${name}${detail ? ` (${detail})` : ""}`);
  return ok;
}

async function freePort(): Promise<number> {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
}

/** Collects a child's stdout and stderr in arrival order, for printing when something fails. */
function collect(proc: Bun.Subprocess<"ignore", "pipe", "pipe">): () => string {
  const chunks: string[] = [];
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    const dec = new TextDecoder();
    for await (const chunk of stream) chunks.push(dec.decode(chunk, { stream: true }));
  };
  void pump(proc.stdout);
  void pump(proc.stderr);
  return () => chunks.join("");
}

function printLog(label: string, log: string) {
  const lines = log.trimEnd().split("\n");
  console.log(`---- ${label}: server output (last ${Math.min(lines.length, 80)} of ${lines.length} lines) ----`);
  console.log(lines.slice(-80).join("\n"));
  console.log(`---- end of ${label} output ----`);
}

async function get(url: string, timeoutMs = 10_000): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: res.status, body };
}

type Scenario = { label: string; cwd: string; bin: string; argv: string[]; env: Record<string, string> };

/** Start, health, 51 states, SIGTERM. Returns whether every check passed. */
async function runScenario(s: Scenario): Promise<boolean> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const proc = Bun.spawn([s.bin, ...s.argv], {
    cwd: s.cwd,
    env: { ...s.env, PORT: String(port), HOST: "127.0.0.1" },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const log = collect(proc);
  let allOk = true;
  try {
    let status = 0;
    let lastError = "";
    const deadline = started + startTimeoutMs;
    while (performance.now() < deadline && proc.exitCode === null) {
      try {
        const health = await get(`${base}/api/health`, 5_000);
        status = health.status;
        // 200 serving is the goal (200 `starting`: it answers, but still opens or seeds its database); a 4xx will
        // not change by waiting (503 or no answer yet may: still starting).
        if (status === 200 && health.body?.status === "starting") status = 0;
        else if (status >= 200 && status < 500) break;
      } catch (e) {
        lastError = (e as Error).message;
      }
      await Bun.sleep(250);
    }
    const secs = ((performance.now() - started) / 1000).toFixed(1);
    const why =
      proc.exitCode !== null ? `process exited with code ${proc.exitCode}` : status ? `last status ${status}` : `no answer: ${lastError}`;
    if (!check(`${s.label}: ${s.argv.length ? `\`svc ${s.argv.join(" ")}\`` : "`svc` (no arguments)"} starts, /api/health 200`, status === 200, status === 200 ? `${secs} s` : `${why} after ${secs} s`)) {
      allOk = false;
    } else {
      let n: number | string = "no data array";
      let st = 0;
      try {
        const r = await get(`${base}/v1/regions?type=state`);
        st = r.status;
        if (Array.isArray(r.body?.data)) n = r.body.data.length;
      } catch (e) {
        n = (e as Error).message;
      }
      allOk = check(`${s.label}: /v1/regions?type=state has 51 rows`, st === 200 && n === 51, `status ${st}, ${n} rows`) && allOk;
    }
    proc.kill("SIGTERM");
    const code = await Promise.race([proc.exited, Bun.sleep(15_000).then(() => "timeout" as const)]);
    allOk = check(`${s.label}: stops on SIGTERM with exit code 0`, code === 0, `exit ${code}`) && allOk;
  } finally {
    if (proc.exitCode === null) {
      proc.kill("SIGKILL");
      await proc.exited;
    }
    if (!allOk) printLog(s.label, log());
  }
  return allOk;
}

/** The environment a user would have: nothing of the repository's or of the test runs'. */
function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined) continue;
    if (["DATABASE_URL", "TEST_DATABASE_URL", "DATA_DIR", "PORT", "HOST", "NODE_PATH", "PUBLIC_BASE_URL"].includes(k)) continue;
    env[k] = v;
  }
  return env;
}

function nodeModulesAbove(dir: string): string | null {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, "node_modules"))) return join(d, "node_modules");
    if (dirname(d) === d) return null;
  }
}

/** README's "dist/svc (about N MB" is within 10 % of the size built (a figure a user reads before downloading it). */
function readmeSizeHolds(bytes: number): boolean {
  const readme = readFileSync(resolve(import.meta.dir, "../README.md"), "utf8");
  const stated = /dist\/svc \(about (\d+) MB/.exec(readme);
  return !!stated && Math.abs(Number(stated[1]) * 1e6 - bytes) <= bytes * 0.1;
}

async function main() {
  if (!existsSync(binarySrc)) {
    check(`binary ${args.binary} exists`, false, "run `bun run build` first");
    return;
  }
  const work = mkdtempSync(join(tmpdir(), "svc-smoke-"));
  const stray = nodeModulesAbove(work);
  if (stray) console.log(`note: ${stray} exists above ${work}; the binary must not need it, but this run cannot prove that`);
  const bin = join(work, "svc");
  copyFileSync(binarySrc, bin);
  chmodSync(bin, 0o755);
  console.log(`binary copied to ${bin} (${(Bun.file(bin).size / 1e6).toFixed(0)} MB); running it from there`);
  check("README states the binary's size", readmeSizeHolds(Bun.file(bin).size), `${(Bun.file(bin).size / 1e6).toFixed(0)} MB`);
  let ok = true;

  const embeddedEnv = { ...baseEnv(), DATA_DIR: join(work, "data") };
  ok = (await runScenario({ label: "embedded, first start", cwd: work, bin, argv: [], env: embeddedEnv })) && ok;
  ok = (await runScenario({ label: "embedded, restart on the same DATA_DIR", cwd: work, bin, argv: ["serve"], env: embeddedEnv })) && ok;

  if (args.postgres) {
    const name = `svc_ci_smoke_${process.pid}`;
    let url: string | null = null;
    try {
      url = await createDatabase(args.postgres, name);
    } catch (e) {
      ok = check(`postgres: create database ${name} on ${describeUrl(args.postgres)}`, false, (e as Error).message) && ok;
    }
    if (url) {
      try {
        const env = { ...baseEnv(), DATA_DIR: join(work, "data-unused"), DATABASE_URL: url };
        ok = (await runScenario({ label: `postgres ${describeUrl(url)}`, cwd: work, bin, argv: ["serve"], env })) && ok;
      } finally {
        await dropDatabase(args.postgres, name).catch((e) => console.log(`note: could not drop ${name}: ${(e as Error).message}`));
      }
    }
  }

  if (ok) rmSync(work, { recursive: true, force: true });
  else console.log(`kept ${work} for inspection`);
}

await main();
console.log(`smoke: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
