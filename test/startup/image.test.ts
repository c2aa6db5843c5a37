// The seeded database image (src/startup/image.ts): kept once, copied whole into an empty data directory, never over
// a database; the fingerprint names the code and data; older images are pruned.
import { afterAll, describe, expect, test } from "bun:test";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { holdsDatabase, restoreImage, saveImage } from "../../src/startup/image";
import { imageFingerprint } from "../../src/startup/image-key";

const root = mkdtempSync(join(tmpdir(), "svc-image-test-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A directory shaped like a database: PG_VERSION, a nested file, and the lock of the process that had it open. */
function fakeDatabase(dir: string, content: string): void {
  mkdirSync(join(dir, "base", "1"), { recursive: true });
  writeFileSync(join(dir, "PG_VERSION"), "17\n");
  writeFileSync(join(dir, "base", "1", "1259"), content);
  writeFileSync(join(dir, "postmaster.pid"), "123\n");
}

describe("image", () => {
  test("saved from a seeded directory, restored whole into an empty one, without the seeding process's lock", async () => {
    const cache = join(root, "cache1");
    const seeded = join(root, "seeded", "pglite");
    fakeDatabase(seeded, "rows");
    expect(await restoreImage(cache, "k1", join(root, "empty", "pglite"))).toBe(false);
    await saveImage(cache, "k1", seeded);
    const target = join(root, "target", "pglite");
    mkdirSync(join(root, "target"), { recursive: true });
    expect(holdsDatabase(target)).toBe(false);
    expect(await restoreImage(cache, "k1", target)).toBe(true);
    expect(holdsDatabase(target)).toBe(true);
    expect(readFileSync(join(target, "base", "1", "1259"), "utf8")).toBe("rows");
    expect(existsSync(join(target, "postmaster.pid"))).toBe(false);
    // No temporary copies left behind.
    expect(readdirSync(join(root, "target"))).toEqual(["pglite"]);
    expect(readdirSync(cache)).toEqual(["pglite-k1"]);
  });

  test("an image of the same name is kept once (the first one stays)", async () => {
    const cache = join(root, "cache2");
    const a = join(root, "a", "pglite");
    const b = join(root, "b", "pglite");
    fakeDatabase(a, "first");
    fakeDatabase(b, "second");
    await saveImage(cache, "k", a);
    await saveImage(cache, "k", b);
    expect(readFileSync(join(cache, "pglite-k", "base", "1", "1259"), "utf8")).toBe("first");
  });

  test("only the newest four images are kept", async () => {
    const cache = join(root, "cache3");
    const src = join(root, "src", "pglite");
    fakeDatabase(src, "x");
    for (let i = 1; i <= 6; i++) {
      await saveImage(cache, `k${i}`, src);
      // Distinct modification times, oldest first.
      const t = new Date(Date.UTC(2026, 0, i));
      utimesSync(join(cache, `pglite-k${i}`), t, t);
    }
    await saveImage(cache, "k7", src);
    expect(readdirSync(cache).sort()).toEqual(["pglite-k4", "pglite-k5", "pglite-k6", "pglite-k7"]);
  });

  test("kept from a database in use: what changed while it was copied is copied again, what it removed is gone", async () => {
    const cache = join(root, "cache4");
    const live = join(root, "live", "pglite");
    fakeDatabase(live, "before");
    writeFileSync(join(live, "base", "1", "wal-old"), "recycled soon");
    await saveImage(cache, "k", live, async (copy) => {
      // What the database does between the first copy and being held still.
      writeFileSync(join(live, "base", "1", "1259"), "after the checkpoint");
      rmSync(join(live, "base", "1", "wal-old"));
      mkdirSync(join(live, "base", "2"));
      writeFileSync(join(live, "base", "2", "new"), "made meanwhile");
      await copy();
    });
    const kept = join(cache, "pglite-k");
    expect(readFileSync(join(kept, "base", "1", "1259"), "utf8")).toBe("after the checkpoint");
    expect(existsSync(join(kept, "base", "1", "wal-old"))).toBe(false);
    expect(readFileSync(join(kept, "base", "2", "new"), "utf8")).toBe("made meanwhile");
    expect(existsSync(join(kept, "postmaster.pid"))).toBe(false);
    expect(readdirSync(cache)).toEqual(["pglite-k"]);
  });

  test("the fingerprint names the snapshot version with the code: stable within a process, 24 hex digits", () => {
    const f = imageFingerprint("v1");
    expect(f).toMatch(/^[0-9a-f]{24}$/);
    expect(imageFingerprint("v1")).toBe(f);
    expect(imageFingerprint("v2")).not.toBe(f);
  });
});
