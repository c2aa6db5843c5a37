// The intent a question reads as, the first of the pure parts of ask's answers (the others, from the lead sentence to
// the checks on a model's draft, are test/domain/ask-answer-text.test.ts).
import { describe, expect, test } from "bun:test";
import { readIntent } from "../../src/domain/ask/intent";
import { namedPeriod, spanMonths } from "../../src/domain/ask/periods";

const intent = (
  q: string,
  places: ("state" | "county" | "country")[] = [],
  o: { growth?: boolean; change?: boolean } = {},
) => readIntent(q, { places, growthTopic: !!o.growth, changeTopic: !!o.change });

describe("intent", () => {
  test("a level, a rate of change, a change, an extreme", () => {
    expect(intent("what is the unemployment rate")).toEqual({ intent: { kind: "level", at: null }, yesNo: false });
    expect(intent("what was the unemployment rate in April 2020")).toEqual({
      intent: { kind: "level", at: "2020-04-01" },
      yesNo: false,
    });
    expect(intent("what is the inflation rate", [], { growth: true })).toEqual({
      intent: { kind: "growth", at: null, months: null },
      yesNo: false,
    });
    expect(intent("how fast are wages growing")).toEqual({
      intent: { kind: "growth", at: null, months: null },
      yesNo: false,
    });
    expect(intent("how many jobs were added last month", [], { change: true })).toEqual({
      intent: { kind: "change", at: null, months: null, since: null },
      yesNo: false,
    });
    expect(intent("how many jobs were added in November 2025", [], { change: true }).intent).toEqual({
      kind: "change",
      at: "2025-11-01",
      months: null,
      since: null,
    });
    expect(intent("how many jobs has the economy added over the past year", [], { change: true }).intent).toEqual({
      kind: "change",
      at: null,
      months: 12,
      since: null,
    });
    expect(intent("highest the unemployment rate has ever been").intent).toEqual({
      kind: "extreme",
      dir: "max",
      since: null,
      at: null,
    });
    expect(intent("what happened to inflation since 2021", [], { growth: true }).intent).toEqual({
      kind: "extreme",
      dir: "max",
      since: "2021",
    });
  });
  test("rankings across places, comparisons, yes/no", () => {
    expect(intent("Which state has the highest unemployment rate?").intent).toEqual({
      kind: "rank",
      dir: "max",
      count: 1,
      placeKind: "state",
      filter: null,
    });
    expect(intent("top 5 counties in Texas by population", ["state"]).intent).toEqual({
      kind: "rank",
      dir: "max",
      count: 5,
      placeKind: "county",
      filter: null,
    });
    expect(intent("which country has the smallest population").intent).toEqual({
      kind: "rank",
      dir: "min",
      count: 1,
      placeKind: "country",
      filter: null,
    });
    // "in the country" is the nation: the county ranking is over every county.
    expect(intent("Which county has the highest unemployment rate in the country?").intent).toEqual({
      kind: "rank",
      dir: "max",
      count: 1,
      placeKind: "county",
      filter: null,
    });
    // Either/or asks which; "is A bigger than B" asks yes or no.
    expect(intent("Is unemployment higher in Texas or California?", ["state", "state"])).toEqual({
      intent: { kind: "compare", dir: "max" },
      yesNo: false,
    });
    expect(intent("Is Germany's GDP bigger than France's?", ["country", "country"])).toEqual({
      intent: { kind: "compare", dir: "max" },
      yesNo: true,
    });
    expect(intent("Is the US in a recession?")).toEqual({ intent: { kind: "level", at: null }, yesNo: true });
    expect(intent("Did Florida's population shrink last year?")).toEqual({
      intent: { kind: "change", at: null, months: 12, since: null },
      yesNo: true,
      down: true,
    });
  });
  test("sets of places however phrased: among, where, a free kind word, thresholds, growth, best and worst", () => {
    const rank = (q: string, o: { kinds?: string[]; places?: ("state" | "county" | "country")[] } = {}) =>
      readIntent(q, { places: o.places ?? [], growthTopic: false, changeTopic: false, kinds: o.kinds });
    expect(rank("Which state has the lowest unemployment rate among the states?").intent).toEqual({
      kind: "rank",
      dir: "min",
      count: 1,
      placeKind: "state",
      filter: null,
    });
    expect(rank("where in the us is unemployment highest").intent).toMatchObject({
      kind: "rank",
      dir: "max",
      placeKind: "state",
    });
    expect(
      rank("highest unemployment county in florida", { kinds: ["county"], places: ["state"] }).intent,
    ).toMatchObject({ kind: "rank", placeKind: "county", count: 1 });
    expect(rank("which states have an unemployment rate above 5%").intent).toEqual({
      kind: "rank",
      dir: "max",
      count: 5,
      placeKind: "state",
      filter: { op: ">", value: 5, percent: true, scaled: false },
    });
    expect(rank("which countries have deflation").intent).toMatchObject({
      kind: "rank",
      placeKind: "country",
      filter: { op: "<", value: 0 },
    });
    expect(rank("top 3 economies by growth last year").intent).toMatchObject({
      kind: "rank",
      placeKind: "country",
      count: 3,
      by: "growth",
    });
    expect(rank("which state's population shrank the most").intent).toMatchObject({
      kind: "rank",
      dir: "min",
      by: "growth",
    });
    expect(rank("best paying county in texas", { kinds: ["county"], places: ["state"] })).toMatchObject({
      intent: { kind: "rank", placeKind: "county" },
      polar: "best",
    });
  });
  test("direction, peaks, episodes, thresholds, moves", () => {
    expect(intent("Is unemployment going up or down?")).toEqual({
      intent: { kind: "direction", months: null },
      yesNo: false,
    });
    expect(intent("is inflation rising?")).toEqual({ intent: { kind: "direction", months: null }, yesNo: true });
    expect(intent("is the economy losing jobs?")).toEqual({
      intent: { kind: "direction", months: null },
      yesNo: true,
      down: true,
    });
    expect(intent("unemployment trending up?")).toEqual({ intent: { kind: "direction", months: null }, yesNo: true });
    expect(intent("Has unemployment fallen since its peak?")).toEqual({
      intent: { kind: "since_peak", dir: "max", allTime: false, claim: "below" },
      yesNo: true,
      down: true,
    });
    expect(intent("is inflation lower now than at the peak?").intent).toEqual({
      kind: "since_peak",
      dir: "max",
      allTime: false,
      claim: "below",
    });
    expect(intent("how far is unemployment from its all-time high").intent).toEqual({
      kind: "since_peak",
      dir: "max",
      allTime: true,
      claim: null,
    });
    expect(
      readIntent("the peak unemployment rate during the Great Recession", {
        places: [],
        growthTopic: false,
        changeTopic: false,
        episode: true,
      }).intent,
    ).toEqual({ kind: "episode", dir: "max" });
    expect(intent("is the unemployment rate under 5 percent").intent).toEqual({ kind: "threshold", op: "<", value: 5 });
    expect(intent("what was the peak of inflation in 2022", [], { growth: true }).intent).toEqual({
      kind: "extreme",
      dir: "max",
      since: null,
      at: "2022",
    });
    expect(intent("how many more people live in harris county than in 2015", ["county"]).intent).toEqual({
      kind: "change",
      at: null,
      months: null,
      since: "2015",
    });
    const move = (q: string, before: string, places: ("state" | "county")[] = ["county"]) =>
      readIntent(q, { places, growthTopic: false, changeTopic: false, before }).intent;
    expect(move("where do people leaving San Francisco County go", "leaving")).toEqual({ kind: "flows", way: "out" });
    expect(move("where are people from cook county moving to", "from")).toEqual({ kind: "flows", way: "out" });
    expect(move("where do people moving to Texas come from", "to", ["state"])).toEqual({ kind: "flows", way: "in" });
    expect(move("where do new residents of maricopa county move from", "of")).toEqual({ kind: "flows", way: "in" });
    expect(move("how many people moved from California to Texas", "from", ["state", "state"])).toEqual({
      kind: "flows",
      way: "between",
    });
  });
  test("the span a change is asked over", () => {
    expect([
      spanMonths("in the last six months"),
      spanMonths("over the past year"),
      spanMonths("past 2 quarters"),
      spanMonths("past decade"),
      spanMonths("right now"),
    ]).toEqual([6, 12, 6, 120, null]);
    expect(intent("has unemployment gone up in the last six months")).toEqual({
      intent: { kind: "change", at: null, months: 6, since: null },
      yesNo: true,
    });
  });
  test("named periods", () => {
    expect(namedPeriod("in june 2022")).toBe("2022-06-01");
    expect(namedPeriod("in 2019")).toBe("2019");
    expect(namedPeriod("from 2019 to 2021")).toBeNull();
    expect(namedPeriod("since 2021")).toBeNull();
  });
});
