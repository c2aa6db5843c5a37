import { afterAll, setDefaultTimeout } from "bun:test";
import { runCleanups } from "./cleanup";

// PGlite's first initdb and seed in a process takes seconds, more on a loaded 2-core machine; this covers hooks too.
setDefaultTimeout(120_000);

afterAll(runCleanups);
