// Round 2 of ask's readings (issue 40), each a general rule with its edges: a year written alone, a record, "how
// high is" against "how high did", recovering from a peak, worse and better, places that shrank, a rise since a year
// or an episode, moves asked of a place's people, demonyms, a kind said after a name, stems, swapped letters,
// shorthand, an economy's size and growth, a yearly change over a longer span, an index's change in percent.
import { describe, expect, test } from "bun:test";
import { regionList } from "../../db/seed/regions";
import { readIntent } from "../../src/domain/ask/intent";
import { bareYear, namedPeriod } from "../../src/domain/ask/periods";
import { demonymName } from "../../src/domain/ask/demonyms";
import { parseQuestion, placeLookup, fuzzyPlaceLookup, fuzzyPlaceNames } from "../../src/domain/ask/parse";
import { economySize, levelOfChange, rateMoves, realOrNominal } from "../../src/domain/ask/topic-reading";
import { TOPICS } from "../../src/domain/ask/topics";
import { oneTypoApart, searchStem, sharedStem } from "../../src/domain/ask/words";
import { vocabularyMatches } from "../../src/domain/ask/vocabulary";
import { leadSentence, type View } from "../../src/domain/ask/lead";
import { sinceEpisodeYear } from "../../src/domain/episodes";
import { inferValueSpec } from "../../src/domain/value-kinds";
import { buildRegionIndex } from "../../src/domain/regions";

type Kind = "state" | "county" | "country";
const intent = (q: string, o: { places?: Kind[]; growth?: boolean; episode?: boolean; before?: string } = {}) =>
  readIntent(q, {
    places: o.places ?? [],
    growthTopic: !!o.growth,
    changeTopic: false,
    episode: o.episode,
    before: o.before,
  });

