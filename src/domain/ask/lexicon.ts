// The ask lexicon: how people name what the catalog holds. Data, not code: each topic lists the phrases that name it
// (matched as whole words, longest first, after folding case and plurals: see parse.ts) and the series it stands
// for:
// - `us`: the series for the United States as a whole (FRED's national series, which are current and monthly where
//   a concept's country level is annual);
// - `concept`: a concept of src/domain/concepts.ts, resolved per region kind by the catalog (the held series first);
// - `byKind`: series offered per region kind that no concept curates (Census components of change).
// A topic names no series for a region kind it does not list: that place is not covered for it.
// Groups (`members`) stand for several topics at once ("labour market": unemployment, payrolls, openings, claims),
// when the question names no single topic ("jobs added to the economy" is about payrolls).
// A topic lists `byKind` before `concept`: its own series for a kind win over the concept's.
import type { RegionKind } from "../concepts";

export type Topic = {
  id: string;
  phrases: readonly string[];
  us?: readonly string[];
  concept?: string;
  byKind?: Partial<Record<RegionKind, readonly string[]>>;
  /** A default window for questions about it that name none (inflation is a 12-month question). */
  window?: string;
  /** Insight fact kinds that answer it best, told before the most salient others (inflation: the year's trend rate). */
  leadFacts?: readonly string[];
  /**
   * Things people ask for that no held series measures, for which this topic is the closest held answer
   * ("mortgage rates": the 10-year Treasury yield); the answer says what was read and why.
   */
  nearest?: { phrases: readonly string[]; why: string };
  /** Words that stand for it only when the question names no topic and the catalog finds nothing ("prices"). */
  broad?: readonly string[];
  /**
   * Phrases that name it only when the question names no other topic: "the most people" is the population, but
   * "gained the most people from migration" is migration, counted in people.
   */
  weak?: readonly string[];
  /** The topic whose level this one is the yearly change of (population change: the population's). */
  changeOf?: string;
};

export type TopicGroup = { id: string; phrases: readonly string[]; members: readonly string[] };

const census = (code: string) => ({ state: [code], county: [code] });

