// How an answer names each topic of the lexicon (lexicon.ts): its label, and how its growth, its state and its other
// series are said. Data, not code, keyed by topic id.

/**
 * How people name each topic's series in an answer ("the unemployment rate", not the catalog's "Unemployment Rate by
 * State, Annual Average"): `growth` names its 12-month change when that is what the topic means (inflation: the
 * 12-month change of a price index, answered by default); `growthName` how its growth is named in a growth answer
 * ("real GDP growth"); `state`: a yes/no state the series reads (a 0/1 recession indicator, an inverted yield curve);
 * `jobs`: a count in thousands of jobs whose change is jobs added or lost; `lagging`: it peaks after an episode ends
 * (unemployment after a recession, the policy rate after an inflation surge), so an episode is read with its margin;
 * `labels`: the names of its series that measure it another way, by code.
 * Whether a series is itself a change (population change, GDP growth as annual %) is the catalog's to say
 * (value-kinds.ts), not the topic's.
 */
export type TopicWords = {
  label: string;
  growth?: string;
  growthName?: string;
  state?: "recession" | "inversion";
  jobs?: boolean;
  lagging?: boolean;
  /** Labels of the topic's series that measure it another way (QCEW's average annual pay beside hourly earnings). */
  labels?: Readonly<Record<string, string>>;
};

export const TOPIC_WORDS: Readonly<Record<string, TopicWords>> = {
  unemployment_rate: { label: "the unemployment rate", lagging: true },
  unemployed_persons: { label: "the number of unemployed people", lagging: true },
  underemployment: { label: "the U-6 underemployment rate", lagging: true },
  payrolls: {
    label: "nonfarm payrolls",
    jobs: true,
    growthName: "job growth",
    labels: {
      ENU10010: "the number of jobs",
      LASST05: "employment",
      LAUST05A: "employment",
      LAUCN05: "employment",
      LAUCN05A: "employment",
    },
    lagging: true,
  },
  employed: { label: "employment", lagging: true },
  employment_rate: { label: "the employment rate" },
  labor_force: { label: "the labor force" },
  participation: { label: "the labor force participation rate" },
  job_openings: { label: "job openings" },
  claims: { label: "initial jobless claims" },
  wages: { label: "average hourly earnings", growthName: "wage growth", labels: { ENU50010: "average annual pay" } },
  establishments: { label: "the number of business establishments" },
  inflation: { label: "the consumer price index", growth: "inflation" },
  core_inflation: { label: "the consumer price index less food and energy", growth: "core inflation" },
  pce_inflation: { label: "the core PCE price index", growth: "core PCE inflation" },
  fed_funds: { label: "the federal funds rate", lagging: true },
  ten_year: { label: "the 10-year Treasury yield" },
  two_year: { label: "the 2-year Treasury yield" },
  yield_curve: { label: "the 10-year minus 2-year Treasury spread", state: "inversion" },
  gas_prices: { label: "the price of regular gasoline" },
  oil: { label: "the price of WTI crude oil" },
  dollar: { label: "the trade-weighted dollar index" },
  real_gdp: { label: "real GDP", growthName: "real GDP growth (adjusted for inflation)" },
  gdp: { label: "nominal GDP", growthName: "nominal GDP growth (not adjusted for inflation)" },
  housing_starts: { label: "housing starts" },
  home_values: { label: "the median home value" },
  income: { label: "median household income" },
  retail_sales: { label: "retail sales" },
  industrial_production: { label: "industrial production" },
  money_supply: { label: "the M2 money supply" },
  recession: { label: "the NBER recession indicator", state: "recession" },
  population: { label: "the population", growthName: "population growth" },
  population_change: { label: "population change" },
  births: { label: "births" },
  deaths: { label: "deaths" },
  natural_change: { label: "natural change (births minus deaths)" },
  domestic_migration: { label: "net domestic migration" },
  international_migration: { label: "net international migration" },
  net_migration: { label: "net migration" },
};
