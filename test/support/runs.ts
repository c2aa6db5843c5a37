// CI runs the suite twice (.ci/run): on the embedded database and on PostgreSQL (TEST_DATABASE_URL). Tests that start
// processes on databases of their own (embedded data directories, or a PostgreSQL instance the test starts) do not
// depend on the run's database, so they run in one of the two runs and say so in the other, by name, never silently.
// TEST_EVERY_RUN=1 runs them in both.
import { testBackend } from "./db";

export type Run = "embedded" | "postgres";

/** Null where the tests run in this run; otherwise the reason they do not, printed once. */
export function otherRunOnly(run: Run, what: string): string | null {
  const here: Run = testBackend === "postgres" ? "postgres" : "embedded";
  if (here === run || process.env.TEST_EVERY_RUN === "1") return null;
  const reason = `${what}: runs in the ${run === "embedded" ? "embedded-database" : "PostgreSQL"} run of the suite only (its processes use databases of their own, not this run's)`;
  console.warn(`skipped here: ${reason}`);
  return reason;
}
