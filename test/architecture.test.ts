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

/** The file of ours a relative specifier names, as the bundler resolves it (x, x.ts, x.tsx, x/index.ts); null if none. */
function resolveImport(file: string, spec: string, known: Set<string>): string | null {
  if (!spec.startsWith(".")) return null;
  const base = relative(root, resolve(join(root, file, ".."), spec));
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts")]) if (known.has(candidate)) return candidate;
  return null;
}

/** Strongly connected components of more than one file (Tarjan), each as its sorted file list. */
function importCycles(edges: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return cycles.sort((a, b) => a[0].localeCompare(b[0]));
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

  test("no import cycles among src/, db/ and payments/ modules (type-only imports included)", () => {
    // Type-only imports count: a cycle of types still ties the modules into one unit that cannot be read, tested or
    // moved alone. Declaration files and migrations are not modules of ours that import anything.
    const modules = [...files("src"), ...files("db"), ...files("payments")].filter((f) => !f.endsWith(".d.ts") && !f.split("/").includes("migrations"));
    const known = new Set(modules);
    const edges = new Map<string, string[]>();
    for (const f of modules) {
      const targets = importsOf(f).map((s) => resolveImport(f, s, known));
      edges.set(f, targets.filter((t): t is string => t !== null && t !== f));
    }
    expect(importCycles(edges).map((cycle) => cycle.join(" "))).toEqual([]);
  });

  test("schemas/ never imports services/", () => {
    // Schemas describe the wire format; the services that fill it depend on them, not the other way round.
    const bad: string[] = [];
    for (const f of files("src/schemas")) for (const s of importsOf(f)) if (resolvesInto(f, s, "src/services")) bad.push(`${f} -> ${s}`);
    expect(bad).toEqual([]);
  });

  test("services/ never import http/ (the error table they raise from sits below both, in src/errors.ts)", () => {
    const bad: string[] = [];
    for (const f of files("src/services")) for (const s of importsOf(f)) if (resolvesInto(f, s, "src/http")) bad.push(`${f} -> ${s}`);
    expect(bad).toEqual([]);
  });

  test("entitlement and the rate window are decided in the admission core alone", () => {
    // The rules themselves are pure functions of domain/access.ts; only the core applies them to a request.
    const deciders = [...files("src"), ...files("payments")].filter((f) => /\b(entitlementVerdict|rateDecision|canReadPremium)\(/.test(readFileSync(join(root, f), "utf8")));
    expect(deciders.sort()).toEqual(["src/domain/access.ts", "src/services/admission.ts", "src/services/keys.ts"]);
    // keys.ts only reports a key's premium access on GET /v1/ping.
    expect(readFileSync(join(root, "src/services/keys.ts"), "utf8").match(/\b(entitlementVerdict|rateDecision|canReadPremium)\(/g)).toEqual(["canReadPremium("]);
  });

  test("only the entry points and test support read process.env", () => {
    const allowed = new Set(["src/server.ts", "src/cli.ts"]);
    const bad = [...files("src"), ...files("db"), ...files("payments")].filter(
      (f) => !allowed.has(f) && /process\.env/.test(readFileSync(join(root, f), "utf8")),
    );
    expect(bad).toEqual([]);
  });
});
