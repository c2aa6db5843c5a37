// Faults under load: the operator's worst week, each fault started, held and removed while keyed clients read a
// metered page, against real `svc serve` processes on a PostgreSQL instance and a Redis server this script starts
// (bench/lib/instances.ts). For each fault it reports the requests sent, the answers by status, the requests that got
// no answer (must be 0), the metered requests lost (200 answers minus the usage the database holds after a clean
// stop; must be 0) and the time from removing the fault to recovery.
//   bun bench/faults.ts [--clients 16] [--hold 5] [--only disk,journal,postgres,postgres2,redis,host,revoke,start]
// Needs root for the tmpfs (full disk) and for running a server as `nobody` (unwritable journal); those faults are
// skipped with a message otherwise. Writes bench/out/faults-<time>.json.
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { mountSmallDisk, postgresUnavailable, startPostgres, type PgInstance, type SmallDisk } from "./lib/instances";
import { startRedis, type RedisInstance } from "../test/support/redis";
import { REPO_ROOT } from "./lib/load";
import { KEYED_PAGE, cli } from "./lib/serve-app";
import { faultDatabases } from "./lib/fault-databases";
import { reportFaults, type FaultRow } from "./lib/fault-report";
import { firstOkAfter, keyedLoad, startServer, summarize, type Sample, type Server } from "./lib/fault-servers";

const { values: args } = parseArgs({
  options: { clients: { type: "string" }, hold: { type: "string" }, only: { type: "string" } },
});
const CLIENTS = Number(args.clients ?? 16);
const HOLD_MS = Number(args.hold ?? 5) * 1000;
const ONLY = args.only ? new Set(args.only.split(",")) : null;
const isRoot = process.getuid?.() === 0;

const rows: FaultRow[] = [];
const t0 = performance.now();
const log = (msg: string) => console.error(`[${((performance.now() - t0) / 1000).toFixed(1)}s] ${msg}`);

// ------------------------------------------------------------------------------------------------ environment
const pgSkip = postgresUnavailable();
if (pgSkip) {
  console.error(`cannot run: ${pgSkip}`);
  process.exit(1);
}
const pg: PgInstance = await startPostgres();
const redis: RedisInstance | null = await startRedis();
const scratch = mkdtempSync(join(tmpdir(), "svc-faults-"));
chmodSync(scratch, 0o755);
const baseEnv: Record<string, string> = {};
for (const [k, v] of Object.entries(process.env)) {
  if (
    v !== undefined &&
    !/^(DATABASE_URL|DATA_DIR|PORT|HOST|REDIS_URL|SMTP_URL|STRIPE_|X402_|L402_|LIGHTNING_|LND_|PUBLIC_BASE_URL)/.test(k)
  )
    baseEnv[k] = v;
}
Object.assign(baseEnv, {
  NODE_ENV: "production",
  LOG_LEVEL: "info",
  X402_NETWORKS: "none",
  LIGHTNING_BACKEND: "none",
  HOME: tmpdir(),
});

const { freshDatabase, usageOf, emptyDatabase } = await faultDatabases(pg.url, baseEnv, scratch, log);

async function metered(
  fault: string,
  note: string,
  setup: { env: Record<string, string>; asNobody?: boolean; dataDir: string; holdMs?: number },
  inject: (s: Server) => Promise<void>,
  remove: (s: Server) => Promise<void>,
  recovered?: (s: Server, removedAt: number, samples: Sample[]) => Promise<number | null>,
) {
  log(`${fault}: starting`);
  const { url, key, keyId } = await freshDatabase();
  const env = { ...setup.env, DATABASE_URL: url, DATA_DIR: setup.dataDir };
  const server = await startServer(env, { asNobody: setup.asNobody });
  const load = keyedLoad([server], key, CLIENTS);
  await Bun.sleep(2000);
  log(`${fault}: injecting`);
  await inject(server);
  await Bun.sleep(setup.holdMs ?? HOLD_MS);
  log(`${fault}: removing`);
  const removedAt = performance.now();
  await remove(server);
  const recoverMs = recovered ? await recovered(server, removedAt, load.samples) : null;
  await Bun.sleep(3000);
  await load.stop();
  const exit = await server.stop();
  const sum = summarize(load.samples);
  const usage = await usageOf(url, keyId);
  rows.push({
    fault,
    sent: sum.sent,
    statuses: sum.statuses,
    noAnswer: sum.noAnswer,
    lost: sum.ok - usage,
    recoverMs: recoverMs ?? firstOkAfter(load.samples, removedAt),
    note: `${note}; server exit ${exit}`,
  });
  return server;
}

