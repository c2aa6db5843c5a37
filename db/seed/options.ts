// The options every seed step takes. Its own module so the steps need not import the index that runs them.
import type { Progress } from "../../src/progress";
import type { DataFamilyId } from "./families";

export type SeedOptions = {
  progress?: Progress;
  /** false: regions and catalog only, no observations. */
  samples?: boolean;
  now?: Date;
  /**
   * Loads only the snapshot series whose region passes (tests seed every country and state but the counties of a few
   * states, so a database per test file stays small). The recorded version says it is partial.
   */
  regionFilter?: { name: string; keep: (regionCode: string) => boolean };
  /** Observation rows per transaction (db/bulk-load.ts); smaller beside readers of the same embedded database. */
  rowsPerTransaction?: number;
  /** Told when a family of the first start's data is stored (db/seed/families.ts): its readers may be served. */
  onFamilyStored?: (id: DataFamilyId) => void | Promise<void>;
};
