// The CLI beside a running server on the embedded database: `svc serve` holds DATA_DIR's PGlite, and the
// administrative commands typed in another terminal are carried out by that server through its local administrative
// interface (src/admin/), with the same output and exit status as when they run directly, and the server obeys each
// change at once. One real server process; the CLI runs as real processes beside it.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { sql } from "drizzle-orm";
import { openDatabase } from "../../db/client";
import { readAdminEndpoint } from "../../src/admin/endpoint";
import { makeTestDatabase, takeAsSeeded } from "../support/db";
import { otherRunOnly } from "../support/runs";

// bun resets the default timeout per file: this file starts a server process and CLI processes. A safety net.
setDefaultTimeout(180_000);

// the CLI beside a server on its embedded database: its processes use embedded data directories of their own (test/support/runs.ts).
const elsewhere = otherRunOnly("embedded", "the CLI beside a server on its embedded database");

const ROOT = resolve(import.meta.dir, "../..");
const NO_KEY = "00000000-0000-4000-8000-000000000000";
const METRICS_TOKEN = "e2e-metrics-token-0123456789";
let dir: string;
let dataDir: string;
let server: { proc: Bun.Subprocess; url: string } | null = null;

function env(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !/^(DATABASE_URL|REDIS_URL|SMTP_URL|STRIPE_|X402_|L402_|LIGHTNING_|LND_|PUBLIC_BASE_URL|PORT|HOST|LOG_LEVEL|METRICS_TOKEN)/.test(k)) out[k] = v;
  }
  // Upstream providers unreachable at once (the scheduled refresh must not wait on DNS).
  const down = "http://127.0.0.1:9";
  return { ...out, DATA_DIR: dataDir, NODE_ENV: "production", X402_NETWORKS: "none", LIGHTNING_BACKEND: "none", FRED_BASE_URL: down, BLS_BASE_URL: down, CENSUS_BASE_URL: down, WORLDBANK_BASE_URL: down };
}

