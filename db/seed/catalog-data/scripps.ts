// Scripps Institution of Oceanography CO2 Program: the Mauna Loa Observatory in-situ record (the Keeling curve).
// Scripps publishes files, not series codes; the codes name the station (MLO, Scripps' own station code) and the
// column of monthly_in_situ_co2_mlo.csv. Held for the station's county, Hawaii County (15001); the record is a
// single station, so it is offered there only. Data are CC BY 4.0 (cite the Scripps CO2 Program).
import type { IndicatorSeed, SourceCatalog } from "./types";

function mlo(code: string, name: string, column: string, adjusted: boolean): IndicatorSeed {
  return {
    code,
    name,
    description:
      `Monthly mean atmospheric CO2 mole fraction at Mauna Loa Observatory, Hawaii, in parts per million (2012 SIO ` +
      `manometric scale), values adjusted to the 15th of each month` +
      (adjusted ? `, with the seasonal cycle removed (4-harmonic fit with a linear gain factor).` : `.`),
    category: "environment",
    subcategory: "greenhouse-gases",
    unit: "parts per million",
    frequency: "monthly",
    upIsGood: false,
    regionKinds: ["county"],
    defaultRegionCode: "15001",
    meta: {
      upstream: {
        api: "scripps",
        series_id: code,
        station: "MLO",
        file: "https://scrippsco2.ucsd.edu/assets/data/atmospheric/stations/in_situ_co2/monthly/monthly_in_situ_co2_mlo.csv",
        column,
      },
      license: "CC BY 4.0",
    },
  };
}

export const scrippsCatalog: SourceCatalog = {
  source: {
    slug: "scripps",
    name: "Scripps CO2 Program",
    provider: "Scripps Institution of Oceanography, UC San Diego",
    category: "environment",
    docsUrl: "https://scrippsco2.ucsd.edu/data/atmospheric_co2/primary_mlo_co2_record.html",
    attribution: "Source: Scripps CO2 Program, Scripps Institution of Oceanography, UC San Diego (CC BY 4.0).",
    license: "CC BY 4.0",
  },
  indicators: [
    mlo("MLO.CO2", "Atmospheric CO2 at Mauna Loa (monthly mean)", "CO2", false),
    mlo("MLO.CO2.SA", "Atmospheric CO2 at Mauna Loa (seasonally adjusted)", "seasonally adjusted", true),
  ],
};
