// Running a script as `nobody` (tests of permission faults, run as root): the checkout may sit in a directory nobody
// can reach (a fresh clone inside `mktemp -d`, mode 0700), so the script is bundled (assets and inlined migrations
// with it, as the compiled binary carries them) into a directory of its own under the temporary directory, readable
// by everyone, beside a copy of the bun that runs it.
import { chmodSync, copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");

export type NobodyScript = { cmd: string[]; dir: string; remove(): void };

/** `entry` (a path in the repository) bundled for `nobody`; `cmd` runs it as nobody (as root), or as is. */
export async function scriptForNobody(entry: string, opts: { asNobody: boolean }): Promise<NobodyScript> {
  const dir = mkdtempSync(join(tmpdir(), "svc-nobody-"));
  chmodSync(dir, 0o755);
  const built = await Bun.build({
    entrypoints: [resolve(ROOT, entry)],
    target: "bun",
    outdir: dir,
    naming: { entry: "[name].js", asset: "[name]-[hash].[ext]" },
  });
  if (!built.success) throw new Error(`bundling ${entry} for nobody failed:\n${built.logs.map(String).join("\n")}`);
  const bun = join(dir, "bun");
  copyFileSync(process.execPath, bun);
  chmodSync(bun, 0o755);
  const script = join(dir, `${basename(entry).replace(/\.ts$/, "")}.js`);
  const cmd = opts.asNobody ? ["runuser", "-u", "nobody", "--", bun, script] : [bun, script];
  return { cmd, dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
