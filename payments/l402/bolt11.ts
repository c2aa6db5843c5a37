// The bolt11 library, loaded by the first invoice made or read rather than at start: with what it brings
// (bitcoinjs-lib, lodash, elliptic) it is about 40 MB of a process's memory, which a node whose callers all hold
// keys never needs.
import type Bolt11 from "bolt11";

// The runtime's module registry keeps it once loaded: a later require() is a lookup.
export function bolt11(): typeof Bolt11 {
  return require("bolt11") as typeof Bolt11;
}
