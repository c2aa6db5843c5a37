// U.S. Energy Information Administration. State electricity generation by fuel, and the WTI spot price that FRED
// republishes as DCOILWTICO.
//
// Code choice. EIA series ids read ELEC.GEN.{fuel}-{state}-{sector}.{frequency} (ELEC.GEN.NUC-IA-99.A: nuclear net
// generation, Iowa, all sectors, annual; the v2 API still resolves them at /v2/seriesid/{id}). Generation is one
// indicator per fuel, coded as the series id without the state: ELEC.GEN.NUC-99.A. The fuel part is the v2 API's
// `fueltypeid` facet (FOS fossil fuels, NUC nuclear, REN renewables; 99 = all sectors), so
// meta.upstream.facets rebuilds the v2 request for any state. The default region is Iowa (19), the state whose
// history the bundled sample holds.
import type { IndicatorSeed, SourceCatalog } from "./types";
import { US_ONLY } from "./types";

function generation(fuel: "FOS" | "NUC" | "REN", label: string, what: string): IndicatorSeed {
  return {
    code: `ELEC.GEN.${fuel}-99.A`,
    name: `Net Generation of Electricity: ${label}, All Sectors, by State`,
    description:
      `Annual net electricity generation from ${what} in each state, all sectors (utilities, independent power ` +
      `producers, commercial and industrial). Per-state EIA series ELEC.GEN.${fuel}-{usps}-99.A (Iowa: ELEC.GEN.${fuel}-IA-99.A).`,
    category: "energy",
    subcategory: "electricity-generation",
    unit: "thousand megawatthours",
    frequency: "annual",
    upIsGood: null,
    regionKinds: ["state"],
    defaultRegionCode: "19",
    meta: {
      per_region: true,
      upstream: {
        api: "eia",
        series_id_template: `ELEC.GEN.${fuel}-{usps}-99.A`,
        route: "electricity/electric-power-operational-data",
        facets: { fueltypeid: fuel, sectorid: "99", location: "{usps}" },
        data: "generation",
      },
    },
  };
}

export const eiaCatalog: SourceCatalog = {
  source: {
    slug: "eia",
    name: "U.S. Energy Information Administration",
    provider: "U.S. Department of Energy",
    category: "energy",
    docsUrl: "https://www.eia.gov/opendata/documentation.php",
    attribution: "Source: U.S. Energy Information Administration.",
    license: "Public domain (U.S. government work)",
  },
  indicators: [
    generation("FOS", "Fossil Fuels", "fossil fuels (coal, petroleum, natural gas and other fossil gases)"),
    generation("NUC", "Nuclear", "nuclear power plants"),
    generation("REN", "Renewables", "renewable sources (conventional hydroelectric, wind, solar, biomass, geothermal)"),
    {
      code: "PET.RWTC.D",
      name: "Cushing, OK WTI Spot Price FOB",
      description:
        "West Texas Intermediate crude oil spot price, free on board at Cushing, Oklahoma, business days. EIA's original of FRED's DCOILWTICO.",
      category: "energy",
      subcategory: "oil",
      unit: "dollars per barrel",
      frequency: "daily",
      upIsGood: null,
      ...US_ONLY,
      meta: {
        upstream: { api: "eia", series_id: "PET.RWTC.D", route: "petroleum/pri/spt", facets: { series: "RWTC" } },
      },
    },
  ],
};
