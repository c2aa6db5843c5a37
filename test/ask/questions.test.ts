// Keeps the ask goldens (test/ask/questions.tsv) honest against the catalog they were labelled from: every code is a
// catalog indicator offered for the regions named, every `ok` row is answerable from the data the seed snapshot
// holds and every `no_data` row is not, a concept's series is the one the concept rule picks (held first, else the
// first offered), and the mix the issue asks for (labour, prices, housing, population, growth, rates; countries,
// states, counties; uncovered questions; hints; time phrases) is there. It checks the labels, not the resolver.
import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { CATALOG, type IndicatorSeed } from "../../db/seed/catalog-data";
import { regionList } from "../../db/seed/regions";
import { snapshotSeries } from "../../db/seed/snapshot";
import { isPerRegion } from "../../src/domain/coverage";
import { CONCEPTS, type RegionKind } from "../../src/domain/concepts";
import { parseWindow } from "../../src/domain/window";

const HEADER = ["question", "region_hint", "indicators", "regions", "window", "status", "note"];
const STATUSES = ["ok", "no_data", "no_coverage"];

type Golden = {
  line: number;
  question: string;
  hint: string | null;
  indicators: string[];
  regions: string[];
  window: string;
  status: string;
  note: string;
};

const text = readFileSync(resolve(import.meta.dir, "questions.tsv"), "utf8");
const [headerLine, ...bodyLines] = text.replace(/\n$/, "").split("\n");
const list = (cell: string) => (cell === "-" ? [] : cell.split(","));
const goldens: Golden[] = bodyLines.map((l, i) => {
  const c = l.split("\t");
  return {
    line: i + 2,
    question: c[0],
    hint: c[1] === "-" ? null : c[1],
    indicators: list(c[2]),
    regions: list(c[3]),
    window: c[4],
    status: c[5],
    note: c[6] ?? "",
  };
});

const regions = new Map(regionList().map((r) => [r.code, r]));
const indicators = new Map<string, IndicatorSeed>();
for (const s of CATALOG)
  for (const i of s.indicators) if (i.isActive !== false && !indicators.has(i.code)) indicators.set(i.code, i);

const offered = (code: string, region: string) => {
  const i = indicators.get(code)!;
  const r = regions.get(region)!;
  return i.regionKinds.includes(r.type as RegionKind) && (isPerRegion(i.meta) || i.defaultRegionCode === region);
};

let heldPairs: Set<string>;
beforeAll(async () => {
  heldPairs = new Set((await snapshotSeries()).series.map((s) => `${s.code}|${s.region}`));
}, 60_000);
/** Held by the seeded snapshot; a derived `svc:` series is held where every input is (it is computed from them). */
const held = (code: string, region: string): boolean => {
  const derived = (indicators.get(code)?.meta as { derived?: { inputs?: string[] } }).derived;
  if (derived?.inputs) return derived.inputs.every((input) => held(input, region));
  return heldPairs.has(`${code}|${region}`);
};

/** The series a concept resolves to for a region (src/domain/concepts.ts): the first held, else the first offered. */
function conceptPick(candidates: readonly { indicator: string }[], region: string): string | null {
  const offers = candidates.map((c) => c.indicator).filter((c) => indicators.has(c) && offered(c, region));
  return offers.find((c) => held(c, region)) ?? offers[0] ?? null;
}

const where = (g: Golden) => `line ${g.line}: ${g.question}`;

