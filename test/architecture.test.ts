// Enforces the dependency directions of DESIGN.md by reading import specifiers.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const root = resolve(import.meta.dir, "..");

function files(dir: string): string[] {
  const abs = join(root, dir);
  try {
    statSync(abs);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const name of readdirSync(abs)) {
    if (name === "node_modules") continue;
    const p = join(abs, name);
    if (statSync(p).isDirectory()) out.push(...files(relative(root, p)));
    else if (/\.(ts|tsx)$/.test(name)) out.push(relative(root, p));
  }
  return out;
}

function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), "utf8");
  const specs = [...text.matchAll(/(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|import\s*["']([^"']+)["']/g)];
  return specs.map((m) => m[1] ?? m[2] ?? m[3]);
}

function resolvesInto(file: string, spec: string, dir: string): boolean {
  if (!spec.startsWith(".")) return false;
  const target = relative(root, resolve(join(root, file, ".."), spec));
  return target === dir || target.startsWith(dir + "/");
}

describe("architecture", () => {
  test("domain/ imports nothing of ours outside domain/ and no I/O or framework modules", () => {
    const bad: string[] = [];
    for (const f of files("src/domain")) {
      for (const s of importsOf(f)) {
        if (s.startsWith(".") && !resolvesInto(f, s, "src/domain")) bad.push(`${f} -> ${s}`);
        if (/^(hono|@hono\/|drizzle-orm|postgres|@electric-sql|node:fs|bun:sqlite)/.test(s)) bad.push(`${f} -> ${s}`);
      }
      const text = readFileSync(join(root, f), "utf8");
      if (/Date\.now\(|Math\.random\(|new Date\(\)/.test(text)) bad.push(`${f}: reads the clock or randomness`);
    }
    expect(bad).toEqual([]);
  });

  test("payments/ imports nothing from src/ or db/", () => {
    const bad: string[] = [];
    for (const f of files("payments")) for (const s of importsOf(f)) if (resolvesInto(f, s, "src") || resolvesInto(f, s, "db")) bad.push(`${f} -> ${s}`);
    expect(bad).toEqual([]);
  });

  test("db/ imports nothing from src/ except type-only and the progress reporter interface", () => {
    const bad: string[] = [];
    for (const f of files("db")) {
      const text = readFileSync(join(root, f), "utf8");
      for (const m of text.matchAll(/^(import|export)(\s+type)?\s[^'"]*?from\s*["']([^"']+)["']/gm)) {
        const typeOnly = !!m[2];
        if (!typeOnly && resolvesInto(f, m[3], "src") && !/src\/(domain|progress)/.test(relative(root, resolve(join(root, f, ".."), m[3])))) bad.push(`${f} -> ${m[3]}`);
      }
    }
    expect(bad).toEqual([]);
  });

  test("only the entry points and test support read process.env", () => {
    const allowed = new Set(["src/server.ts", "src/cli.ts"]);
    const bad = [...files("src"), ...files("db"), ...files("payments")].filter(
      (f) => !allowed.has(f) && /process\.env/.test(readFileSync(join(root, f), "utf8")),
    );
    expect(bad).toEqual([]);
  });
});
