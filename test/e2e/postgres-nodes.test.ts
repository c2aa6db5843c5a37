// Nodes on a PostgreSQL instance this test starts and stops itself (initdb + pg_ctl; skipped with a message where
// they cannot run): several nodes starting at once on an empty database (before the fix one died in migrations,
// duplicate key on pg_type; now migrations and the first-start seed run under an advisory lock: every node starts, the
// seed runs once), then two nodes through three outages under load on that seeded database.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import postgres from "postgres";
import { ownPostgres } from "../support/own-postgres";
import { cli as runCli } from "../../bench/lib/serve-app";

// Safety nets, not measures: servers here wait for "ready", after a first start that seeds the whole snapshot into
// PostgreSQL (minutes while other test files run beside it).
setDefaultTimeout(600_000);

const ROOT = resolve(import.meta.dir, "../..");
const own = ownPostgres();
const { skip, dirs, createDatabase } = own;

// Before the fix a node died in 3 of 5 such outages (postgres.js wrote to a socket it had already
// closed, from a setImmediate: an uncaught TypeError). Two `svc serve` nodes on one database, 16 clients, PostgreSQL
// stopped and started three times: both nodes answer every request (503 while it is down, 200 after), and neither
// process has exited when the test stops them.

/** The error lines (and stop steps left behind) each server logged after "ready": what a failed exit is explained by. */
const laterErrors = new Map<Bun.Subprocess, string[]>();

/** The server's JSON log lines up to "ready" (it serves data from then on); throws with its output if it exits first. */
async function untilListening(proc: Bun.Subprocess<"ignore", "ignore", "pipe">): Promise<any[]> {
  const reader = proc.stderr.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`server exited ${await proc.exited} before ready:\n${text}`);
    text += decoder.decode(value, { stream: true });
    // Whole lines only: the last one may still be arriving.
    const entries = text
      .split("\n")
      .slice(0, -1)
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l));
    if (entries.some((e) => e.msg === "ready")) {
      // Keep draining so the server never blocks on a full pipe, keeping the error lines.
      const errors: string[] = [];
      laterErrors.set(proc, errors);
      let rest = text.slice(text.lastIndexOf("\n") + 1);
      void (async () => {
        for (;;) {
          const next = await reader.read();
          if (next.done) break;
          rest += decoder.decode(next.value, { stream: true });
          const lines = rest.split("\n");
          rest = lines.pop()!;
          errors.push(
            ...lines.filter(
              (l) => l.includes('"level":"error"') || l.includes('"level":"fatal"') || l.includes('"msg":"stop: '),
            ),
          );
        }
      })().catch(() => {});
      return entries;
    }
  }
}

describe.skipIf(!!skip)("nodes starting at once on an empty database", () => {
  test("four `svc migrate` at once on an empty database all succeed", async () => {
    const url = await createDatabase("migrate_race");
    const env = {
      ...process.env,
      DATABASE_URL: url,
      LOG_LEVEL: "error",
      DATA_DIR: mkdtempSync(join(tmpdir(), "svc-migrate-")),
    };
    dirs.push(env.DATA_DIR);
    const procs = Array.from({ length: 4 }, () =>
      Bun.spawn([process.execPath, "src/cli.ts", "migrate"], { cwd: ROOT, env, stdout: "pipe", stderr: "pipe" }),
    );
    const results = await Promise.all(
      procs.map(async (p) => ({ code: await p.exited, err: await new Response(p.stderr).text() })),
    );
    expect(results).toEqual(Array.from({ length: 4 }, () => ({ code: 0, err: "" })));
  });

  test("three `svc serve` at once on an empty database: all listen, one seeds, the seed is there once", async () => {
    const url = await createDatabase("first_start_race");
    const procs: Bun.Subprocess<"ignore", "ignore", "pipe">[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        const dataDir = mkdtempSync(join(tmpdir(), "svc-first-start-"));
        dirs.push(dataDir);
        const env = {
          ...process.env,
          DATABASE_URL: url,
          DATA_DIR: dataDir,
          PORT: "0",
          HOST: "127.0.0.1",
          LOG_LEVEL: "info",
          NODE_ENV: "production",
          X402_NETWORKS: "none",
          LIGHTNING_BACKEND: "none",
        };
        procs.push(
          Bun.spawn([process.execPath, "src/cli.ts", "serve"], {
            cwd: ROOT,
            env,
            stdin: "ignore",
            stdout: "ignore",
            stderr: "pipe",
          }),
        );
      }
      const logs = await Promise.all(procs.map((p) => untilListening(p)));
      const seeded = logs.filter((l) =>
        l.some((e) => e.msg?.startsWith("seeding regions, catalog and the real data snapshot")),
      );
      expect(seeded.length).toBe(1);
      const db = postgres(url, { max: 1, onnotice: () => {} });
      const [{ regions, codes }] =
        await db`select count(*)::int as regions, count(distinct code)::int as codes from regions`;
      await db.end();
      expect(regions).toBeGreaterThan(3000);
      expect(codes).toBe(regions);
    } finally {
      for (const p of procs) p.kill("SIGTERM");
      await Promise.all(procs.map((p) => p.exited));
    }
  });
});

