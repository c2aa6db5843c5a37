// refFor over the real curated catalog: which entries a connector serves, for which regions.
import { describe, expect, test } from "bun:test";
import { CATALOG } from "../../db/seed/catalog-data";
import { createConnectors } from "../../src/upstream";
import { loadConfig } from "../../src/config";
import { catalogEntry, regionRow, regionsOfType } from "../support/upstream";

const config = loadConfig({
  FRED_API_KEY: "abcdefghijklmnopqrstuvwxyz012345",
  BLS_API_KEY: "0123456789abcdef0123456789abcdef",
});
const registry = createConnectors(config);

describe("refFor over the catalog", () => {
  test("every FRED, BLS, World Bank and ACS 5-year entry has a ref for its default region; PEP, flows and other APIs none", () => {
    const served: string[] = [];
    const not: string[] = [];
    for (const { source, indicators } of CATALOG) {
      for (const i of indicators) {
        const entry = catalogEntry(source.slug, i.code);
        (registry.refFor(entry, regionRow(i.defaultRegionCode)) ? served : not).push(`${source.slug}:${i.code}`);
      }
    }
    const api = (s: string) => {
      const [slug, code] = [s.slice(0, s.indexOf(":")), s.slice(s.indexOf(":") + 1)];
      return (
        (catalogEntry(slug, code).meta.upstream as { api?: string; program?: string; dataset?: string } | undefined) ??
        {}
      );
    };
    expect(served.every((s) => ["fred", "bls", "worldbank", "census"].includes(api(s).api!))).toBe(true);
    expect(served.filter((s) => api(s).api === "census").sort()).toEqual([
      "census:B19013_001E",
      "census:B25064_001E",
      "census:B25077_001E",
    ]);
    const notServedApis = new Set(not.map((s) => api(s).api ?? "none"));
    expect(notServedApis.has("fred") || notServedApis.has("bls") || notServedApis.has("worldbank")).toBe(false);
    expect(
      not
        .filter((s) => api(s).api === "census")
        .every((s) => api(s).program === "PEP" || api(s).dataset === "acs/flows"),
    ).toBe(true);
  });

  test("every LAUS entry's ids are 20 characters (LA + S/U + 15-character area + 2-digit measure) for every region it covers", () => {
    const laus = CATALOG.find((c) => c.source.slug === "bls")!.indicators.filter(
      (i) => (i.meta.upstream as { program?: string }).program === "LAUS",
    );
    expect(laus.length).toBeGreaterThanOrEqual(8);
    for (const i of laus) {
      const refs = i.regionKinds.flatMap((k) =>
        regionsOfType(k).map((r) => registry.refFor(catalogEntry("bls", i.code), r)),
      );
      expect(refs.length).toBeGreaterThanOrEqual(51);
      for (const r of refs) expect([i.code, r && r.connector === "bls" && r.seriesId.length]).toEqual([i.code, 20]);
    }
  });

  test("an entry without meta.upstream, or naming a provider with no connector, has none", () => {
    expect(registry.refFor({ code: "X", sourceSlug: null, frequency: null, meta: {} }, regionRow("US"))).toBeNull();
    expect(registry.refFor(catalogEntry("eia", "PET.RWTC.D"), regionRow("US"))).toBeNull();
  });
});
