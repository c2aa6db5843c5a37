// A DATA_DIR the server cannot use stops it with one line that names the path and the fix (faults issue, item 9),
// not a raw ENOTDIR or EACCES stack trace. `svc serve` runs for real; it stops before opening any database.
// - under a regular file, and a regular file itself: anywhere;
// - not writable: as a user other than root (root ignores permissions: as root, the server runs as `nobody`
//   through runuser; skipped with a message when that is not possible);
// - on a read-only file system: a read-only tmpfs this test mounts (root only; skipped with a message otherwise).
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { scriptForNobody } from "../support/nobody";
import { otherRunOnly } from "../support/runs";

setDefaultTimeout(60_000);

const ROOT = resolve(import.meta.dir, "../..");
const isRoot = process.getuid?.() === 0;
const base = mkdtempSync(join(tmpdir(), "svc-start-failures-"));
// Readable by `nobody` (the server runs as that user in one test).
chmodSync(base, 0o755);
const mounted: string[] = [];
// `svc serve` on data directories of its own, stopping before any database: one run of the suite is enough.
const elsewhere = otherRunOnly("postgres", "svc serve start failures");
afterAll(() => {
  for (const m of mounted) Bun.spawnSync(["umount", "-l", m]);
  rmSync(base, { recursive: true, force: true });
});

/** `svc serve` (or `cli`, the CLI run some other way: as nobody) on `dataDir`, to its exit. */
async function serve(dataDir: string, cli = [process.execPath, "src/cli.ts"]): Promise<{ code: number; stderr: string }> {
  const env = { ...process.env, DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", NODE_ENV: "production", DATABASE_URL: "", HOME: tmpdir() };
  const proc = Bun.spawn([...cli, "serve"], { cwd: cli[0] === process.execPath ? ROOT : tmpdir(), env, stdout: "pipe", stderr: "pipe" });
  const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  return { code, stderr };
}

describe.skipIf(!!elsewhere)("svc serve with a DATA_DIR it cannot use", () => {
  test("under a regular file: one line naming the file and the fix", async () => {
    const file = join(base, "not-a-dir");
    writeFileSync(file, "x");
    const r = await serve(join(file, "data"));
    expect(r).toEqual({
      code: 1,
      stderr: `svc serve: DATA_DIR ${join(file, "data")} is under ${file}, which is a regular file, not a directory: point DATA_DIR at a directory.\n`,
    });
  });

  test("a regular file itself: one line", async () => {
    const file = join(base, "a-file");
    writeFileSync(file, "x");
    const r = await serve(file);
    expect(r).toEqual({ code: 1, stderr: `svc serve: DATA_DIR ${file} is a regular file, not a directory: point DATA_DIR at a directory.\n` });
  });

  const nobodySkip = isRoot && !Bun.which("runuser") ? "running as root without runuser" : null;
  if (nobodySkip) console.warn(`skipped (unwritable DATA_DIR): ${nobodySkip}`);
  test.skipIf(!!nobodySkip)("not writable by the server's user: one line naming the path, the user and the fix", async () => {
    const dir = join(base, "read-only");
    mkdirSync(dir);
    chmodSync(dir, 0o555);
    // The server bundled where nobody can reach it (the checkout may be in a private directory).
    const script = await scriptForNobody("src/cli.ts", { asNobody: isRoot });
    let r: { code: number; stderr: string };
    try {
      r = await serve(dir, script.cmd);
    } finally {
      script.remove();
    }
    const uid = isRoot ? Number(Bun.spawnSync(["id", "-u", "nobody"]).stdout.toString().trim()) : process.getuid!();
    expect(r).toEqual({
      code: 1,
      stderr: `svc serve: DATA_DIR ${dir} is not writable by this process (uid ${uid}): give that user write access to it (chown or chmod), or point DATA_DIR at a writable directory.\n`,
    });
  });

  let roMount: string | null = null;
  let roSkip: string | null = isRoot ? null : "mounting a read-only tmpfs needs root";
  if (!roSkip) {
    roMount = join(base, "ro-mount");
    mkdirSync(roMount);
    const m = Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", roMount], { stderr: "pipe" });
    if (m.exitCode === 0) mounted.push(roMount);
    else roSkip = `mount failed: ${m.stderr.toString().trim()}`;
  }
  if (roSkip) console.warn(`skipped (read-only file system): ${roSkip}`);
  test.skipIf(!!roSkip)("on a read-only file system: one line", async () => {
    const dir = join(roMount!, "data");
    const r = await serve(dir);
    expect(r).toEqual({ code: 1, stderr: `svc serve: DATA_DIR ${dir} is on a read-only file system: point DATA_DIR at a writable directory.\n` });
  });
});

// Links (mails, /, OpenAPI servers) come from PUBLIC_BASE_URL, never from the Host header; a server
// answering beyond loopback without it would have no right address to link to, so it does not start.
describe.skipIf(!!elsewhere)("svc serve on a non-loopback interface without PUBLIC_BASE_URL", () => {
  test("HOST=0.0.0.0: one line saying what to set, exit 2 (a configuration error), before opening any database", async () => {
    const dataDir = join(base, "host-refusal");
    const env = { ...process.env, DATA_DIR: dataDir, PORT: "0", HOST: "0.0.0.0", PUBLIC_BASE_URL: "", LOG_LEVEL: "info", NODE_ENV: "production", DATABASE_URL: "", HOME: tmpdir() };
    const proc = Bun.spawn([process.execPath, "src/cli.ts", "serve"], { cwd: ROOT, env, stdout: "pipe", stderr: "pipe" });
    const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    expect({ code, stderr }).toEqual({
      code: 2,
      stderr:
        "svc serve: HOST=0.0.0.0 answers beyond this machine, so links in mails, / and /openapi.json need PUBLIC_BASE_URL: set PUBLIC_BASE_URL to the address clients use (e.g. https://api.example.com), or HOST=127.0.0.1 to serve this machine only.\n",
    });
    expect(existsSync(dataDir)).toBe(false);
  });
});
