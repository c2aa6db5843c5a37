// A git ref checked out beside this tree (a temporary detached `git worktree` sharing this tree's node_modules), for
// benches that measure a commit side by side with the working tree (bench/one-path.ts, bench/scale-out.ts --ref).
import { existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_ROOT } from "./load";

export type RefTree = { root: string; remove(): void };

export async function checkoutRef(ref: string): Promise<RefTree> {
  const root = mkdtempSync(join(tmpdir(), "svc-bench-ref-"));
  rmSync(root, { recursive: true });
  const add = Bun.spawn(["git", "worktree", "add", "--detach", root, ref], {
    cwd: REPO_ROOT,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [err, code] = await Promise.all([new Response(add.stderr).text(), add.exited]);
  if (code !== 0) throw new Error(`git worktree add ${ref} exited ${code}: ${err}`);
  if (!existsSync(join(root, "node_modules"))) symlinkSync(join(REPO_ROOT, "node_modules"), join(root, "node_modules"));
  return { root, remove: () => void Bun.spawnSync(["git", "worktree", "remove", "--force", root], { cwd: REPO_ROOT }) };
}
