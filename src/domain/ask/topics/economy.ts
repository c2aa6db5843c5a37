// The ask lexicon's topics of the economy: output, housing, income, sales, production, money, recession.
// Data, not code: the lexicon's shape is lexicon.ts's, every family's order topics/index.ts's.
import type { Topic } from "../lexicon";

export const ECONOMY_TOPICS: readonly Topic[] = [
  { id: "real_gdp", phrases: ["real gdp", "economic growth", "gdp growth", "growth of the economy", "economy growing", "economy grow", "economy grew", "real output"], us: ["GDPC1"], byKind: { country: ["NY.GDP.MKTP.KD.ZG"] }, broad: ["growth", "grew", "grow", "grown", "growing", "economies"] },
  { id: "gdp", phrases: ["biggest economy", "largest economy", "smallest economy", "bigger economy", "larger economy", "gross domestic product", "nominal gdp", "size of the economy", "economic output", "gdp", "output"], us: ["GDP"], concept: "gdp" },
  { id: "housing_starts", phrases: ["housing starts", "new home construction", "home construction", "homebuilding", "home building", "new homes", "houses being built", "homes being built", "houses built", "homes built", "being built", "construction"], us: ["HOUST"] },
  { id: "home_values", phrases: ["median home value", "home values", "home value", "home prices", "house prices", "housing prices", "home price", "house price", "property values", "housing costs", "house cost", "home cost", "cost of a house", "cost of a home"], concept: "median_home_value" },
  { id: "income", phrases: ["median household income", "household income", "median income", "incomes", "income"], concept: "median_income" },
  { id: "retail_sales", phrases: ["retail sales", "consumer spending", "retail spending", "retail"], us: ["RSXFS"] },
  { id: "industrial_production", phrases: ["industrial production", "industrial output", "factory output", "manufacturing output", "manufacturing", "industry"], us: ["INDPRO"] },
  { id: "money_supply", phrases: ["money supply", "money stock", "m2"], us: ["M2SL"] },
  { id: "recession", phrases: ["sahm rule", "recession", "recessions", "downturn"], us: ["USREC", "svc:sahm_rule"] },
];
