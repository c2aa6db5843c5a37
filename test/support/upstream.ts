// Connector registries over the fake upstream, on a manual clock whose sleeps advance it (and are recorded), plus
// the real catalog entries and region rows the connectors read.
import { CATALOG } from "../../db/seed/catalog-data";
import { regionList } from "../../db/seed/regions";
import type { IndicatorSeed } from "../../db/seed/catalog-data";
import { createConnectors, type ConnectorOptions } from "../../src/upstream";
import type { CatalogIndicator, CatalogRegion } from "../../src/upstream/types";
import { ManualClock } from "./clock";
import type { FakeUpstream } from "./fake-upstream";

export type Harness = ReturnType<typeof harness>;

export function harness(
  fake: FakeUpstream,
  opts: { fredKey?: boolean; blsKey?: boolean; timeoutMs?: number; at?: string } & Omit<
    ConnectorOptions,
    "clock" | "sleep"
  > = {},
) {
  const clock = new ManualClock(opts.at ?? "2026-01-15T12:00:00Z");
  const slept: number[] = [];
  const registry = createConnectors(
    { upstream: fake.config({ fredKey: opts.fredKey, blsKey: opts.blsKey, timeoutMs: opts.timeoutMs }) },
    {
      ...opts,
      clock,
      sleep: async (ms) => {
        slept.push(ms);
        clock.advance(ms);
      },
    },
  );
  return { registry, clock, slept };
}

/** A curated catalog entry as the indicators table holds it. */
export function catalogEntry(
  source: string,
  code: string,
  overrides: Partial<IndicatorSeed> = {},
): CatalogIndicator & { regionKinds: string[] } {
  const s = CATALOG.find((c) => c.source.slug === source);
  const i = s?.indicators.find((x) => x.code === code);
  if (!i) throw new Error(`no catalog entry ${source}:${code}`);
  const e = { ...i, ...overrides };
  return {
    code: e.code,
    sourceSlug: source,
    frequency: e.frequency,
    meta: e.meta,
    regionKinds: e.regionKinds,
    defaultRegionCode: e.defaultRegionCode,
  };
}

/** An annual-average LAUS entry as the lead adds them (meta.upstream.annual_average). */
export function lausAnnualEntry(
  kind: "state" | "county",
  mm: "03" | "04" | "05" | "06",
): CatalogIndicator & { regionKinds: string[] } {
  const template = kind === "state" ? `LAUST{fips2}00000000000${mm}` : `LAUCN{fips5}00000000${mm}`;
  return {
    code: `${kind === "state" ? "LAUST" : "LAUCN"}${mm}A`,
    sourceSlug: "bls",
    frequency: "annual",
    meta: {
      per_region: true,
      upstream: {
        api: "bls",
        program: "LAUS",
        series_id_template: template,
        seasonal_adjustment: "NSA",
        measure_code: mm,
        annual_average: true,
      },
    },
    regionKinds: [kind],
    defaultRegionCode: kind === "state" ? "06" : "06037",
  };
}

export function regionRow(code: string): CatalogRegion & { name: string } {
  const r = regionList().find((x) => x.code === code);
  if (!r) throw new Error(`no region ${code}`);
  return r;
}

export function regionsOfType(type: "country" | "state" | "county"): (CatalogRegion & { name: string })[] {
  return regionList().filter((r) => r.type === type);
}
