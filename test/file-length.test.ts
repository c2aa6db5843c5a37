// No source, test or bench file over 400 lines: a longer file is split by concern (and the formatter, biome.jsonc,
// keeps lines short, so the limit is not met by packing them).
import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const MAX_LINES = 400;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === "node_modules") continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

/** Lines as an editor counts them: a final newline does not start another. */
const lineCount = (text: string): number => (text === "" ? 0 : text.replace(/\n$/, "").split("\n").length);

test("lines are counted as an editor counts them", () => {
  expect(lineCount("")).toBe(0);
  expect(lineCount("a\n")).toBe(1);
  expect(lineCount("a\nb")).toBe(2);
  expect(lineCount("x\n".repeat(MAX_LINES))).toBe(MAX_LINES);
  expect(lineCount("x\n".repeat(MAX_LINES + 1))).toBe(MAX_LINES + 1);
});

test(`no file in src/, db/, payments/, test/ or bench/ is over ${MAX_LINES} lines`, () => {
  const long = ["src", "db", "payments", "test", "bench"]
    .flatMap((dir) => sourceFiles(join(ROOT, dir)))
    .map((f) => ({ file: relative(ROOT, f), lines: lineCount(readFileSync(f, "utf8")) }))
    .filter((f) => f.lines > MAX_LINES)
    .map((f) => `${f.file}: ${f.lines} lines`);
  expect(long).toEqual([]);
});
