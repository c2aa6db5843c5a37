import { afterAll } from "bun:test";
import { runCleanups } from "./cleanup";

// Note: bun resets the default test timeout per file, so files that start databases or processes set their own.
afterAll(runCleanups);
