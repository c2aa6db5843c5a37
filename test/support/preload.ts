import { afterAll } from "bun:test";
import { runCleanups } from "./cleanup";

// Note: bun resets the default test timeout per file, so files that start databases or processes set their own.
// Dropping every database this run created on PostgreSQL takes longer than the 5 s hook default.
afterAll(runCleanups, 120_000);
