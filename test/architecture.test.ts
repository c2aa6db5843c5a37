// Enforces the dependency directions of DESIGN.md by reading import specifiers.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { moduleState, unboundedCollectionFields } from "./support/source-scan";

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

/** Every module of ours: src/, db/ and payments/ (migrations and declaration files aside). */
function ours(): string[] {
  return [...files("src"), ...files("db"), ...files("payments")].filter(
    (f) => !f.endsWith(".d.ts") && !f.split("/").includes("migrations"),
  );
}

function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), "utf8");
  const specs = [
    ...text.matchAll(
      /(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|import\s*["']([^"']+)["']/g,
    ),
  ];
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
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts")])
    if (known.has(candidate)) return candidate;
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
    for (const f of files("payments"))
      for (const s of importsOf(f)) if (resolvesInto(f, s, "src") || resolvesInto(f, s, "db")) bad.push(`${f} -> ${s}`);
    expect(bad).toEqual([]);
  });

  test("db/ imports nothing from src/ except type-only and the progress reporter interface", () => {
    const bad: string[] = [];
    for (const f of files("db")) {
      const text = readFileSync(join(root, f), "utf8");
      for (const m of text.matchAll(/^(import|export)(\s+type)?\s[^'"]*?from\s*["']([^"']+)["']/gm)) {
        const typeOnly = !!m[2];
        if (
          !typeOnly &&
          resolvesInto(f, m[3], "src") &&
          !/src\/(domain|progress)/.test(relative(root, resolve(join(root, f, ".."), m[3])))
        )
          bad.push(`${f} -> ${m[3]}`);
      }
    }
    expect(bad).toEqual([]);
  });

  test("no import cycles among src/, db/ and payments/ modules (type-only imports included)", () => {
    // Type-only imports count: a cycle of types still ties the modules into one unit that cannot be read, tested or
    // moved alone. Declaration files and migrations are not modules of ours that import anything.
    const modules = [...files("src"), ...files("db"), ...files("payments")].filter(
      (f) => !f.endsWith(".d.ts") && !f.split("/").includes("migrations"),
    );
    const known = new Set(modules);
    const edges = new Map<string, string[]>();
    for (const f of modules) {
      const targets = importsOf(f).map((s) => resolveImport(f, s, known));
      edges.set(
        f,
        targets.filter((t): t is string => t !== null && t !== f),
      );
    }
    expect(importCycles(edges).map((cycle) => cycle.join(" "))).toEqual([]);
  });

  // Layers one way: entry points -> routes, mcp, docs -> http -> services -> domain, db. Each row is an edge that must
  // not exist, with why; there is no list of exceptions.
  const FORBIDDEN: [from: string, to: string, why: string][] = [
    [
      "src/services",
      "src/http",
      "services return data; HTTP answers are made above them (the error table is src/errors.ts)",
    ],
    ["src/services", "src/routes", "routes call services, never the other way"],
    ["src/services", "src/mcp", "MCP tools call services, never the other way"],
    ["src/services", "src/docs", "documents are built above the services (src/docs/discovery.ts)"],
    ["src/http", "src/routes", "routes are registered on the http layer"],
    ["src/http", "src/mcp", "the MCP endpoint is a route"],
    ["src/http", "src/docs", "documents are served by routes"],
    ["src/docs", "src/mcp", "docs and MCP read one contract (src/contract)"],
    ["src/mcp", "src/docs", "docs and MCP read one contract (src/contract)"],
    ["src/mcp", "src/routes", "routes mount MCP, never the other way"],
    ["src/contract", "src/docs", "the contract is read by the documents"],
    ["src/contract", "src/mcp", "the contract is read by MCP"],
    ["src/contract", "src/services", "the contract names operations; it computes nothing"],
    ["src/contract", "src/http", "the contract names operations; it answers nothing"],
    ["src/contract", "src/routes", "routes read the contract"],
    ["src/schemas", "src/services", "schemas describe the wire; the services that fill it depend on them"],
    ["src/schemas", "src/http", "schemas describe the wire, not how it is answered"],
    ["src/schemas", "src/routes", "routes read the schemas"],
    ["src/jobs", "src/http", "jobs call services; no request is involved"],
    ["src/jobs", "src/routes", "jobs call services; no request is involved"],
    ["src/domain", "src/services", "domain is pure functions"],
    ["src/domain", "db", "domain is pure functions"],
    ["db", "src/schemas", "db/schema owns its stored types; wire types belong to src/schemas"],
    ["db", "src/services", "repos are called by services"],
    ["db", "src/http", "repos are called by services"],
    ["payments", "src", "payments is a package of its own"],
    ["payments", "db", "payments stores proofs through its ProofStore interface"],
  ];

  test.each(FORBIDDEN)("%s never imports %s (%s)", (from, to) => {
    const bad: string[] = [];
    for (const f of files(from)) for (const s of importsOf(f)) if (resolvesInto(f, s, to)) bad.push(`${f} -> ${s}`);
    expect(bad).toEqual([]);
  });

  test("/api/mcp is written once, in the contract", () => {
    const writers = [...files("src"), ...files("db")].filter((f) =>
      /["'`]\/api\/mcp["'`]/.test(readFileSync(join(root, f), "utf8")),
    );
    expect(writers).toEqual(["src/contract/mcp.ts"]);
  });

  test("one bounded cache: no hand-written eviction (oldest key out, clear when full) outside src/services/bounded-cache.ts", () => {
    const evicting = ours().filter(
      (f) =>
        f !== "src/services/bounded-cache.ts" &&
        /\.keys\(\)\.next\(\)|\.size\s*>=?\s*[A-Z0-9_]+\)\s*\w+\.(clear|delete)\(/.test(
          readFileSync(join(root, f), "utf8"),
        ),
    );
    expect(evicting).toEqual([]);
  });

  test("no module-level mutable state in src/, db/ or payments/: no top-level let or var, no top-level collection written after it is made", () => {
    // A worker thread's entry module: its top level is that thread's main, run once per thread.
    const threadEntries = new Set(["src/startup/database-thread.ts", "src/startup/starting-server.ts"]);
    const bad = ours()
      .filter((f) => !threadEntries.has(f))
      .flatMap((f) => moduleState(readFileSync(join(root, f), "utf8")).map((s) => `${f} ${s}`));
    expect(bad).toEqual([]);
  });

  test("no unbounded Map or Set field in a class or long-lived object: a BoundedCache, or a comment saying what bounds it", () => {
    const bad = ours()
      .filter((f) => f !== "src/services/bounded-cache.ts")
      .flatMap((f) => unboundedCollectionFields(readFileSync(join(root, f), "utf8")).map((s) => `${f} ${s}`));
    expect(bad).toEqual([]);
  });

  test("the module-state and field checks catch what they are for", () => {
    expect(moduleState("let last = null;\nexport function f() { last = 1; }")).toHaveLength(1);
    expect(
      moduleState("const memo = new WeakMap<object, number>();\nexport const f = (k: object) => memo.set(k, 1);"),
    ).toHaveLength(1);
    expect(moduleState("const seen = new Map<string, number>();\nfor (const k of ks) seen.set(k, 1);")).toHaveLength(1);
    expect(
      moduleState("const codes: Record<number, string[]> = {};\nexport function f() { codes[1] = []; }"),
    ).toHaveLength(1);
    expect(moduleState("const LIMITS = new Set([1, 2]);\nexport const has = (n: number) => LIMITS.has(n);")).toEqual(
      [],
    );
    expect(moduleState("const SCRIPT = `\nlet current = null;\n`;\nconst re = /let x/;")).toEqual([]);
    expect(
      unboundedCollectionFields("class PageMemo {\n  private readonly entries = new Map<string, number>();\n}"),
    ).toHaveLength(1);
    expect(
      unboundedCollectionFields(
        "class Links {\n  // Bounded: one per network.\n  private readonly links = new Map<string, number>();\n}",
      ),
    ).toEqual([]);
  });

  test("errors.ts is framework-free, and no module but the CLI's imports a CLI command file", () => {
    expect(importsOf("src/errors.ts").filter((s) => !s.startsWith("./domain/"))).toEqual([]);
    const cli = (f: string) => f.startsWith("src/commands/") || f.startsWith("src/admin/") || f === "src/cli.ts";
    const bad = ours()
      .filter((f) => !cli(f))
      .flatMap((f) =>
        importsOf(f)
          .filter((s) => resolvesInto(f, s, "src/commands"))
          .map((s) => `${f} -> ${s}`),
      );
    expect(bad).toEqual([]);
  });

  test("write events belong to the database object: no module-level listener registry in db/repos", () => {
    const registries = files("db/repos").filter((f) =>
      /new (WeakMap|Map|Set)<[^>]*Listener/.test(readFileSync(join(root, f), "utf8")),
    );
    expect(registries).toEqual([]);
  });

  test("entitlement and the rate window are decided in the admission core alone", () => {
    // The rules themselves are pure functions of domain/access.ts; only the core applies them to a request.
    const deciders = [...files("src"), ...files("payments")].filter((f) =>
      /\b(entitlementVerdict|rateDecision|canReadPremium)\(/.test(readFileSync(join(root, f), "utf8")),
    );
    expect(deciders.sort()).toEqual(["src/domain/access.ts", "src/services/admission.ts", "src/services/keys.ts"]);
    // keys.ts only reports a key's premium access on GET /v1/ping.
    expect(
      readFileSync(join(root, "src/services/keys.ts"), "utf8").match(
        /\b(entitlementVerdict|rateDecision|canReadPremium)\(/g,
      ),
    ).toEqual(["canReadPremium("]);
  });

  test("services and domain return data, not HTTP: no hono, http/ or routes/ import, no Headers or Response, no response header set", () => {
    const bad: string[] = [];
    for (const f of [...files("src/services"), ...files("src/domain")]) {
      for (const s of importsOf(f)) {
        if (/^(hono|@hono\/)/.test(s) || resolvesInto(f, s, "src/http") || resolvesInto(f, s, "src/routes"))
          bad.push(`${f} -> ${s}`);
      }
      const text = readFileSync(join(root, f), "utf8");
      if (/new (Headers|Response)\(|Response\.json\(/.test(text)) bad.push(`${f}: builds a Headers or Response`);
      // A response header's name as a string ("X-Total-Count": ..., h["Retry-After"] = ..., a table of names); an
      // outgoing request's lower-case headers (a model API call) are not answers. Errors and refusals carry advice as
      // data (src/errors.ts ErrorAdvice), which src/http/verdicts.ts adviceHeaders writes; a CSV page's meta, content-coding.ts csvMetaHeaders.
      const header =
        /["'`]([Xx]-[A-Za-z0-9-]+|Retry-After|Cache-Control|Content-Type|WWW-Authenticate|ETag|Vary|Allow)["'`]/g;
      for (const m of text.matchAll(header)) bad.push(`${f}: names header ${m[1]}`);
    }
    expect(bad).toEqual([]);
  });

  test("how a request is admitted is declared by its route, not read from its path (src/http/admission.ts)", () => {
    const text = readFileSync(join(root, "src/http/admission.ts"), "utf8").replace(/^\s*(\/\/|\*|\/\*\*).*$/gm, "");
    // No request path or URL read, no path literal, no route table of paths imported.
    expect(text.match(/\.req\.(path|url|routePath)\b|\bpathname\b|["'`]\/[A-Za-z0-9_*:-]|\bMCP_PATH\b/g) ?? []).toEqual(
      [],
    );
    expect(importsOf("src/http/admission.ts").filter((s) => /contract\/|\.\.\/routes\//.test(s))).toEqual([]);
  });

  test("only the entry points and test support read process.env", () => {
    const allowed = new Set(["src/server.ts", "src/bin.ts", "src/cli.ts"]);
    const bad = [...files("src"), ...files("db"), ...files("payments")].filter(
      (f) => !allowed.has(f) && /process\.env/.test(readFileSync(join(root, f), "utf8")),
    );
    expect(bad).toEqual([]);
  });
});