describe("ask goldens (test/ask/questions.tsv)", () => {
  test("plain table: the header, seven cells per row, 60 to 80 distinct questions a caller may send", () => {
    expect(headerLine.split("\t")).toEqual(HEADER);
    for (const l of bodyLines) expect(l.split("\t").length).toBe(HEADER.length);
    expect(goldens.length).toBeGreaterThanOrEqual(60);
    expect(goldens.length).toBeLessThanOrEqual(80);
    expect(new Set(goldens.map((g) => g.question.toLowerCase())).size).toBe(goldens.length);
    for (const g of goldens) {
      expect(g.question.trim().length, where(g)).toBeGreaterThan(0);
      expect(g.question.length, where(g)).toBeLessThanOrEqual(500);
    }
  });

  test("status, window and hint are well formed", () => {
    for (const g of goldens) {
      expect(STATUSES, where(g)).toContain(g.status);
      if (g.window !== "default") expect(parseWindow(g.window), where(g)).not.toBeNull();
      // A hint is a FIPS code (state or county), as the ask endpoint's `region` parameter takes it.
      if (g.hint !== null) expect(["state", "county"], where(g)).toContain(regions.get(g.hint)?.type ?? "unknown");
    }
  });

  test("uncovered rows name no series; covered rows name series and regions that exist", () => {
    for (const g of goldens) {
      expect(g.indicators.length === 0, where(g)).toBe(g.status === "no_coverage");
      for (const code of g.indicators) expect(indicators.has(code), `${where(g)}: ${code}`).toBe(true);
      for (const code of g.regions) expect(regions.has(code), `${where(g)}: ${code}`).toBe(true);
      if (g.status !== "no_coverage") expect(g.regions.length, where(g)).toBeGreaterThan(0);
    }
  });

  test("every series is offered for a region of the row, and every region is offered a series of the row", () => {
    for (const g of goldens.filter((x) => x.status !== "no_coverage")) {
      for (const i of g.indicators)
        expect(
          g.regions.some((r) => offered(i, r)),
          `${where(g)}: ${i}`,
        ).toBe(true);
      for (const r of g.regions)
        expect(
          g.indicators.some((i) => offered(i, r)),
          `${where(g)}: ${r}`,
        ).toBe(true);
    }
  });

  test("ok rows are answerable from the held data; no_data rows hold nothing for the place", () => {
    for (const g of goldens) {
      if (g.status === "ok") {
        for (const r of g.regions)
          expect(
            g.indicators.some((i) => held(i, r)),
            `${where(g)}: ${r}`,
          ).toBe(true);
      }
      if (g.status === "no_data") {
        for (const r of g.regions)
          for (const i of g.indicators) expect(held(i, r), `${where(g)}: ${i} ${r}`).toBe(false);
      }
    }
  });

  test("a series some concept curates for the region's kind is that concept's pick there", () => {
    let checked = 0;
    for (const g of goldens) {
      for (const i of g.indicators) {
        for (const r of g.regions) {
          if (!offered(i, r)) continue;
          const kind = regions.get(r)!.type as RegionKind;
          for (const concept of Object.values(CONCEPTS)) {
            if (concept.type !== "series") continue;
            const candidates = concept.levels[kind] ?? [];
            if (!candidates.some((c) => c.indicator === i)) continue;
            expect(conceptPick(candidates, r), `${where(g)}: ${concept.code} in ${r}`).toBe(i);
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(30);
  });

  test("the mix: US macro, states, counties, countries, uncovered, hints, time phrases, every status", () => {
    const kindOf = (g: Golden) => {
      if (g.status === "no_coverage") return "uncovered";
      const kinds = g.regions.map((r) => regions.get(r)!.type);
      if (kinds.includes("county")) return "county";
      if (kinds.includes("state")) return "state";
      const national =
        g.regions.every((r) => r === "US") && g.indicators.every((i) => ["fred", "svc"].includes(sourceOf(i)));
      return national ? "us" : "country";
    };
    const count = (f: (g: Golden) => boolean) => goldens.filter(f).length;
    expect(count((g) => kindOf(g) === "us")).toBeGreaterThanOrEqual(18);
    expect(count((g) => kindOf(g) === "state")).toBeGreaterThanOrEqual(15);
    expect(count((g) => kindOf(g) === "county")).toBeGreaterThanOrEqual(10);
    expect(count((g) => kindOf(g) === "country")).toBeGreaterThanOrEqual(8);
    expect(count((g) => kindOf(g) === "uncovered")).toBeGreaterThanOrEqual(8);
    expect(count((g) => g.status === "no_data")).toBeGreaterThanOrEqual(8);
    expect(count((g) => g.hint !== null)).toBeGreaterThanOrEqual(3);
    expect(count((g) => g.window !== "default")).toBeGreaterThanOrEqual(10);
    expect(count((g) => g.regions.length > 1)).toBeGreaterThanOrEqual(3);
    // Topics the issue names, by the catalog category of the cited series.
    const categories = new Set<string>(goldens.flatMap((g) => g.indicators.map((i) => indicators.get(i)!.category)));
    for (const c of ["labor", "prices", "housing", "demographics", "macro", "markets"]) expect(categories).toContain(c);
  });
});

function sourceOf(code: string): string {
  for (const s of CATALOG) if (s.indicators.some((i) => i.code === code)) return s.source.slug;
  return "";
}
