// The options every seed step takes. Its own module so the steps need not import the index that runs them.
import type { Progress } from "../../src/progress";

export type SeedOptions = { progress?: Progress; samples?: boolean; now?: Date };