async function svc(args: string[], cwd = ROOT) {
  const proc = Bun.spawn([process.execPath, join(ROOT, "src/cli.ts"), ...args], { cwd, env: env(), stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

async function startServer() {
  const proc = Bun.spawn([process.execPath, "src/cli.ts", "serve"], { cwd: ROOT, env: { ...env(), PORT: "0", HOST: "127.0.0.1", METRICS_TOKEN }, stdout: "ignore", stderr: "pipe" });
  const reader = (proc.stderr as ReadableStream<Uint8Array>).getReader();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`server exited before ready:\n${text}`);
    text += new TextDecoder().decode(value);
    // "ready": it serves data, and its administrative interface is up (from "listening" it answers health only).
    const listening = text.split("\n").find((l) => l.startsWith("{") && JSON.parse(l).msg === "ready");
    if (listening) {
      // Keep draining stderr so the server never blocks on a full pipe.
      void (async () => {
        while (!(await reader.read()).done) {}
      })().catch(() => {});
      return { proc, url: JSON.parse(listening).url as string };
    }
  }
}

async function ping(key: string) {
  const res = await fetch(server!.url + "/v1/ping", { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, body: (await res.json()) as any };
}

const keyIdOf = (list: string, hintTail: string) => list.split("\n").find((l) => l.includes(hintTail))!.match(/^id=(\S+)/)![1]!;

let direct: { missing: Awaited<ReturnType<typeof svc>>; usage: Awaited<ReturnType<typeof svc>>; firstKeyId: string };

beforeAll(async () => {
  if (elsewhere) return;
  dir = mkdtempSync(join(tmpdir(), "svc-beside-"));
  dataDir = join(dir, "data");
  // DATA_DIR holds the test seed taken as the whole snapshot, its series already detected: the server starts without
  // seeding (not what this file tests; minutes beside other files) and its jobs leave the CPU to the commands.
  const seeded = await makeTestDatabase();
  const blob: Blob = await (seeded as any).dump();
  await seeded.close();
  const prepared = await openDatabase({ dataDir, loadDataDir: blob });
  await takeAsSeeded(prepared);
  await prepared.db.execute(sql`delete from series_changes`);
  await prepared.close();
  // Before the server runs, the commands open the embedded database themselves: what the server must answer alike.
  const created = await svc(["keys", "create", "--plan", "free"]);
  expect(created.code).toBe(0);
  const firstKeyId = keyIdOf((await svc(["keys", "list"])).stdout, created.stdout.trim().slice(-4));
  direct = { missing: await svc(["keys", "revoke", "--id", NO_KEY]), usage: await svc(["keys", "usage", "--id", firstKeyId]), firstKeyId };
  server = await startServer();
});

afterAll(async () => {
  if (elsewhere) return;
  if (server && server.proc.exitCode === null) {
    server.proc.kill("SIGTERM");
    await server.proc.exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!!elsewhere)("svc keys beside a running server on the embedded database", () => {
  test("the server carries the commands out: same output and exit status as directly", async () => {
    expect(direct.missing).toEqual({ code: 2, stdout: "", stderr: `svc keys: no key ${NO_KEY}\n` });
    expect(await svc(["keys", "revoke", "--id", NO_KEY])).toEqual(direct.missing);
    expect(direct.usage.code).toBe(0);
    expect(direct.usage.stdout).toMatch(/^key svc_live_…\S{4} \d{4}-\d\d: 0 requests; plan Free \(no monthly quota\), 60 requests\/min, active\n$/);
    expect(await svc(["keys", "usage", "--id", direct.firstKeyId])).toEqual(direct.usage);
    // A mistake found before anything runs reads the same too.
    expect(await svc(["keys", "set-plan", "--id", direct.firstKeyId, "--plan", "gold"])).toEqual({ code: 2, stdout: "", stderr: "svc keys: --plan must be one of free, developer, professional\n" });
  });

  test("create, set-plan, usage, rotate, revoke: the running server obeys each change at once", async () => {
    const created = await svc(["keys", "create", "--plan", "free"]);
    expect(created.code).toBe(0);
    const key = created.stdout.trim();
    expect(key).toMatch(/^svc_live_/);
    expect(created.stderr).toMatch(/^key svc_live_…\S{4} \(id [0-9a-f-]{36}\): plan Free, 60 requests\/min\. Shown once/);
    const id = keyIdOf((await svc(["keys", "list"])).stdout, key.slice(-4));
    expect((await ping(key)).body.data).toMatchObject({ plan: "free", rate_limit_per_minute: 60, premium_access: false });

    const moved = await svc(["keys", "set-plan", "--id", id, "--plan", "developer"]);
    expect(moved).toEqual({ code: 0, stdout: `key svc_live_…${key.slice(-4)}: plan Free -> Developer, 300 requests/min\n`, stderr: "" });
    // The same secret, now on the new plan (the server's key cache was dropped by the change).
    expect((await ping(key)).body.data).toMatchObject({ plan: "developer", rate_limit_per_minute: 300, premium_access: true, usage: { included_requests: 100000 } });

    // Two metered requests, counted by the server and read through it (its journal is not in the database yet).
    for (let i = 0; i < 2; i++) expect((await fetch(server!.url + "/v1/observations?indicator=UNRATE&region=US&limit=1", { headers: { "X-API-Key": key } })).status).toBe(200);
    const usage = await svc(["keys", "usage", "--id", id]);
    expect(usage.stdout).toMatch(/: 2 requests; plan Developer \(100000 included, 0 overage\), 300 requests\/min, active\n$/);

    const rotated = await svc(["keys", "rotate", "--id", id]);
    expect(rotated.code).toBe(0);
    const next = rotated.stdout.trim();
    expect(next).toMatch(/^svc_live_/);
    expect(next).not.toBe(key);
    expect((await ping(key)).status).toBe(401);
    expect((await ping(next)).body.data).toMatchObject({ plan: "developer", usage: { requests: 2 } });

    expect(await svc(["keys", "revoke", "--id", id])).toEqual({ code: 0, stdout: `revoked svc_live_…${next.slice(-4)}\n`, stderr: "" });
    expect((await ping(next)).status).toBe(401);
    expect(await svc(["keys", "set-plan", "--id", id, "--plan", "free"])).toEqual({ code: 2, stdout: "", stderr: `svc keys: key svc_live_…${next.slice(-4)} is revoked\n` });
  });

  test("mail and signals run beside it too; the server's own commands do not", async () => {
    const mail = await svc(["mail", "list"]);
    expect(mail).toMatchObject({ code: 0, stderr: "" });
    const signals = await svc(["signals", "detect", "--indicator", "UNRATE"]);
    expect(signals.stderr).toBe("");
    expect(signals.stdout).toMatch(/^1 series \(\d+ observations\) in \d+\.\d s: \d+ intervals new, \d+ updated, \d+ removed, \d+ unchanged\n$/);
    // Not an administrative command: it opens the database itself and finds it held.
    const migrate = await svc(["migrate"]);
    expect(migrate.code).toBe(1);
    expect(migrate.stderr).toContain("is in use by process");
  });

  test("the interface: loopback only, its secret in a 0600 file, never on the public port", async () => {
    const endpoint = readAdminEndpoint(dataDir)!;
    expect(endpoint.pid).toBe(server!.proc.pid);
    expect(statSync(join(dataDir, "admin.json")).mode & 0o777).toBe(0o600);
    expect(endpoint.port).not.toBe(Number(new URL(server!.url).port));
    const body = JSON.stringify({ argv: ["keys", "list"], cwd: "/" });
    expect((await fetch(server!.url + "/run", { method: "POST", body })).status).toBe(404);
    const admin = `http://127.0.0.1:${endpoint.port}/run`;
    expect((await fetch(admin, { method: "POST", body })).status).toBe(401);
    expect((await fetch(admin, { method: "POST", body, headers: { authorization: `Bearer ${endpoint.token.slice(0, -1)}${endpoint.token.endsWith("0") ? "1" : "0"}` } })).status).toBe(401);
    const ok = await fetch(admin, { method: "POST", body, headers: { authorization: `Bearer ${endpoint.token}` } });
    expect(ok.status).toBe(200);
    expect((await ok.text()).trim().split("\n").at(-1)).toBe('{"exit":0}');
    // Only administrative commands: the server never runs `serve` or `migrate` on request.
    const refused = await fetch(admin, { method: "POST", body: JSON.stringify({ argv: ["migrate"], cwd: "/" }), headers: { authorization: `Bearer ${endpoint.token}` } });
    expect(await refused.text()).toContain('{"exit":2}');
  });

  test("/metrics on the real server: pg-boss queues and the database are reported", async () => {
    const res = await fetch(server!.url + "/metrics", { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    const families = new Map((parsePrometheusTextFormat(await res.text()) as { name: string; metrics: { value: string; labels: Record<string, string> }[] }[]).map((f) => [f.name, f]));
    const queues = new Set(families.get("svc_job_queue_jobs")!.metrics.map((s) => s.labels.queue));
    expect(queues.has("provision")).toBe(true);
    expect(queues.has("refresh")).toBe(true);
    expect(families.get("svc_dependency_up")!.metrics).toEqual([{ labels: { dependency: "database" }, value: "1" }]);
    expect((await fetch(server!.url + "/metrics")).status).toBe(404);
  });

  test("a deleted endpoint file is written again within seconds, and the CLI says truthfully what it meets meanwhile", async () => {
    const before = readAdminEndpoint(dataDir)!;
    rmSync(join(dataDir, "admin.json"));
    const meanwhile = await svc(["keys", "list"]);
    if (meanwhile.code !== 0) {
      expect(meanwhile.stderr).toContain(`admin.json is missing: a server that is starting writes it once it listens, and a running one writes it again within 5 s if it was deleted, so retry shortly`);
    }
    for (let i = 0; i < 100 && !existsSync(join(dataDir, "admin.json")); i++) await Bun.sleep(100);
    expect(readAdminEndpoint(dataDir)).toEqual(before);
    expect(statSync(join(dataDir, "admin.json")).mode & 0o777).toBe(0o600);
    expect((await svc(["keys", "list"])).code).toBe(0);
  });

  test("a clean stop removes the endpoint file", async () => {
    server!.proc.kill("SIGTERM");
    expect(await server!.proc.exited).toBe(0);
    expect(existsSync(join(dataDir, "admin.json"))).toBe(false);
  });
});