describe("intent, round 2", () => {
  test("a year written alone is the period asked, unless it starts, ends or names something", () => {
    expect([
      bareYear("argentina inflation 2023"),
      namedPeriod("india's growth rate 2019"),
      namedPeriod("in 2019"),
    ]).toEqual(["2023", "2019", "2019"]);
    for (const q of [
      "since 2019",
      "from 2010 to 2020",
      "the 2021-22 surge",
      "the 2008 financial crisis",
      "the 2020 recession",
      "the 1980s",
      "than in 2015",
      "between 2019 and 2021",
    ])
      expect(bareYear(q)).toBeNull();
    expect(intent("population of dallas county 2022", { places: ["county"] }).intent).toEqual({
      kind: "level",
      at: "2022",
    });
  });
  test("a record alone is a high; a record low is a low; 'how high is' asks the level", () => {
    expect(intent("turkey's record inflation rate", { places: ["country"] }).intent).toEqual({
      kind: "extreme",
      dir: "max",
      since: null,
      at: null,
    });
    expect(intent("what is the lowest unemployment rate on record").intent).toEqual({
      kind: "extreme",
      dir: "min",
      since: null,
      at: null,
    });
    expect(intent("how high is unemployment in spain", { places: ["country"] }).intent).toEqual({
      kind: "level",
      at: null,
    });
    expect(intent("how high did unemployment get").intent).toEqual({
      kind: "extreme",
      dir: "max",
      since: null,
      at: null,
    });
    expect(intent("how low are mortgage rates").intent).toEqual({ kind: "level", at: null });
    // "populous" alone names no extreme: "how populous is Georgia" asks its population; "most populous" ranks.
    expect(intent("how populous is georgia", { places: ["state"] }).intent).toEqual({ kind: "level", at: null });
    expect(intent("which state is the most populous").intent).toMatchObject({
      kind: "rank",
      dir: "max",
      placeKind: "state",
    });
  });
  test("quarterly growth is over the newest quarter", () => {
    expect(intent("quarterly gdp growth").intent).toEqual({ kind: "growth", at: null, months: 3 });
    expect(intent("gdp growth").intent).toEqual({ kind: "growth", at: null, months: null });
  });
  test("recovered from a peak is below it; from a low, above it", () => {
    expect(intent("has texas's jobless rate recovered from its peak", { places: ["state"] }).intent).toEqual({
      kind: "since_peak",
      dir: "max",
      allTime: false,
      claim: "below",
    });
    expect(intent("have payrolls recovered from their low").intent).toEqual({
      kind: "since_peak",
      dir: "min",
      allTime: false,
      claim: "above",
    });
    expect(intent("is unemployment back above its peak").intent).toEqual({
      kind: "since_peak",
      dir: "max",
      allTime: false,
      claim: "above",
    });
  });
  test("worse and better are the series' polarity, for the planner; no fall is assumed", () => {
    const r = intent("is brazil's inflation getting worse", { places: ["country"] });
    expect(r).toEqual({ intent: { kind: "direction", months: null }, yesNo: true, moved: "worse" });
    expect(intent("is the job market getting better").moved).toBe("better");
    expect(intent("is unemployment getting better or worse").moved).toBeUndefined();
  });
  test("which places shrank or grew: a filter at zero on their change", () => {
    expect(intent("which countries' economies shrank").intent).toEqual({
      kind: "rank",
      dir: "min",
      count: 10,
      placeKind: "country",
      filter: { op: "<", value: 0, percent: false, scaled: false },
      by: "growth",
    });
    expect(intent("which states grew").intent).toMatchObject({
      kind: "rank",
      dir: "max",
      placeKind: "state",
      filter: { op: ">", value: 0 },
    });
    // A superlative keeps the ranking: "grew the fastest" is the top one.
    expect(intent("which state grew the fastest").intent).toMatchObject({
      kind: "rank",
      dir: "max",
      count: 1,
      filter: null,
    });
  });
  test("how much a level rose since a year or an episode: the change since", () => {
    expect(intent("how much have prices gone up since 2020", { growth: true }).intent).toEqual({
      kind: "change",
      at: null,
      months: null,
      since: "2020",
    });
    expect(intent("how much has the population of utah grown since 2020", { places: ["state"] }).intent).toEqual({
      kind: "change",
      at: null,
      months: null,
      since: "2020",
    });
    expect(
      intent("how much has the cost of living risen since the pandemic", { growth: true, episode: true }).intent,
    ).toEqual({ kind: "change", at: null, months: null, since: "2020" });
    expect(intent("unemployment rate since 2019 in michigan", { places: ["state"] }).intent).toEqual({
      kind: "change",
      at: null,
      months: null,
      since: "2019",
    });
    // Without "how much" a growth topic since a year is still its peak rate since then.
    expect(intent("what happened to inflation since 2021", { growth: true }).intent).toEqual({
      kind: "extreme",
      dir: "max",
      since: "2021",
    });
  });
  test("moves asked of a place's people, and a place sending people", () => {
    expect(intent("where are new yorkers moving", { places: ["state"], before: "where" }).intent).toEqual({
      kind: "flows",
      way: "out",
    });
    expect(intent("where do floridians move to", { places: ["state"], before: "do" }).intent).toEqual({
      kind: "flows",
      way: "out",
    });
    expect(intent("which state sends the most people to arizona", { places: ["state"], before: "to" }).intent).toEqual({
      kind: "flows",
      way: "in",
    });
    expect(intent("where is unemployment moving in texas", { places: ["state"], before: "in" }).intent.kind).not.toBe(
      "flows",
    );
  });
  test("has X started cutting, has X been falling: a direction, yes or no first", () => {
    expect(intent("has the fed started cutting rates")).toEqual({
      intent: { kind: "direction", months: null },
      yesNo: true,
      down: true,
    });
    expect(intent("has the population of illinois been falling", { places: ["state"] })).toEqual({
      intent: { kind: "direction", months: null },
      yesNo: true,
      down: true,
    });
  });
  test("are people leaving X: a yes or no on its net move, a fall asked", () => {
    expect(intent("are people leaving new york", { places: ["state"] })).toEqual({
      intent: { kind: "change", at: null, months: null, since: null },
      yesNo: true,
      down: true,
    });
  });
  test("a ranking at a named year", () => {
    expect(intent("which country grew the fastest in 2024").intent).toMatchObject({
      kind: "rank",
      dir: "max",
      placeKind: "country",
      at: "2024",
    });
    expect(intent("which country grew the fastest").intent).not.toHaveProperty("at");
  });
  test("a comparison at a named year; a move with its origin named second", () => {
    expect(
      intent("was inflation higher in argentina or turkey in 2023", { places: ["country", "country"] }).intent,
    ).toEqual({ kind: "compare", dir: "max", at: "2023" });
    expect(intent("how many people moved to florida from new york", { places: ["state", "state"] }).intent).toEqual({
      kind: "flows",
      way: "between",
      reversed: true,
    });
    expect(intent("how many people moved from california to texas", { places: ["state", "state"] }).intent).toEqual({
      kind: "flows",
      way: "between",
    });
  });
});

