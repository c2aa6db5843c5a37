// The ask lexicon's topics of prices and markets: inflation, interest rates and yields, gasoline, oil, the dollar.
// Data, not code: the lexicon's shape is lexicon.ts's, every family's order topics/index.ts's.
import type { Topic } from "../lexicon";

export const MARKET_TOPICS: readonly Topic[] = [
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
];
