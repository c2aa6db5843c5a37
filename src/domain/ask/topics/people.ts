// The ask lexicon's topics of people: population, births, deaths and migration (Census components of change).
// Data, not code: the lexicon's shape is lexicon.ts's, every family's order topics/index.ts's.
import type { Topic } from "../lexicon";

const census = (code: string) => ({ state: [code], county: [code] });

export const PEOPLE_TOPICS: readonly Topic[] = [
  {
    id: "population",
    weak: ["most people", "more people", "fewest people", "fewer people", "least people"],
    phrases: [
      "how many people live",
      "population",
      "inhabitants",
      "populous",
      "people live",
      "live there",
      "population growth",
      "population grow",
    ],
    concept: "population",
    broad: ["people", "residents", "growing", "grown", "grow", "shrinking", "grew", "shrank", "shrunk"],
  },
  {
    id: "population_change",
    phrases: ["population change", "change in population"],
    byKind: census("NPOPCHG"),
    changeOf: "population",
  },
  {
    id: "births",
    phrases: ["number of births", "babies born", "births", "birth", "babies", "born"],
    byKind: census("BIRTHS"),
  },
  { id: "deaths", phrases: ["number of deaths", "deaths", "died"], byKind: census("DEATHS") },
  {
    id: "natural_change",
    phrases: ["natural increase", "natural change", "deaths than births", "births than deaths"],
    byKind: census("NATURALCHG"),
  },
  {
    id: "domestic_migration",
    phrases: [
      "domestic migration",
      "moving in from other states",
      "other parts of the country",
      "from other states",
      "to other states",
      "other states",
      "from elsewhere",
      "people moving",
      "people leaving",
      "moving out",
      "moved out",
      "moved into",
      "moving into",
      "moved in",
      "moving in",
    ],
    byKind: census("DOMESTICMIG"),
  },
  {
    id: "international_migration",
    phrases: ["international migration", "immigration", "immigrants"],
    byKind: census("INTERNATIONALMIG"),
  },
  { id: "net_migration", phrases: ["net migration", "migration", "moving"], byKind: census("NETMIG") },
];