describe("places and words, round 2", () => {
  const index = buildRegionIndex(regionList());
  const read = (q: string) =>
    parseQuestion(q, {
      todayYear: 2026,
      lookupPlace: placeLookup(index),
      fuzzyPlace: fuzzyPlaceLookup(index),
      demonym: (t) => demonymName(fuzzyPlaceNames(index), t),
    });
  test("a demonym is its place's name: endings off, one name it begins (closest first)", () => {
    const d = (t: string) => demonymName(fuzzyPlaceNames(index), t);
    expect([
      d("canadian"),
      d("new yorkers"),
      d("texans"),
      d("mexican"),
      d("indian"),
      d("pakistani"),
      d("germans"),
      d("floridians"),
    ]).toEqual(["canada", "new york", "texas", "mexico", "india", "pakistan", "germany", "florida"]);
    // The first word of exactly one name: "russian" is the Russian Federation.
    expect(d("russian")).toBe("russian federation");
    // "er" and "i" leave the whole name only; no name begins "med".
    expect([d("never"), d("median"), d("workers"), d("asian")]).toEqual([null, null, null, null]);
  });
  test("a demonym reads before a county of the same name; a kind said after a name settles it", () => {
    expect(read("how fast is the canadian economy growing").places).toEqual(["CA"]);
    expect(read("where are new yorkers moving").places).toEqual(["36"]);
    expect(read("Canadian County population").places).toEqual(["40017"]);
    // One lower-case word is a county without "County" only where no word it could describe follows.
    expect(read("jobs in maricopa").places).toEqual(["04013"]);
    expect(read("unemployment rate for young people").places).toEqual([]);
    expect(read("unemployment in cook il").places).toEqual(["17031"]);
    const georgia = read("how high is inflation in georgia (the country, not the state)");
    expect([georgia.places, georgia.kinds, georgia.alternates]).toEqual([["GE"], [], {}]);
    expect(read("unemployment rate in georgia the state").places).toEqual(["13"]);
    expect(read("new york state jobless rate").places).toEqual(["36"]);
  });
  test("swapped letters, stems and shorthand read as lexicon words; intents read the spelling fixed", () => {
    expect([
      oneTypoApart("grwoth", "growth"),
      oneTypoApart("wages", "waves"),
      oneTypoApart("unemploymnet", "unemployment"),
    ]).toEqual([true, false, true]);
    expect([
      sharedStem("populated", "population"),
      sharedStem("employed", "employment"),
      sharedStem("prices", "priced"),
    ]).toEqual([7, 0, 0]);
    expect([searchStem("populated"), searchStem("wages")]).toEqual(["popula", "wages"]);
    const typo = read("gdp grwoth last quarter");
    expect([typo.spelled, typo.topics.map((t) => t.id)]).toEqual(["gdp growth last quarter", ["real_gdp"]]);
    expect(read("least populated state").topics.map((t) => t.id)).toEqual(["population"]);
    expect(read("how many ppl live in vietnam").topics.map((t) => t.id)).toEqual(["population"]);
    expect(read("how fast is gdp growing in nominal terms").unplaced).toEqual([]);
    // "its covid peak": the episode's word is no place; a word after "leave" is where a place was named.
    expect(read("has unemployment in michigan fallen from its covid peak").unplaced).toEqual([]);
    expect(read("where do people who leave chicago go").unplaced).toEqual(["chicago"]);
  });
  test("the people of a count name population only when nothing else is named", () => {
    expect(read("which county gained the most people from migration").topics.map((t) => t.id)).toEqual([
      "net_migration",
    ]);
    expect(read("which state has the most people").topics.map((t) => t.id)).toEqual(["population"]);
  });
  test("an episode's name keeps its topic word, every phrase of it taken", () => {
    const q = read("top inflation reading of the post-covid inflation spike");
    expect([q.episode !== null, q.topics.map((t) => t.id), q.unplaced]).toEqual([true, ["inflation"], []]);
    expect(read("how high did inflation go post-pandemic").episode).toBe("post pandemic");
  });
  test("the catalog's words match a stem: 'populated' finds a population series", () => {
    const entries = [
      { code: "POP", name: "Population", unit: "persons", description: null, held: true, regionKinds: ["state"] },
      { code: "X", name: "Poultry prices", unit: "dollars", description: null, held: true, regionKinds: ["state"] },
    ];
    expect(vocabularyMatches(["populated"], entries, "state").map((e) => e.code)).toEqual(["POP"]);
  });
  test("since an episode: the year it began", () => {
    expect([
      sinceEpisodeYear("risen since the pandemic"),
      sinceEpisodeYear("since the great recession"),
      sinceEpisodeYear("since covid"),
      sinceEpisodeYear("since 2020"),
    ]).toEqual([2020, 2007, 2020, null]);
  });
});

