// The vega-datasets samples kept beside the real snapshot (db/seed/snapshot.ts): only those that add a kind of data
// nothing in the snapshot covers. Files, licences and mappings: src/domain/vega-samples.ts. Kept (licence from
// datapackage.json):
//   co2-concentration.csv   CC BY 4.0 (Scripps CO2 Program)     -> scripps MLO.CO2, MLO.CO2.SA (environment)
//   iowa-electricity.csv    U.S. Government Dataset (EIA)       -> eia ELEC.GEN.{FOS,NUC,REN}-99.A, state 19 (energy)
//   obesity.json            U.S. Government Dataset (CDC BRFSS) -> cdc Q036, 50 states, 1995 (health)
//   gapminder.json          CC BY 4.0 (Gapminder)               -> life expectancy and fertility (population: World Bank)
//   budget.json             U.S. Government Dataset (OMB)       -> fred FYFR, FY1962-FY2014 (government finance)
// Dropped now that the snapshot covers them: us-employment.csv (PAYEMS and CES supersectors, 2006-2015: FRED's
// PAYEMS runs to 2025; supersectors are fetched from FRED on request), unemployment-across-industries.json (CPS,
// 2000-2010: fetched from BLS on request), unemployment.tsv (one month of 2009 county rates: the LAUS annual averages
// 2007-2018 cover every county), gapminder population (World Bank SP.POP.TOTL runs to 2024).
// Not used: sp500.csv and stocks.csv (no licence stated; S&P data are copyrighted), budgets.json (NYT projections in
// 2010 dollars, no observed series), global-temp.csv (a global series, and the regions table has no world region).
import co2Csv from "../../node_modules/vega-datasets/data/co2-concentration.csv" with { type: "text" };
import iowaCsv from "../../node_modules/vega-datasets/data/iowa-electricity.csv" with { type: "text" };
import obesityJson from "../../node_modules/vega-datasets/data/obesity.json";
import gapminderJson from "../../node_modules/vega-datasets/data/gapminder.json";
import budgetJson from "../../node_modules/vega-datasets/data/budget.json";
import {
  co2Concentration,
  federalReceipts,
  gapminder,
  iowaElectricity,
  obesity,
  type SampleSeries,
} from "../../src/domain/vega-samples";

/** The kept sample series, parsed from the package files. */
export function keptSampleSeries(): SampleSeries[] {
  return [
    ...co2Concentration(co2Csv),
    ...iowaElectricity(iowaCsv),
    ...obesity(obesityJson as never),
    ...gapminder(gapminderJson as never).filter((s) => s.code !== "population_total"),
    ...federalReceipts(budgetJson as never),
  ];
}
