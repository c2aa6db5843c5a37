// World Bank World Development Indicators: country series. Codes are WDI indicator ids; one indicator covers every
// country (the API is keyed by country: /v2/country/{iso2}/indicator/{id}), default the United States.
// Values are annual, dated YYYY-01-01. WDI is published under CC BY 4.0: cite "Source: World Bank WDI".
import type { Category } from "../../schema/catalog";
import type { IndicatorSeed, SourceCatalog } from "./types";

function wdi(code: string, name: string, description: string, category: Category, subcategory: string, unit: string, upIsGood: boolean | null): IndicatorSeed {
  return {
    code,
    name,
    description: `${description} Source: World Bank, World Development Indicators (${code}).`,
    category,
    subcategory,
    unit,
    frequency: "annual",
    upIsGood,
    regionKinds: ["country"],
    defaultRegionCode: "US",
    meta: {
      per_region: true,
      upstream: {
        api: "worldbank",
        indicator: code,
        url_template: `https://api.worldbank.org/v2/country/{iso2}/indicator/${code}?format=json&per_page=20000`,
      },
      license: "CC BY 4.0",
    },
  };
}

export const worldbankCatalog: SourceCatalog = {
  source: {
    slug: "worldbank",
    name: "World Bank World Development Indicators",
    provider: "World Bank",
    category: "macro",
    docsUrl: "https://datahelpdesk.worldbank.org/knowledgebase/articles/889392-about-the-indicators-api-documentation",
    attribution: "Source: World Bank, World Development Indicators (CC BY 4.0).",
    license: "CC BY 4.0",
  },
  indicators: [
    wdi("SP.POP.TOTL", "Population, total", "Midyear estimate of all residents regardless of legal status or citizenship.", "demographics", "population", "persons", null),
    wdi("SP.DYN.TFRT.IN", "Fertility rate, total (births per woman)", "Number of children a woman would bear over her lifetime at current age-specific fertility rates.", "demographics", "fertility", "births per woman", null),
    wdi("NY.GDP.MKTP.CD", "GDP (current US$)", "Gross domestic product at purchaser's prices, converted from domestic currency at official annual exchange rates.", "macro", "output", "current US dollars", true),
    wdi("NY.GDP.PCAP.CD", "GDP per capita (current US$)", "Gross domestic product divided by midyear population, in current US dollars.", "macro", "output", "current US dollars", true),
    wdi("NY.GDP.MKTP.KD.ZG", "GDP growth (annual %)", "Annual percentage growth of GDP at market prices in constant local currency.", "macro", "growth", "percent", true),
    wdi("FP.CPI.TOTL.ZG", "Inflation, consumer prices (annual %)", "Annual percentage change in the cost to the average consumer of a basket of goods and services (Laspeyres).", "prices", "consumer-prices", "percent", null),
    wdi("SL.UEM.TOTL.ZS", "Unemployment, total (% of total labor force) (modeled ILO estimate)", "Share of the labor force without work but available for and seeking employment, ILO modelled estimate.", "labor", "unemployment", "percent", false),
    wdi("SL.TLF.TOTL.IN", "Labor force, total", "People aged 15 and older who supply labor for the production of goods and services (employed and unemployed), ILO modelled estimate.", "labor", "labor-force", "persons", null),
    wdi("SP.DYN.LE00.IN", "Life expectancy at birth, total (years)", "Years a newborn would live if mortality patterns at the time of birth stayed the same.", "health", "life-expectancy", "years", true),
    wdi("SH.XPD.CHEX.GD.ZS", "Current health expenditure (% of GDP)", "Health care goods and services consumed during the year, as a share of GDP.", "health", "health-spending", "percent of GDP", null),
    wdi("SE.XPD.TOTL.GD.ZS", "Government expenditure on education, total (% of GDP)", "General government expenditure on education (current, capital and transfers), as a share of GDP.", "education", "education-spending", "percent of GDP", null),
    wdi("SE.TER.ENRR", "School enrollment, tertiary (% gross)", "Total tertiary enrollment, regardless of age, as a share of the five-year age group following secondary school.", "education", "enrollment", "percent", true),
    wdi("GC.DOD.TOTL.GD.ZS", "Central government debt, total (% of GDP)", "Gross central government debt liabilities (stock) as a share of GDP.", "government-finance", "government-debt", "percent of GDP", null),
    wdi("IC.BUS.NREG", "New businesses registered (number)", "New firms (limited liability companies) registered in the calendar year.", "business", "business-formation", "number", true),
    wdi("EG.USE.PCAP.KG.OE", "Energy use (kg of oil equivalent per capita)", "Primary energy use before transformation to other end-use fuels, per person.", "energy", "energy-use", "kilograms of oil equivalent per person", null),
  ],
};
