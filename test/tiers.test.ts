// The tiers of the suite (test/support/tiers.ts) hold to their rule, checked against what each file does.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  DIRECTORY_TIERS,
  directoryOf,
  filesOf,
  jobEngineStarter,
  loadsWholeSnapshot,
  localImports,
  markedTier,
  processStarter,
  readsBackend,
  ROOT,
  testFiles,
  tierOf,
} from "./support/tiers";

const files = testFiles();
// The words the checks look for, spelled so that this file does not contain them.
const BACKEND = ["test", "Backend"].join("");
const WHOLE = ["whole", "SnapshotDatabase"].join("");
const textOf = (f: string) => readFileSync(join(ROOT, f), "utf8");

describe("the rule", () => {
  test("a marker wins over the directory; a marker naming no tier is an error", () => {
    expect(tierOf("test/routes/x.test.ts", "// test-tier: once (starts a process)\nimport x;")).toBe("once");
    expect(tierOf("test/routes/x.test.ts", "// a comment\n")).toBe("fast");
    expect(tierOf("test/db/x.test.ts", "")).toBe("database");
    expect(tierOf("test/x.test.ts", "")).toBe("fast");
    expect(markedTier("test/routes/x.test.ts", "//test-tier: once\n")).toBeNull();
    expect(markedTier("test/routes/x.test.ts", "// a comment\n// test-tier: once\n")).toBeNull();
    expect(() => tierOf("test/routes/x.test.ts", "// test-tier: slow\n")).toThrow('"test-tier: slow" names no tier');
    expect(() => tierOf("test/newdir/x.test.ts", "")).toThrow("test/newdir/ has no tier");
  });

  test("what starts a process and what reads the backend, as the checks below see it", () => {
    // Directly, and through a helper of test/ (the local chain spawns anvil).
    expect(processStarter("test/cli/version.test.ts")).toEqual(["test/cli/version.test.ts"]);
    expect(processStarter("test/payments/x402.test.ts")).toEqual([
      "test/payments/x402.test.ts",
      "test/support/chain.ts",
    ]);
    expect(processStarter("test/domain/calendar.test.ts")).toBeNull();
    expect(jobEngineStarter("test/jobs/refresh.test.ts")).toEqual([
      "test/jobs/refresh.test.ts",
      "test/support/jobs.ts",
    ]);
    expect(jobEngineStarter("test/domain/calendar.test.ts")).toBeNull();
    expect(localImports("test/tiers.test.ts")).toEqual(["test/support/tiers.ts"]);
    expect(readsBackend(`if (${BACKEND} === "postgres") x();`)).toBe(true);
    expect(readsBackend("const t = await makeTestApp();")).toBe(false);
    expect(loadsWholeSnapshot(`await ${WHOLE}(NOW)`)).toBe(true);
  });
});

describe("every test file", () => {
  test("lies in a directory with a tier, or names its tier", () => {
    const orphans = files.filter((f) => !markedTier(f) && !DIRECTORY_TIERS[directoryOf(f)]);
    expect(orphans).toEqual([]);
  });

  test("in the fast tier starts no process and no job engine, itself or through a helper, and does not load the whole snapshot", () => {
    const bad = filesOf("fast").flatMap((f) => {
      const starter = processStarter(f);
      if (starter) return [`${starter.join(" -> ")} starts a process (mark the file "// test-tier: once")`];
      const engine = jobEngineStarter(f);
      if (engine) return [`${engine.join(" -> ")} starts the job engine (mark the file "// test-tier: database")`];
      return loadsWholeSnapshot(textOf(f)) ? [`${f} loads the whole snapshot`] : [];
    });
    expect(bad).toEqual([]);
  });

  test("that reads which database it runs on is in the database tier (so it runs on both)", () => {
    const bad = files.filter((f) => tierOf(f) !== "database" && readsBackend(textOf(f)));
    expect(bad).toEqual([]);
  });

  test("is in exactly one tier, and each tier has files", () => {
    const tiers = [filesOf("fast"), filesOf("database"), filesOf("once")];
    expect(tiers.flat().sort()).toEqual(files);
    for (const tier of tiers) expect(tier.length).toBeGreaterThan(0);
  });
});
