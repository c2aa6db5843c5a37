// The suite in three tiers, so that only what differs between the databases runs on both:
// - fast: pure and in-process tests, run on the embedded database (`bun run test:fast`, the inner loop);
// - database: tests of database code, and any test that reads which database it runs on (`testBackend`), run on both
//   databases (`bun run test:db`, with TEST_DATABASE_URL on PostgreSQL);
// - once: end-to-end tests and tests that start processes (servers, CLIs, the local chain, Redis, a browser), run once.
// A file's tier is its directory's (DIRECTORY_TIERS), unless its first line names another (`// test-tier: once (why)`).
// test/tiers.test.ts checks the rule against what each file does, so a tier cannot silently drift:
// a fast file starts no process and no job engine (itself or through a helper of test/ or bench/ it imports) and does
// not load the whole snapshot; only database files read the backend. `bun run test` runs every tier on one database.
// test/support/run-tier.ts runs one tier.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

export const TIERS = ["fast", "database", "once"] as const;
export type Tier = (typeof TIERS)[number];

/** The tier of each directory under test/ ("." for the files directly in test/). */
export const DIRECTORY_TIERS: Readonly<Record<string, Tier>> = {
  ".": "fast",
  bench: "fast",
  docs: "fast",
  domain: "fast",
  http: "fast",
  mcp: "fast",
  payments: "fast",
  routes: "fast",
  services: "fast",
  startup: "fast",
  support: "fast",
  upstream: "fast",
  db: "database",
  jobs: "database",
  ask: "once",
  cli: "once",
  commands: "once",
  e2e: "once",
};

export const ROOT = resolve(import.meta.dir, "../..");
/** The marker: the first line of a file, `// test-tier: <tier>` and why. */
const MARKER = /^\/\/ test-tier: (\S+)/;

/** Every test file of the suite, relative to the repository root, sorted. */
export function testFiles(dir = "test"): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, dir))) {
    const path = `${dir}/${name}`;
    if (statSync(join(ROOT, path)).isDirectory()) out.push(...testFiles(path));
    else if (name.endsWith(".test.ts")) out.push(path);
  }
  return out.sort();
}

/** The directory under test/ that decides a file's tier by default. */
export function directoryOf(file: string): string {
  const parts = file.split("/");
  return parts.length > 2 ? parts[1]! : ".";
}

/** The tier a file's marker names (null without one); throws on a marker naming no tier. */
export function markedTier(file: string, text = readFileSync(join(ROOT, file), "utf8")): Tier | null {
  const marked = MARKER.exec(text)?.[1];
  if (marked === undefined) return null;
  if (!(TIERS as readonly string[]).includes(marked)) throw new Error(`${file}: "test-tier: ${marked}" names no tier`);
  return marked as Tier;
}

/** A file's tier: its marker's, else its directory's; throws for a directory without a tier. */
export function tierOf(file: string, text?: string): Tier {
  const marked = markedTier(file, text);
  if (marked) return marked;
  const tier = DIRECTORY_TIERS[directoryOf(file)];
  if (!tier) throw new Error(`${file}: test/${directoryOf(file)}/ has no tier (test/support/tiers.ts DIRECTORY_TIERS)`);
  return tier;
}

/** The relative imports of a file that name files of ours (x, x.ts, x/index.ts), as repository paths. */
export function localImports(file: string, text = readFileSync(join(ROOT, file), "utf8")): string[] {
  const specs = text.matchAll(
    /(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|import\s*["']([^"']+)["']/g,
  );
  const out: string[] = [];
  for (const m of specs) {
    const spec = m[1] ?? m[2] ?? m[3]!;
    if (!spec.startsWith(".")) continue;
    const base = relative(ROOT, resolve(ROOT, dirname(file), spec));
    const found = [base, `${base}.ts`, join(base, "index.ts")].find((p) => {
      try {
        return statSync(join(ROOT, p)).isFile();
      } catch {
        return false;
      }
    });
    if (found) out.push(found);
  }
  return out;
}

/** What starts a process: a spawn, a child process, a browser. */
const STARTS_PROCESS = /\bBun\.spawn(Sync)?\(|["']node:child_process["']|["']playwright-core["']/;

/** What starts the job engine (pg-boss, which polls its queues on a timer): a test of it is a database test. */
const STARTS_JOB_ENGINE = /\bcreateJobRuntime\(/;

/**
 * The first file that starts a process, among `file` and the helpers of test/ and bench/ it imports (directly or
 * through others), with the chain of imports that reaches it; null when none does.
 */
export const processStarter = (file: string): string[] | null => firstReaching(file, STARTS_PROCESS);

/** As processStarter, for the job engine. */
export const jobEngineStarter = (file: string): string[] | null => firstReaching(file, STARTS_JOB_ENGINE);

function firstReaching(file: string, pattern: RegExp): string[] | null {
  const seen = new Set<string>();
  const visit = (f: string, path: string[]): string[] | null => {
    if (seen.has(f)) return null;
    seen.add(f);
    const text = readFileSync(join(ROOT, f), "utf8");
    if (pattern.test(text)) return [...path, f];
    for (const next of localImports(f, text)) {
      if (!/^(test|bench)\//.test(next)) continue;
      const found = visit(next, [...path, f]);
      if (found) return found;
    }
    return null;
  };
  return visit(file, []);
}

/** A file that loads the whole snapshot (minutes to seed the first time; the ask evaluations). */
export const loadsWholeSnapshot = (text: string): boolean => /\bwholeSnapshotDatabase\(/.test(text);

/** A file whose tests differ by the database they run on. */
export const readsBackend = (text: string): boolean =>
  /\btestBackend\b|TEST_DATABASE_URL|\bsharedDatabase\(/.test(text);

/** The files of a tier. */
export function filesOf(tier: Tier): string[] {
  return testFiles().filter((f) => tierOf(f) === tier);
}
