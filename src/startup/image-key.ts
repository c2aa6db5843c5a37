// The name of the seeded database image the running code builds (src/startup/image.ts): the service version, the
// snapshot version and the digest of src/ and db/, taken when this module is transpiled (src/startup/source-digest.ts):
// the same for `bun start` and the binary built from the same checkout. Imported only when an image is looked for
// or kept (a first start on an empty data directory): hashing the tree takes a moment.
import { createHash } from "node:crypto";
import { SERVICE_VERSION } from "../version";
import { sourceDigest } from "./source-digest" with { type: "macro" };

const SOURCE_DIGEST: string = sourceDigest();

/** Names the image the running code would build. `seedVersion`: the snapshot's version. */
export function imageFingerprint(seedVersion: string): string {
  return createHash("sha256").update(`${SERVICE_VERSION}\n${seedVersion}\n${SOURCE_DIGEST}`).digest("hex").slice(0, 24);
}
