// A Bun macro (imported `with { type: "macro" }` by src/startup/image-key.ts): the digest of the source and data
// files that build the seeded database, src/ and db/. It runs when the importing module is transpiled: at
// `bun build` for the binary, at import under `bun run`. Both read the same tree, so `bun start` and the binary
// built from one checkout name the same image (the binary does not hash itself).
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");

function hashTree(hash: ReturnType<typeof createHash>, dir: string): void {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) hashTree(hash, p);
    else if (st.isFile()) {
      hash.update(p.slice(ROOT.length));
      hash.update(readFileSync(p));
    }
  }
}

export function sourceDigest(): string {
  const hash = createHash("sha256");
  for (const dir of ["src", "db"]) hashTree(hash, join(ROOT, dir));
  return hash.digest("hex");
}
