// test-tier: once (each fault in a process of its own)
// The usage journal under disk faults (faults issue, items 1 and 2). Before the fix, both killed the process with
// SIGBUS: records were copied into pages of a sparse file that a full file system could not back, and a seal that cut
// the live file before a refused rename left the mapping writing past the end of the file (and lost what it wrote).
// Each scenario runs in a process of its own (test/fixtures/journal-faults.ts), so a signal fails the test instead
// of killing the runner:
// - a full disk: a 2 MB tmpfs this test mounts (root only; skipped with a message otherwise), filled to the last byte;
// - a journal directory made unwritable at run time, by a process that is not root (root ignores permissions: as
//   root the process runs as `nobody` through runuser).
// Every record is either accepted and found in the files afterwards, or refused with an error; recording resumes
// by itself once the fault is gone.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { chmodSync, chownSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { mountSmallDisk, type SmallDisk } from "../../bench/lib/instances";
import { scriptForNobody } from "../support/nobody";

setDefaultTimeout(60_000);

const ROOT = resolve(import.meta.dir, "../..");
const FIXTURE = join(ROOT, "test/fixtures/journal-faults.ts");

type Report = {
  beforeFault: number;
  duringFault: number;
  afterFault: number;
  accepted: number;
  refused: number;
  codes: string[];
  sealErrors: string[];
  inFiles: number;
};

async function runFixture(cmd: string[], cwd = ROOT): Promise<Report> {
  const proc = Bun.spawn(cmd, { cwd, stdout: "pipe", stderr: "pipe", env: { ...process.env, HOME: tmpdir() } });
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  await proc.exited;
  // A SIGBUS (the defect) shows here as a signal and no report.
  expect({ signal: proc.signalCode, exit: proc.exitCode, err: proc.exitCode === 0 ? "" : err }).toEqual({
    signal: null,
    exit: 0,
    err: "",
  });
  return JSON.parse(out.trim().split("\n").pop()!);
}

const disk = mountSmallDisk(2048);
const diskUnavailable = "unavailable" in disk ? disk.unavailable : null;
if (diskUnavailable) console.warn(`skipped (full disk): ${diskUnavailable}`);

const isRoot = process.getuid?.() === 0;
const canDropRoot = isRoot && !!Bun.which("runuser");
const unwritableSkip =
  isRoot && !canDropRoot ? "running as root without runuser: a directory's permissions do not apply to root" : null;
if (unwritableSkip) console.warn(`skipped (unwritable directory): ${unwritableSkip}`);

const dirs: string[] = [];
afterAll(() => {
  if (!diskUnavailable) (disk as SmallDisk).unmount();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("the usage journal under disk faults", () => {
  test.skipIf(!!diskUnavailable)(
    "a full disk: records are refused with ENOSPC (no SIGBUS), nothing accepted is lost, recording resumes once space is freed",
    async () => {
      const { dir } = disk as SmallDisk;
      const r = await runFixture([process.execPath, FIXTURE, "full-disk", dir]);
      expect(r.codes).toEqual(["ENOSPC"]);
      // Records accepted while the disk was full went into space reserved before it filled up.
      expect(r.beforeFault).toBe(1000);
      expect(r.duringFault).toBeGreaterThan(0);
      expect(r.refused).toBeGreaterThanOrEqual(1001);
      expect(r.afterFault).toBe(5000);
      expect(r.inFiles).toBe(r.accepted);
    },
  );

  test.skipIf(!!unwritableSkip)(
    "a journal directory made unwritable: the seal is refused and changes nothing, recording goes on until the live file is full, then refuses; nothing accepted is lost; it resumes once writable",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "svc-journal-perm-"));
      dirs.push(dir);
      if (isRoot) {
        const uid = Number(Bun.spawnSync(["id", "-u", "nobody"]).stdout.toString().trim());
        const gid = Number(Bun.spawnSync(["id", "-g", "nobody"]).stdout.toString().trim());
        chownSync(dir, uid, gid);
        chmodSync(dir, 0o755);
      }
      // The fixture bundled where nobody can reach it (the checkout may be in a private directory).
      const script = await scriptForNobody("test/fixtures/journal-faults.ts", { asNobody: isRoot });
      let r: Report;
      try {
        r = await runFixture([...script.cmd, "unwritable-dir", dir], script.dir);
      } finally {
        script.remove();
      }
      expect(r.sealErrors).toEqual(["EACCES", "EACCES"]);
      expect(r.codes).toEqual(["EACCES"]);
      expect(r.beforeFault).toBe(1000);
      // The 64 KB live file takes 20,000-odd 3-byte references after the seal was refused.
      expect(r.duringFault).toBeGreaterThan(20_000);
      expect(r.refused).toBeGreaterThanOrEqual(1001);
      expect(r.afterFault).toBe(5000);
      expect(r.inFiles).toBe(r.accepted);
    },
  );
});