const want = (name: string) => !ONLY || ONLY.has(name);

// ------------------------------------------------------------------------------------------------ faults
try {
  // 1. A full disk under DATA_DIR (the usage journal): 503 while full, never SIGBUS; back when space is freed.
  if (want("disk")) {
    const disk = mountSmallDisk(2048);
    if ("unavailable" in disk)
      rows.push({
        fault: "full disk (DATA_DIR on a 2 MB tmpfs)",
        sent: 0,
        statuses: {},
        noAnswer: 0,
        lost: null,
        recoverMs: null,
        note: `skipped: ${disk.unavailable}`,
      });
    else {
      try {
        // Kept full: the journal frees space as it moves batches to the database, and another writer takes it. The
        // journal first serves from space it had reserved (durably), so this fault is held three times as long.
        let filling: ReturnType<typeof setInterval> | undefined;
        const d = disk as SmallDisk;
        await metered(
          "full disk (DATA_DIR on a 2 MB tmpfs kept full by another writer)",
          `200 from reserved space, then 503 + Retry-After; held ${(3 * HOLD_MS) / 1000} s`,
          { env: baseEnv, dataDir: d.dir, holdMs: 3 * HOLD_MS },
          async () => {
            d.fill();
            filling = setInterval(() => d.fill(), 50);
          },
          async () => {
            clearInterval(filling);
            d.free();
          },
        );
      } finally {
        (disk as SmallDisk).unmount();
      }
    }
  }

  // 2. The journal directory made unwritable at run time (the server runs as nobody: root ignores permissions).
  if (want("journal")) {
    if (!isRoot || !Bun.which("setpriv"))
      rows.push({
        fault: "journal directory chmod 555",
        sent: 0,
        statuses: {},
        noAnswer: 0,
        lost: null,
        recoverMs: null,
        note: "skipped: needs root and setpriv to run the server as nobody",
      });
    else {
      const dataDir = mkdtempSync(join(scratch, "nobody-"));
      const uid = Number(Bun.spawnSync(["id", "-u", "nobody"]).stdout.toString().trim());
      const gid = Number(Bun.spawnSync(["id", "-g", "nobody"]).stdout.toString().trim());
      chownSync(dataDir, uid, gid);
      const journal = join(dataDir, "usage-journal");
      await metered(
        "journal directory chmod 555 (server as nobody)",
        "recording goes on in the live file; sealed again once writable",
        { env: baseEnv, dataDir, asNobody: true },
        async () => chmodSync(journal, 0o555),
        async () => chmodSync(journal, 0o755),
        // Recovered: the meter seals (and moves counts to the database) again.
        async (s, removedAt) => {
          for (let i = 0; i < 100; i++) {
            const line = s.logs.find(
              (l) => l.at >= removedAt && l.entry.msg === "usage meter: the journal is sealed again",
            );
            if (line) return line.at - removedAt;
            await Bun.sleep(50);
          }
          return null;
        },
      );
    }
  }

  // 3. PostgreSQL stopped under load: fast 503s, back by itself; no query parameter in the log.
  if (want("postgres")) {
    const server = await metered(
      "PostgreSQL stopped (pg_ctl stop -m fast), then started",
      "503 + Retry-After while down",
      { env: baseEnv, dataDir: mkdtempSync(join(scratch, "pg-")) },
      async () => pg.stop(),
      async () => pg.start(),
    );
    const row = rows[rows.length - 1]!;
    const hashes = server.logs.filter((l) => /[0-9a-f]{64}/.test(JSON.stringify(l.entry))).length;
    row.note += `; log lines with a 64-hex value: ${hashes}; log lines: ${server.logs.length}`;
  }

  // 3b. Two nodes on one database, PostgreSQL stopped and started three times under load (issue 28: a node died in 3
  // of 5 such outages, from the driver's write to a closed socket): both still running after, nobody restarted them.
  if (want("postgres2")) {
    log("PostgreSQL x3, two nodes: starting");
    const { url, key, keyId } = await freshDatabase();
    const env = { ...baseEnv, DATABASE_URL: url };
    const servers = [
      await startServer({ ...env, DATA_DIR: mkdtempSync(join(scratch, "pg2-")) }),
      await startServer({ ...env, DATA_DIR: mkdtempSync(join(scratch, "pg2-")) }),
    ];
    const load = keyedLoad(servers, key, CLIENTS);
    await Bun.sleep(2000);
    const recoveries: number[] = [];
    for (let round = 0; round < 3; round++) {
      await pg.stop();
      await Bun.sleep(HOLD_MS);
      const removedAt = performance.now();
      await pg.start();
      await Bun.sleep(3000);
      recoveries.push(firstOkAfter(load.samples, removedAt) ?? NaN);
    }
    await load.stop();
    const running = servers.filter((s) => s.proc.exitCode === null).length;
    const exits = [];
    for (const s of servers) exits.push(await s.stop());
    const sum = summarize(load.samples);
    rows.push({
      fault: "PostgreSQL stopped and started 3 times, 2 nodes",
      sent: sum.sent,
      statuses: sum.statuses,
      noAnswer: sum.noAnswer,
      lost: sum.ok - (await usageOf(url, keyId)),
      recoverMs: Math.max(...recoveries),
      note: `${running}/2 nodes still running after the third outage (recovered in ${recoveries.map((r) => Math.round(r)).join(", ")} ms); exits ${exits.join(", ")}`,
    });
  }

  // 4. Redis stopped under load: answered at once, counted in the process, health degraded; shared again after.
  if (want("redis") && redis) {
    await metered(
      "Redis stopped, then started (REDIS_URL)",
      "recovered = /api/health shared again",
      { env: { ...baseEnv, REDIS_URL: redis.url }, dataDir: mkdtempSync(join(scratch, "redis-")) },
      async () => redis.stop(),
      async () => redis.start(),
      async (s, removedAt) => {
        for (let i = 0; i < 200; i++) {
          const body = (await (await fetch(`${s.url}/api/health`)).json()) as any;
          if (body.rate_limits?.shared) return performance.now() - removedAt;
          await Bun.sleep(50);
        }
        return null;
      },
    );
  }

  // 5. Malformed Host headers among keyed load: 400 each, the server stays up.
  if (want("host")) {
    log("bad Host headers: starting");
    const { url, key } = await freshDatabase();
    const server = await startServer({ ...baseEnv, DATABASE_URL: url, DATA_DIR: mkdtempSync(join(scratch, "host-")) });
    const port = Number(new URL(server.url).port);
    const heads = ["Host: a b", "Host:", "Host: [::1", "Host: a:99999", "Host: a%20b"];
    const samples: Sample[] = [];
    const { connect } = await import("node:net");
    for (let i = 0; i < 1000; i++) {
      const head = heads[i % heads.length]!;
      const proto = head === "Host:" ? "HTTP/1.0" : "HTTP/1.1";
      const sentAt = performance.now();
      const status = await new Promise<number | "none">((resolve) => {
        const sock = connect(port, "127.0.0.1", () =>
          sock.write(`GET /v1/sources ${proto}\r\n${head}\r\nConnection: close\r\n\r\n`),
        );
        let text = "";
        sock.on("data", (d) => (text += d));
        sock.on("error", () => resolve("none"));
        sock.on("close", () => resolve(Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0) || "none"));
        sock.setTimeout(10_000, () => sock.destroy());
      });
      samples.push({ sentAt, status });
    }
    const ok = await fetch(server.url + KEYED_PAGE, { headers: { "X-API-Key": key } });
    const exit = await server.stop();
    const sum = summarize(samples);
    rows.push({
      fault: "malformed Host (5 kinds, raw TCP)",
      sent: sum.sent,
      statuses: sum.statuses,
      noAnswer: sum.noAnswer,
      lost: null,
      recoverMs: null,
      note: `keyed page after: ${ok.status}; server exit ${exit}`,
    });
  }

  // 6. `svc keys revoke` while two servers serve the key (shared PostgreSQL and Redis): nothing 200 after the CLI returns.
  if (want("revoke")) {
    for (const via of redis ? ["Redis", "PostgreSQL"] : ["PostgreSQL"]) {
      log(`revoke via ${via}: starting`);
      const { url, key, keyId } = await freshDatabase();
      const env = { ...baseEnv, DATABASE_URL: url, ...(via === "Redis" ? { REDIS_URL: redis!.url } : {}) };
      const servers = [
        await startServer({ ...env, DATA_DIR: mkdtempSync(join(scratch, "rv-")) }),
        await startServer({ ...env, DATA_DIR: mkdtempSync(join(scratch, "rv-")) }),
      ];
      const load = keyedLoad(servers, key, CLIENTS, "/v1/ping");
      await Bun.sleep(1000);
      const started = performance.now();
      const out = await cli(["keys", "revoke", "--id", keyId], {
        ...env,
        DATA_DIR: mkdtempSync(join(scratch, "rv-cli-")),
        LOG_LEVEL: "error",
      });
      const returnedAt = performance.now();
      await Bun.sleep(2000);
      await load.stop();
      for (const s of servers) await s.stop();
      const sum = summarize(load.samples);
      const okAfter = load.samples.filter((s) => s.sentAt >= returnedAt && s.status === 200).length;
      rows.push({
        fault: `svc keys revoke, 2 servers (${via})`,
        sent: sum.sent,
        statuses: sum.statuses,
        noAnswer: sum.noAnswer,
        lost: null,
        recoverMs: null,
        note: `"${out}" after ${Math.round(returnedAt - started)} ms; 200s sent after it returned: ${okAfter}`,
      });
    }
  }

  // 7. Three nodes starting at once on an empty database.
  if (want("start")) {
    log("concurrent first start: starting");
    const env = { ...baseEnv, DATABASE_URL: await emptyDatabase() };
    const startedAt = performance.now();
    const results = await Promise.allSettled(
      [0, 1, 2].map(() => startServer({ ...env, DATA_DIR: mkdtempSync(join(scratch, "start-")) })),
    );
    const up = results.filter((r) => r.status === "fulfilled").map((r) => (r as PromiseFulfilledResult<Server>).value);
    const seeded = up.filter((s) => s.logs.some((l) => l.entry.msg?.startsWith("empty database: seeding"))).length;
    const allUp = performance.now() - startedAt;
    for (const s of up) await s.stop();
    rows.push({
      fault: "3 nodes start at once on an empty database",
      sent: 0,
      statuses: {},
      noAnswer: 0,
      lost: null,
      recoverMs: null,
      note: `${up.length}/3 listening after ${(allUp / 1000).toFixed(1)} s; seeded by ${seeded}`,
    });

    // 8. A DATA_DIR under a regular file, and a read-only one: one line each.
    const file = join(scratch, "a-file");
    writeFileSync(file, "x");
    const ro = join(scratch, "ro");
    mkdirSync(ro);
    chmodSync(ro, 0o555);
    for (const [what, dir, nobody] of [
      ["DATA_DIR under a regular file", join(file, "data"), false],
      ["read-only DATA_DIR (as nobody)", ro, true],
    ] as const) {
      if (nobody && (!isRoot || !Bun.which("setpriv"))) continue;
      const cmd = [process.execPath, "src/cli.ts", "serve"];
      const p = Bun.spawn(nobody ? ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", ...cmd] : cmd, {
        cwd: REPO_ROOT,
        env: { ...baseEnv, DATA_DIR: dir },
        stdout: "ignore",
        stderr: "pipe",
      });
      const [err, code] = await Promise.all([new Response(p.stderr).text(), p.exited]);
      rows.push({
        fault: what,
        sent: 0,
        statuses: {},
        noAnswer: 0,
        lost: null,
        recoverMs: null,
        note: `exit ${code}, ${err.trim().split("\n").length} line: ${err.trim()}`,
      });
    }
  }
} finally {
  await redis?.destroy();
  await pg.destroy();
  rmSync(scratch, { recursive: true, force: true });
}

// ------------------------------------------------------------------------------------------------ report
const bad = reportFaults(rows, CLIENTS, HOLD_MS);
process.exit(bad ? 1 : 0);
