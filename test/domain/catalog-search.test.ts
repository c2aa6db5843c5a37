// src/domain/catalog-search.ts on a hand-made list: visibility, filters, the search's three ranks and paging.
import { describe, expect, test } from "bun:test";
import {
  buildIndicatorSearch,
  findIndicators,
  isVisible,
  pageOf,
  type SearchableIndicator,
  type Standing,
} from "../../src/domain/catalog-search";

const row = (code: string, name: string, extra: Partial<SearchableIndicator> = {}): SearchableIndicator => ({
  code,
  name,
  description: null,
  sourceSlug: "fred",
  category: "macro",
  frequency: "monthly",
  isActive: true,
  sourceIsActive: true,
  ...extra,
});

// The base order (code, then source, byte order) is the caller's: kept as given.
const rows = [
  row("A_GDP", "Nominal output", { description: "Gross domestic product, see GDP" }),
  row("GDP", "Gross Domestic Product"),
  row("GDP", "Gross Domestic Product (republished)", {
    sourceSlug: "worldbank",
    category: "demographics",
    frequency: "annual",
  }),
  row("GDPC1", "Real GDP"),
  row("OLD", "Discontinued gdp thing", { isActive: false }),
  row("PAYEMS", "Payrolls", { sourceSlug: "cdc", sourceIsActive: false }),
  row("X%Y", "Percent 100% sign"),
  row("ZGDP", "gdp in a name", { sourceSlug: null, sourceIsActive: null }),
];
const index = buildIndicatorSearch(rows);
const codes = (f: Parameters<typeof findIndicators>[1]) =>
  findIndicators(index, f).map((r) => `${r.code}/${r.sourceSlug}`);

describe("findIndicators", () => {
  test("visible: active, and the source active or absent", () => {
    expect(rows.map(isVisible)).toEqual([true, true, true, true, false, false, true, true]);
    expect(codes({ includeInactive: false })).toEqual([
      "A_GDP/fred",
      "GDP/fred",
      "GDP/worldbank",
      "GDPC1/fred",
      "X%Y/fred",
      "ZGDP/null",
    ]);
    expect(codes({ includeInactive: true }).length).toBe(8);
  });

  test("filters are exact and combine", () => {
    expect(codes({ includeInactive: false, source: "worldbank" })).toEqual(["GDP/worldbank"]);
    expect(codes({ includeInactive: false, category: "macro", frequency: "monthly", source: "fred" })).toEqual([
      "A_GDP/fred",
      "GDP/fred",
      "GDPC1/fred",
      "X%Y/fred",
    ]);
    expect(codes({ includeInactive: true, source: "cdc" })).toEqual(["PAYEMS/cdc"]);
    expect(codes({ includeInactive: false, source: "Fred" })).toEqual([]);
  });

  test("search ranks exact codes, then code prefixes, then names, then the rest, each in base order", () => {
    expect(codes({ includeInactive: false, search: "gDp" })).toEqual([
      "GDP/fred",
      "GDP/worldbank", // code equals the term
      "GDPC1/fred", // code starts with it (its name "Real GDP" also matches, but the prefix ranks first)
      "ZGDP/null", // name contains it
      "A_GDP/fred", // code and description only
    ]);
    expect(codes({ includeInactive: true, search: "gdp" })).toContain("OLD/fred");
  });

  test("search is a plain substring: % and _ are characters, not wildcards", () => {
    expect(codes({ includeInactive: false, search: "%" })).toEqual(["X%Y/fred"]);
    expect(codes({ includeInactive: false, search: "_" })).toEqual(["A_GDP/fred"]);
    expect(codes({ includeInactive: false, search: "x_y" })).toEqual([]);
    expect(codes({ includeInactive: false, search: "domestic product, see" })).toEqual(["A_GDP/fred"]);
  });
});

describe("findIndicators with standing: what can be read now comes first", () => {
  const labor = [
    row("LASST03", "Unemployment Rate by State (LAUS, seasonally adjusted)"),
    row("LAUCN03A", "Unemployment Rate by County, Annual Average (LAUS)", { frequency: "annual" }),
    row("LNU04028615", "Unemployment Rate - Government Wage and Salary Workers"),
    row("PAYEMS", "All Employees, Total Nonfarm", { description: "Not unemployment" }),
    row("U6RATE", "U-6 Unemployment Rate"),
    row("UNEMPLOY", "Unemployment Level"),
    row("UNRATE", "Unemployment Rate"),
  ];
  const st: Record<string, Standing> = {
    LASST03: { held: true, current: false, newestEnd: "2026-06-30" },
    LAUCN03A: { held: true, current: true, newestEnd: "2024-12-31" },
    LNU04028615: { held: false, current: false, newestEnd: null },
    PAYEMS: { held: true, current: true, newestEnd: "2026-10-31" },
    U6RATE: { held: true, current: false, newestEnd: "2026-06-30" },
    UNEMPLOY: { held: false, current: false, newestEnd: null },
    UNRATE: { held: true, current: false, newestEnd: "2026-06-30" },
  };
  const idx = buildIndicatorSearch(labor);
  const ranked = (search?: string) =>
    findIndicators(idx, { includeInactive: false, search }, (r) => st[r.code]!).map((r) => r.code);

  test("a search: name matches first; held before not held; then the closer name (UNRATE first); description-only last", () => {
    expect(ranked("unemployment")).toEqual([
      "UNRATE",
      "U6RATE",
      "LAUCN03A",
      "LASST03",
      "UNEMPLOY",
      "LNU04028615",
      "PAYEMS",
    ]);
  });

  test("equal names: current before stale, then the newest period ending later", () => {
    const twins = [row("A", "Rate"), row("B", "Rate"), row("C", "Rate"), row("D", "Rate")];
    const s: Record<string, Standing> = {
      A: { held: true, current: false, newestEnd: "2026-06-30" },
      B: { held: true, current: false, newestEnd: "2026-09-30" },
      C: { held: true, current: true, newestEnd: "2026-01-31" },
      D: { held: false, current: false, newestEnd: null },
    };
    expect(
      findIndicators(buildIndicatorSearch(twins), { includeInactive: false, search: "rate" }, (r) => s[r.code]!).map(
        (r) => r.code,
      ),
    ).toEqual(["C", "B", "A", "D"]);
  });

  test("an exact code still comes first, held or not", () => {
    expect(ranked("unemploy")[0]).toBe("UNEMPLOY");
  });

  test("no search: held and current, then held and stale, then not held; the base order within each", () => {
    expect(ranked()).toEqual(["LAUCN03A", "PAYEMS", "LASST03", "U6RATE", "UNRATE", "LNU04028615", "UNEMPLOY"]);
  });
});

describe("pageOf", () => {
  test("limit from offset; 0 is empty; past the end is empty", () => {
    const xs = [1, 2, 3, 4, 5];
    expect(pageOf(xs, { limit: 2, offset: 0 })).toEqual([1, 2]);
    expect(pageOf(xs, { limit: 2, offset: 4 })).toEqual([5]);
    expect(pageOf(xs, { limit: 0, offset: 0 })).toEqual([]);
    expect(pageOf(xs, { limit: 100, offset: 5 })).toEqual([]);
  });
});