export const TOPICS: readonly Topic[] = [
  { id: "unemployment_rate", phrases: ["unemployment rate", "jobless rate", "unemployment", "jobless", "out of work", "rate of unemployment"], us: ["UNRATE"], concept: "unemployment_rate" },
  { id: "unemployed_persons", phrases: ["unemployed people", "unemployed persons", "number of unemployed", "people unemployed", "unemployed"], byKind: { state: ["LASST04", "LAUST04A"], county: ["LAUCN04A"] } },
  { id: "underemployment", phrases: ["u6", "u 6", "underemployment", "underemployed", "broad unemployment", "broader unemployment"], us: ["U6RATE"] },
  { id: "payrolls", phrases: ["nonfarm payrolls", "nonfarm payroll", "payrolls", "payroll", "jobs report", "job growth", "job gains", "number of jobs", "jobs created", "new jobs", "jobs", "hiring", "hired", "hires", "nonfarm employment"], us: ["PAYEMS"], byKind: { county: ["ENU10010"] }, concept: "employed" },
  { id: "employed", phrases: ["employed people", "employed persons", "number of employed", "people employed", "people working", "people work", "employment level", "employed", "employment"], us: ["PAYEMS"], concept: "employed" },
  { id: "employment_rate", phrases: ["employment rate"], concept: "employment_rate" },
  { id: "labor_force", phrases: ["labor force", "labour force", "workforce", "work force"], concept: "labor_force" },
  { id: "participation", phrases: ["labor force participation", "labour force participation", "participation rate", "participation"], us: ["CIVPART"] },
  { id: "job_openings", phrases: ["job openings", "job vacancies", "job opening", "vacancies", "openings", "jolts"], us: ["JTSJOL"] },
  { id: "claims", phrases: ["unemployment benefits", "jobless benefits", "filed for unemployment", "jobless claims", "initial claims", "unemployment claims", "unemployment insurance claims", "claims"], us: ["ICSA"] },
  { id: "wages", phrases: ["average hourly earnings", "hourly earnings", "hourly wages", "average annual pay", "average pay", "average wage", "average wages", "average salary", "wage growth", "highest paying", "best paying", "paychecks", "paycheck", "salaries", "salary", "wages", "wage", "earnings", "earn", "paying", "pay", "workers make", "people make", "employees make", "highest paid", "best paid", "lowest paid", "paid"], us: ["AHETPI"], byKind: { state: ["ENU50010"], county: ["ENU50010"] } },
  { id: "establishments", phrases: ["business establishments", "number of businesses", "establishments", "businesses", "employers"], byKind: { state: ["ENU20010"], county: ["ENU20010"] } },
  { id: "inflation", phrases: ["consumer price index", "consumer prices", "cost of living", "living costs", "price increases", "price level", "inflation rate", "inflation", "deflation", "cpi"], us: ["CPIAUCSL"], byKind: { country: ["FP.CPI.TOTL.ZG"] }, window: "1y", broad: ["prices", "price", "expensive"] },
  { id: "core_inflation", phrases: ["core inflation", "core cpi", "core prices", "inflation excluding food and energy", "core"], us: ["CPILFESL"], window: "1y" },
  { id: "pce_inflation", phrases: ["core pce", "pce inflation", "pce price index", "pce prices", "pce"], us: ["PCEPILFE"], window: "1y" },
  { id: "fed_funds", phrases: ["federal funds rate", "fed funds rate", "fed funds", "fed rate", "interest rates", "interest rate", "policy rate", "borrowing costs", "borrowing cost", "cost of borrowing", "cost to borrow", "borrowing", "borrow", "loans", "loan", "credit"], us: ["FEDFUNDS"], broad: ["fed", "rates"] },
  {
    id: "ten_year",
    phrases: ["10 year treasury yield", "10 year treasury", "10 year yield", "ten year treasury", "ten year yield", "treasury yields", "treasury yield", "bond yields", "bond yield", "10 year"],
    us: ["DGS10"],
    nearest: { phrases: ["30 year mortgage rates", "30 year mortgage rate", "mortgage rates", "mortgage rate", "mortgages", "mortgage"], why: "no mortgage-rate series is held; mortgage rates move with the 10-year Treasury yield, the closest series held" },
  },
  { id: "two_year", phrases: ["2 year treasury yield", "2 year treasury", "2 year yield", "two year treasury", "two year yield"], us: ["DGS2"] },
  { id: "yield_curve", phrases: ["inverted yield curve", "yield curve inversion", "yield curve", "yield spread", "term spread", "10y2y"], us: ["T10Y2Y"] },
  { id: "gas_prices", phrases: ["gasoline prices", "gas prices", "gas price", "price of gas", "gasoline"], us: ["GASREGW"] },
  { id: "oil", phrases: ["crude oil price", "crude oil prices", "oil prices", "oil price", "crude oil", "crude", "wti", "oil"], us: ["DCOILWTICO"] },
  { id: "dollar", phrases: ["dollar index", "value of the dollar", "us dollar", "the dollar", "dollar"], us: ["DTWEXBGS"] },
  { id: "real_gdp", phrases: ["real gdp", "economic growth", "gdp growth", "growth of the economy", "economy growing", "economy grow", "economy grew", "real output"], us: ["GDPC1"], byKind: { country: ["NY.GDP.MKTP.KD.ZG"] }, broad: ["growth", "grew", "grow", "grown", "growing", "economies"] },
  { id: "gdp", phrases: ["biggest economy", "largest economy", "smallest economy", "bigger economy", "larger economy", "gross domestic product", "nominal gdp", "size of the economy", "economic output", "gdp", "output"], us: ["GDP"], concept: "gdp" },
  { id: "housing_starts", phrases: ["housing starts", "new home construction", "home construction", "homebuilding", "home building", "new homes", "houses being built", "homes being built", "houses built", "homes built", "being built", "construction"], us: ["HOUST"] },
  { id: "home_values", phrases: ["median home value", "home values", "home value", "home prices", "house prices", "housing prices", "home price", "house price", "property values", "housing costs", "house cost", "home cost", "cost of a house", "cost of a home"], concept: "median_home_value" },
  { id: "income", phrases: ["median household income", "household income", "median income", "incomes", "income"], concept: "median_income" },
  { id: "retail_sales", phrases: ["retail sales", "consumer spending", "retail spending", "retail"], us: ["RSXFS"] },
  { id: "industrial_production", phrases: ["industrial production", "industrial output", "factory output", "manufacturing output", "manufacturing", "industry"], us: ["INDPRO"] },
  { id: "money_supply", phrases: ["money supply", "money stock", "m2"], us: ["M2SL"] },
  { id: "recession", phrases: ["sahm rule", "recession", "recessions", "downturn"], us: ["USREC", "svc:sahm_rule"] },
  { id: "population", weak: ["most people", "more people", "fewest people", "fewer people", "least people"], phrases: ["how many people live", "population", "inhabitants", "populous", "people live", "live there", "population growth", "population grow"], concept: "population", broad: ["people", "residents", "growing", "grown", "grow", "shrinking", "grew", "shrank", "shrunk"] },
  { id: "population_change", phrases: ["population change", "change in population"], byKind: census("NPOPCHG"), changeOf: "population" },
  { id: "births", phrases: ["number of births", "babies born", "births", "birth", "babies", "born"], byKind: census("BIRTHS") },
  { id: "deaths", phrases: ["number of deaths", "deaths", "died"], byKind: census("DEATHS") },
  { id: "natural_change", phrases: ["natural increase", "natural change", "deaths than births", "births than deaths"], byKind: census("NATURALCHG") },
  { id: "domestic_migration", phrases: ["domestic migration", "moving in from other states", "other parts of the country", "from other states", "to other states", "other states", "from elsewhere", "people moving", "people leaving", "moving out", "moved out", "moved into", "moving into", "moved in", "moving in"], byKind: census("DOMESTICMIG") },
  { id: "international_migration", phrases: ["international migration", "immigration", "immigrants"], byKind: census("INTERNATIONALMIG") },
  { id: "net_migration", phrases: ["net migration", "migration", "moving"], byKind: census("NETMIG") },
];

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
  payrolls: { label: "nonfarm payrolls", jobs: true, growthName: "job growth", labels: { ENU10010: "the number of jobs", LASST05: "employment", LAUST05A: "employment", LAUCN05: "employment", LAUCN05A: "employment" }, lagging: true },
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

