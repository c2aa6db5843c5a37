// The options every seed step takes. Its own module so the steps need not import the index that runs them.
import type { Progress } from "../../src/progress";

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
};
