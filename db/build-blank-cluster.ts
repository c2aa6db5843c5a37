// Builds db/blank-cluster/ (see db/blank-cluster.ts): runs the installed PGlite's initdb with PGLITE_INITDB_PARAMS in
// memory, dumps the cluster as a gzipped tarball and writes the manifest naming what it was built from.
//   bun run db:blank
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { INSTALLED_PGLITE, PGLITE_INITDB_PARAMS, type BlankClusterManifest } from "./blank-cluster";

const dir = join(import.meta.dir, "blank-cluster");
const pg = new PGlite({ initDbStartParams: PGLITE_INITDB_PARAMS });
await pg.waitReady;
const tarball = new Uint8Array(await (await pg.dumpDataDir("gzip")).arrayBuffer());
await pg.close();
writeFileSync(join(dir, "pglite.tar.gz"), tarball);
const manifest: BlankClusterManifest = {
  pglite: INSTALLED_PGLITE,
  initdb: PGLITE_INITDB_PARAMS,
  sha256: createHash("sha256").update(tarball).digest("hex"),
  bytes: tarball.length,
};
writeFileSync(join(dir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`db/blank-cluster: PGlite ${manifest.pglite}, ${manifest.bytes} bytes, sha256 ${manifest.sha256}`);