export const TOPIC_GROUPS: readonly TopicGroup[] = [
  { id: "labor_market", phrases: ["labor market", "labour market", "job market", "jobs market", "employment situation"], members: ["unemployment_rate", "payrolls", "job_openings", "claims", "wages"] },
  { id: "economy", phrases: ["the economy", "economy", "economic conditions", "economic outlook", "economic health"], members: ["real_gdp", "unemployment_rate", "inflation", "population", "income"] },
  { id: "housing_market", phrases: ["housing market", "housing", "real estate"], members: ["housing_starts", "home_values"] },
  { id: "demographics", phrases: ["demographics", "demographic"], members: ["population", "population_change", "net_migration"] },
];

/** Two-letter words of English: in lower case they are words, not state codes ("in", "me", "or", "hi"). */
export const TWO_LETTER_WORDS: ReadonlySet<string> = new Set(
  "in me or ok hi oh pa de la ma al co id mo ne ga va wa us as an at be by do go he if is it my no of on so to up we am ad ah ax eh ex ha ho lo mi mu nu oi ow ox pi re ta ti xi ya ye yo".split(" "),
);

/** Words that name the United States as a whole. */
export const NATIONAL_PHRASES: readonly string[] = [
  "united states of america", "united states", "the us", "the usa", "usa", "america", "the nation", "nationally", "nationwide", "national", "the country", "u s a", "u s",
];

/** Words that ask for an order, an extreme or a pace: the intent's (intent.ts), never what the catalog is searched for. */
export const ORDER_WORDS: ReadonlySet<string> = new Set(
  "most least highest lowest top bottom biggest smallest largest fewest fastest slowest best worst record records fast faster quickly quick rapidly slowly".split(" "),
);

/**
 * Words that carry no subject: dropped before the catalog is searched for what no topic named ("what is the birth
 * rate of dogs" leaves "birth rate dogs").
 */
export const FILLER_WORDS: ReadonlySet<string> = new Set(
  ("a an the of in on for at to by from with about and or vs versus compared compare than is are was were be been being has have had do does did " +
    "what whats what's which who how hows how's why when where whether much many current currently latest recent recently now today right " +
    "this that these those there their its it me my our we you your i tell show give get find know look lookup please can could would should " +
    "will going trend trends trending data level levels number numbers value values rate rates figure figures stats statistics statistic " +
    "change changed changing doing up down rising falling rise fall increase increased decrease decreased higher lower high low over past last " +
    "since year years month months week weeks day days decade decades time ever history historical all so far lately like did does any " +
    "state states county counties country countries city place region area us usa america american national nationally overall total " +
    "official estimate estimates measure measured per capita percent percentage annual annually monthly quarterly yearly price prices cost costs").split(" "),
);
