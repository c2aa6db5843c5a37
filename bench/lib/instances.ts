// Servers and file systems that fault tests and bench/faults.ts start, break and stop themselves: a PostgreSQL
// instance of their own (initdb + pg_ctl, so stopping it touches nothing else) and a small tmpfs (a disk that fills
// up); a Redis server of their own is test/support/redis.ts. Each helper says why when it cannot run here (no binary,
// not root) so callers can skip with that message.
import { chownSync, closeSync, existsSync, mkdtempSync, openSync, readdirSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { freePort } from "./load";

const isRoot = process.getuid?.() === 0;

function run(cmd: string[], opts: { asUser?: string } = {}): { ok: boolean; out: string } {
  const full = opts.asUser && isRoot ? ["runuser", "-u", opts.asUser, "--", ...cmd] : cmd;
  const p = Bun.spawnSync(full, { stdout: "pipe", stderr: "pipe" });
  return { ok: p.exitCode === 0, out: `${p.stdout.toString()}${p.stderr.toString()}` };
}

/** The directory of initdb and pg_ctl (the newest installed major version), or null. */
export function postgresBin(): string | null {
  const root = "/usr/lib/postgresql";
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => existsSync(join(root, v, "bin", "pg_ctl")))
      .sort((a, b) => Number(b) - Number(a));
    if (versions.length) return join(root, versions[0]!, "bin");
  }
  const onPath = Bun.which("pg_ctl");
  return onPath ? onPath.replace(/\/pg_ctl$/, "") : null;
}

/** Why a PostgreSQL instance cannot be started here, or null when it can. */
export function postgresUnavailable(): string | null {
  if (!postgresBin()) return "initdb/pg_ctl are not installed";
  if (isRoot && !Bun.which("runuser")) return "running as root without runuser (initdb refuses root)";
  return null;
}

export type PgInstance = {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  /** Stops the server (`fast`: sessions are terminated, as a crash or an operator stop does). */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and removes its data directory. */
  destroy(): Promise<void>;
};

/** initdb into a temporary directory and start it on a free loopback port (trust auth, fsync off: tests only). */
export async function startPostgres(): Promise<PgInstance> {
  const bin = postgresBin();
  if (!bin) throw new Error("initdb/pg_ctl are not installed");
  const base = mkdtempSync(join(tmpdir(), "svc-pg-"));
  const dataDir = join(base, "data");
  // initdb refuses to run as root: the instance belongs to the postgres user then.
  const asUser = isRoot ? "postgres" : undefined;
  if (isRoot)
    chownSync(base, Number(run(["id", "-u", "postgres"]).out.trim()), Number(run(["id", "-g", "postgres"]).out.trim()));
  const init = run([join(bin, "initdb"), "-D", dataDir, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"], {
    asUser,
  });
  if (!init.ok) throw new Error(`initdb failed: ${init.out}`);
  const port = await freePort();
  const options = `-c port=${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${base} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  const pgCtl = (args: string[]) => run([join(bin, "pg_ctl"), "-D", dataDir, ...args], { asUser });
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const instance: PgInstance = {
    url,
    port,
    async start() {
      const r = pgCtl(["-o", options, "-l", join(base, "log"), "-w", "-t", "30", "start"]);
      if (!r.ok) throw new Error(`pg_ctl start failed: ${r.out}`);
      // Ready means accepting connections.
      for (let i = 0; i < 100; i++) {
        const sql = postgres(url, { max: 1, connect_timeout: 1, onnotice: () => {} });
        try {
          await sql`select 1`;
          return;
        } catch {
          await Bun.sleep(50);
        } finally {
          await sql.end({ timeout: 1 });
        }
      }
      throw new Error("postgres did not accept connections");
    },
    async stop() {
      pgCtl(["-m", "fast", "-w", "-t", "30", "stop"]);
    },
    async destroy() {
      pgCtl(["-m", "immediate", "-w", "-t", "30", "stop"]);
      rmSync(base, { recursive: true, force: true });
    },
  };
  await instance.start();
  return instance;
}

const PAGE = new Uint8Array(4096).fill(1);

export type SmallDisk = { dir: string; fill(): void; free(): void; unmount(): void };

/**
 * A tmpfs of `sizeKb` mounted on a new temporary directory (root only): `fill()` appends to a file until the file
 * system is full, `free()` deletes it. Null with the reason when it cannot be mounted here.
 */
export function mountSmallDisk(sizeKb: number): SmallDisk | { unavailable: string } {
  if (!isRoot) return { unavailable: "mounting a tmpfs needs root" };
  const dir = mkdtempSync(join(tmpdir(), "svc-small-disk-"));
  const m = run(["mount", "-t", "tmpfs", "-o", `size=${sizeKb}k,mode=0777`, "tmpfs", dir]);
  if (!m.ok) {
    rmSync(dir, { recursive: true, force: true });
    return { unavailable: `mount -t tmpfs failed: ${m.out.trim()}` };
  }
  const filler = join(dir, "filler");
  return {
    dir,
    fill() {
      // Appends until the file system answers ENOSPC: that is the point. Called again, it takes what was freed since
      // (a disk that another writer keeps full). Page by page, so no freed page is left over.
      const fd = openSync(filler, "a");
      try {
        for (;;) writeSync(fd, PAGE);
      } catch {
      } finally {
        closeSync(fd);
      }
    },
    free() {
      rmSync(filler, { force: true });
    },
    unmount() {
      run(["umount", "-l", dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
