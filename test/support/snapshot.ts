// The seed snapshot's files as the repository ships them (db/seed/snapshot/*.gz), for tests that check stored values
// against the raw data with their own arithmetic.
import { gunzipSync } from "node:zlib";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

export function snapshotText(path: string, encoding: "utf8" | "latin1" = "utf8"): string {
  return gunzipSync(readFileSync(resolve(import.meta.dir, "../../db/seed/snapshot", path))).toString(encoding);
}