describe("topics and leads, round 2", () => {
  const ids = (ts: readonly { id: string }[]) => ts.map((t) => t.id);
  const economy = ["real_gdp", "unemployment_rate", "inflation", "population", "income"].map(
    (id) => TOPICS.find((t) => t.id === id)!,
  );
  test("an economy's size is nominal GDP; its growing or shrinking is real GDP's", () => {
    expect(ids(economySize(economy, "how big is mexico's economy"))).toEqual(["gdp"]);
    expect(ids(economySize(economy, "did the economy shrink last quarter"))).toEqual(["real_gdp"]);
    expect(ids(economySize(economy, "how is the economy doing"))).toEqual(ids(economy));
    expect(ids(economySize(economy, "which is bigger, the economy of japan or germany"))).toEqual(["gdp"]);
    expect(
      ids(
        realOrNominal(
          [TOPICS.find((t) => t.id === "gdp")!],
          { intent: { kind: "growth", at: null }, yesNo: false },
          "gdp growth",
          false,
        ),
      ),
    ).toEqual(["real_gdp"]);
  });
  test("did inflation fall: a rate named by its own word moves as a rate; did prices fall keeps the sign", () => {
    const inflation = [TOPICS.find((t) => t.id === "inflation")!];
    const growth = { intent: { kind: "growth" as const, at: null, months: null }, yesNo: true, down: true };
    expect(rateMoves(inflation, growth, "did turkey's inflation fall last year").intent).toEqual({
      kind: "direction",
      months: 12,
    });
    expect(rateMoves(inflation, growth, "did prices fall last year")).toBe(growth);
    // No move asked ("is inflation high"), or not yes/no: unchanged.
    expect(rateMoves(inflation, growth, "is inflation high")).toBe(growth);
    expect(rateMoves(inflation, { ...growth, yesNo: false }, "how fast did inflation rise")).toEqual({
      ...growth,
      yesNo: false,
    });
  });
  test("a yearly change over a longer span is its level's change", () => {
    const change = [TOPICS.find((t) => t.id === "population_change")!];
    expect(
      ids(levelOfChange(change, { intent: { kind: "change", at: null, months: null, since: "2010" }, yesNo: false })),
    ).toEqual(["population"]);
    expect(
      ids(levelOfChange(change, { intent: { kind: "change", at: null, months: 12, since: null }, yesNo: false })),
    ).toEqual(["population_change"]);
    expect(ids(levelOfChange(change, { intent: { kind: "level", at: null }, yesNo: false }))).toEqual([
      "population_change",
    ]);
  });
  const view = (unit: string, points: { date: string; value: number }[]): View => ({
    label: unit.startsWith("index") ? "the consumer price index" : "the population",
    growthLabel: null,
    place: "the United States",
    frequency: "annual",
    unit,
    points,
    state: null,
    jobs: false,
    values: inferValueSpec(unit),
  });
  test("an index's change is a percent change, its points beside; a level's in its unit with its percent; a rate's in points only", () => {
    const since = { kind: "change" as const, at: null, months: null, since: "2020" };
    const cpi = view("index 1982-1984=100", [
      { date: "2020-01-01", value: 200 },
      { date: "2021-01-01", value: 220 },
      { date: "2022-01-01", value: 250 },
    ]);
    expect(leadSentence(cpi, since, false).text).toBe(
      "The consumer price index in the United States rose 25.0% (50 index points) from 2020 to 2022, to 250 (index 1982-1984=100).",
    );
    const pop = view("persons", [
      { date: "2020-01-01", value: 1000 },
      { date: "2021-01-01", value: 1040 },
      { date: "2022-01-01", value: 1100 },
    ]);
    expect(leadSentence(pop, since, false).text).toBe(
      "The population in the United States rose by 100 persons (10.0%) from 2020 to 2022, to 1,100 persons.",
    );
    const rate = view("percent", [
      { date: "2020-01-01", value: 8 },
      { date: "2022-01-01", value: 4 },
    ]);
    expect(leadSentence(rate, since, false).text).not.toContain("%)");
  });
});
