// Every topic of the ask lexicon (lexicon.ts), family by family. The order is the lexicon's: of two phrases of one
// length, the earlier topic's is read first (parse.ts).
import type { Topic } from "../lexicon";
import { ECONOMY_TOPICS } from "./economy";
import { LABOR_TOPICS } from "./labor";
import { MARKET_TOPICS } from "./markets";
import { PEOPLE_TOPICS } from "./people";

export const TOPICS: readonly Topic[] = [...LABOR_TOPICS, ...MARKET_TOPICS, ...ECONOMY_TOPICS, ...PEOPLE_TOPICS];
