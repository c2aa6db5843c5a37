// The ask lexicon's topics of work: unemployment, employment, payrolls, the labor force, openings, claims, pay.
// Data, not code: the lexicon's shape is lexicon.ts's, every family's order topics/index.ts's.
import type { Topic } from "../lexicon";

export const LABOR_TOPICS: readonly Topic[] = [
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
];
