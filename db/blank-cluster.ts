// A blank embedded cluster: what PGlite's initdb makes, nothing else (no schema, no data), as a gzipped tarball that
// an empty data directory is loaded from instead of running initdb. initdb is most of a first start's time and memory
// (about a gigabyte and a minute on a busy two-core machine; loading the tarball takes a third of that memory and a
// few seconds). It is built by `bun run db:blank` (db/build-blank-cluster.ts) with the PGlite version and initdb
// parameters it names in manifest.json, never edited; test/db/blank-cluster.test.ts checks the manifest against the
// installed PGlite, these parameters and the tarball's digest, and that a database opened from it migrates and
// serves. Were they ever to differ at run time, the database is made by initdb as before.
import { readFileSync } from "node:fs";
import blankClusterPath from "./blank-cluster/pglite.tar.gz" with { type: "file" };
import manifest from "./blank-cluster/manifest.json";
// Not in the package's exports: read by path (bundled into the compiled binary like any JSON import).
import pglitePackage from "../node_modules/@electric-sql/pglite/package.json";

/** Shared buffers of every embedded database (initdb's and each start's setting): see db/client.ts. */
export const PGLITE_SHARED_BUFFERS = "32MB";
/** The parameters initdb runs with, for a cluster made at open and for the blank cluster alike. */
export const PGLITE_INITDB_PARAMS = ["--set", `shared_buffers=${PGLITE_SHARED_BUFFERS}`];

export type BlankClusterManifest = { pglite: string; initdb: string[]; sha256: string; bytes: number };
export const BLANK_CLUSTER_PATH = blankClusterPath;
export const blankClusterManifest: BlankClusterManifest = manifest;
export const INSTALLED_PGLITE: string = pglitePackage.version;

/** Whether the built blank cluster was made by the installed PGlite with the current initdb parameters. */
export function blankClusterCurrent(): boolean {
  return (
    manifest.pglite === INSTALLED_PGLITE && JSON.stringify(manifest.initdb) === JSON.stringify(PGLITE_INITDB_PARAMS)
  );
}

/** The blank cluster to load into an empty data directory, or null when it is not current (initdb then runs). */
export function blankCluster(): Blob | null {
  if (!blankClusterCurrent()) return null;
  return new Blob([readFileSync(blankClusterPath)]);
}