describe.skipIf(!!skip)("two nodes through three PostgreSQL outages under load", () => {
  test("both nodes answer throughout: 503 while PostgreSQL is down, 200 after each restart, no process exits", async () => {
    // The race test's seeded database when it ran (else the nodes seed this one first: minutes).
    const url = await createDatabase("outage_nodes", "first_start_race");
    const base = {
      ...process.env,
      DATABASE_URL: url,
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      NODE_ENV: "production",
      X402_NETWORKS: "none",
      LIGHTNING_BACKEND: "none",
      REDIS_URL: "",
      PUBLIC_BASE_URL: "",
    };
    const dataDir = () => {
      const d = mkdtempSync(join(tmpdir(), "svc-outage-"));
      dirs.push(d);
      return d;
    };
    const seedEnv = { ...base, DATA_DIR: dataDir(), LOG_LEVEL: "error" };
    const key = (await runCli(["keys", "create", "--plan", "free", "--rate-limit", "2000000000"], seedEnv)).split(
      "\n",
    )[0]!;
    const procs: Bun.Subprocess<"ignore", "ignore", "pipe">[] = [];
    try {
      const urls: string[] = [];
      for (let i = 0; i < 2; i++) {
        const p = Bun.spawn([process.execPath, "src/cli.ts", "serve"], {
          cwd: ROOT,
          env: { ...base, DATA_DIR: dataDir() },
          stdin: "ignore",
          stdout: "ignore",
          stderr: "pipe",
        });
        procs.push(p);
        const entries = await untilListening(p);
        urls.push(entries.find((e) => e.msg === "listening").url);
      }
      // 16 clients, alternating nodes, alternating a page (served from the page memo without the database) and
      // /v1/ping (reads usage from the database). Each request gets 10 s to be answered.
      type Sample = { node: number; phase: string; status: number | "none" };
      const samples: Sample[] = [];
      let phase = "before";
      let stopping = false;
      const loops = Array.from({ length: 16 }, async (_, i) => {
        const node = i % 2;
        const path = i % 4 < 2 ? "/v1/ping" : "/v1/observations?indicator=UNRATE&region=US&limit=100";
        while (!stopping) {
          const at = phase;
          try {
            const res = await fetch(urls[node] + path, {
              headers: { "X-API-Key": key },
              signal: AbortSignal.timeout(10_000),
            });
            await res.arrayBuffer();
            samples.push({ node, phase: at, status: res.status });
          } catch {
            samples.push({ node, phase: at, status: "none" });
            await Bun.sleep(10);
          }
        }
      });
      await Bun.sleep(1000);
      for (let round = 1; round <= 3; round++) {
        phase = `down${round}`;
        await own.pg.stop();
        await Bun.sleep(2000);
        phase = `restarting${round}`;
        await own.pg.start();
        // Back by itself: /v1/ping answers 200 on both nodes again.
        for (const node of [0, 1]) {
          let status = 0;
          for (let i = 0; i < 100 && status !== 200; i++) {
            status = (await fetch(urls[node] + "/v1/ping", { headers: { "X-API-Key": key } })).status;
            if (status !== 200) await Bun.sleep(100);
          }
          expect({ round, node, status }).toEqual({ round, node, status: 200 });
        }
        phase = `up${round}`;
        // Enough answers on each node to weigh 200s against the few 503s a broken pool connection may still give (a
        // fixed second held only four answers of a node under a loaded CI: the count, not the clock, is the point).
        const answered = (node: number) => samples.filter((s) => s.node === node && s.phase === phase).length;
        for (const until = Date.now() + 30_000; Date.now() < until && (answered(0) < 40 || answered(1) < 40); )
          await Bun.sleep(50);
      }
      stopping = true;
      await Promise.all(loops);

      const tally = (f: (s: Sample) => boolean) => {
        const t: Record<string, number> = {};
        for (const s of samples.filter(f)) t[String(s.status)] = (t[String(s.status)] ?? 0) + 1;
        return t;
      };
      // Nobody left unanswered, and nothing but 200 and 503 (the envelope's SERVICE_UNAVAILABLE).
      expect(samples.filter((s) => s.status === "none").length).toBe(0);
      expect(new Set(samples.map((s) => s.status))).toEqual(new Set([200, 503]));
      for (const node of [0, 1]) {
        for (let round = 1; round <= 3; round++) {
          // Each node said 503 while the database was down, and serves again once it is back: the phase starts at the
          // node's first 200. A pool connection the outage broke fails the one request it next carries (503) and
          // reconnects, so at most one 503 per connection of the node's pool (10) follows; the rest are 200s.
          expect(tally((s) => s.node === node && s.phase === `down${round}`)["503"] ?? 0).toBeGreaterThan(0);
          const up = tally((s) => s.node === node && s.phase === `up${round}`);
          expect(Object.keys(up).sort()).toEqual(Object.keys(up).length === 1 ? ["200"] : ["200", "503"]);
          expect(up["503"] ?? 0).toBeLessThanOrEqual(10);
          expect(up["200"]).toBeGreaterThan(up["503"] ?? 0);
        }
      }
      // Both processes still running: nobody restarted anything.
      expect(procs.map((p) => p.exitCode)).toEqual([null, null]);
    } finally {
      for (const p of procs) p.kill("SIGTERM");
      const codes = await Promise.all(procs.map((p) => p.exited));
      // The error lines a node logged explain a failed exit status.
      await Bun.sleep(100);
      // A stop step left behind (bounded: the stop still ends, exit 0) is shown, not failed: once in three full runs a
      // node's stop after the outages waited on something for minutes before stops were bounded.
      for (const [i, p] of procs.entries())
        for (const l of laterErrors.get(p)?.filter((l) => l.includes('"msg":"stop: ')) ?? [])
          console.warn(`node ${i}: ${l}`);
      expect(
        procs.map((p, i) => ({ node: i, code: codes[i], errors: codes[i] === 0 ? [] : laterErrors.get(p) })),
      ).toEqual([
        { node: 0, code: 0, errors: [] },
        { node: 1, code: 0, errors: [] },
      ]);
    }
  });
});
