// The ask label language itself (answer-rules.ts, answer-set-rules.ts, answer-text.ts) on a tiny hand-made dataset:
// each rule kind with values worked out by hand, an answer that carries them passing and one just off failing, so a
// scorer bug cannot pass an evaluation silently. No database: an in-memory AskData.
import { describe, expect, test } from "bun:test";
import { episodeWindows, type AskData, type FlowRow, type Obs, type Place } from "./answer-data";
import { check, parseLabels, scoreReply } from "./answer-rules";
import { commonPeriod } from "./answer-set-rules";
import { firstSentence, leadingDirection, mentions, namesIn, yesNo } from "./answer-text";

const months = (from: string, values: number[]): Obs[] =>
  values.map((value, i) => {
    const d = new Date(`${from}T00:00:00Z`);
    d.setUTCMonth(d.getUTCMonth() + i);
    return { date: d.toISOString().slice(0, 10), value };
  });
const years = (from: number, values: number[]): Obs[] =>
  values.map((value, i) => ({ date: `${from + i}-01-01`, value }));
/** 1 on the months from `from` through `to`, 0 on the others of [start, end]. */
const recessions = (start: string, end: string, runs: [string, string][]): Obs[] => {
  const out: Obs[] = [];
  for (
    let d = new Date(`${start}T00:00:00Z`);
    d.toISOString().slice(0, 10) <= end;
    d.setUTCMonth(d.getUTCMonth() + 1)
  ) {
    const date = d.toISOString().slice(0, 10);
    out.push({ date, value: runs.some(([a, b]) => date >= a && date <= b) ? 1 : 0 });
  }
  return out;
};

const PLACES: Place[] = [
  { code: "US", name: "United States", kind: "country", parent: null },
  { code: "01", name: "Alabama", kind: "state", parent: null },
  { code: "02", name: "Alaska", kind: "state", parent: null },
  { code: "04", name: "Arizona", kind: "state", parent: null },
  { code: "05", name: "Arkansas", kind: "state", parent: null },
  { code: "20", name: "Kansas", kind: "state", parent: null },
  { code: "01001", name: "Autauga County", kind: "county", parent: "01" },
  { code: "01003", name: "Orange County", kind: "county", parent: "01" },
  { code: "02001", name: "Orange County", kind: "county", parent: "02" },
  { code: "04001", name: "Orange County", kind: "county", parent: "04" },
  { code: "04013", name: "Maricopa County", kind: "county", parent: "04" },
];
const SERIES: Record<string, Obs[]> = {
  // A level: 100 in January 2024, one more each month, 112 in January 2025.
  "X@US": months("2024-01-01", [100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112]),
  "Q@US": [
    { date: "2024-01-01", value: 100 },
    { date: "2024-04-01", value: 101 },
  ],
  // A rate: 5.0 now, 4.8 a month before, 5.2 three months before, 5.0 a year before.
  "R@US": months("2024-01-01", [5.0, 5, 5, 5, 5, 5, 5, 5, 5, 5.2, 5.0, 4.8, 5.0]),
  "USREC@US": [
    ...recessions("1979-06-01", "1983-06-01", [
      ["1980-02-01", "1980-07-01"],
      ["1981-08-01", "1982-11-01"],
    ]),
    ...recessions("2007-01-01", "2011-12-01", [["2008-01-01", "2009-06-01"]]),
  ],
  // Unemployment around the Great Recession: 10.0 in October 2009 (4 months after it ended), 10.5 in March 2011
  // (21 months after: inside the widest margin only), 8.5 at the end.
  "U@US": [
    ...months("2007-01-01", Array(33).fill(5)),
    { date: "2009-10-01", value: 10 },
    ...months("2009-11-01", Array(16).fill(9)),
    { date: "2011-03-01", value: 10.5 },
    ...months("2011-04-01", [9, 9, 9, 9, 9, 9, 9, 9, 8.5]),
  ],
  "LASST03@01": months("2024-11-01", [3.2, 3.1, 3.0]),
  "LASST03@02": months("2024-11-01", [5.0, 5.0, 5.0]),
  "LASST03@04": months("2024-11-01", [4.0, 4.5, 5.0]),
  "LASST03@05": months("2024-11-01", [2.0, 2.0, 2.0]),
  "LASST03@20": months("2024-11-01", [9.0, 9.0]),
  "LAUST03A@01": years(2022, [2.5, 2.6]),
  "POPESTIMATE@01001": years(2023, [290, 300]),
  "POPESTIMATE@01003": years(2023, [520, 500]),
  "POPESTIMATE@02001": years(2023, [880, 900]),
  "POPESTIMATE@04001": years(2023, [100, 100]),
  "POPESTIMATE@04013": years(2023, [4000, 4100]),
};
const UNITS: Record<string, string> = {
  R: "percent",
  U: "percent",
  LASST03: "percent",
  X: "index",
  Q: "billions of dollars",
  POPESTIMATE: "persons",
};
const FLOWS: FlowRow[] = [
  {
    origin: "02001",
    destination: "01001",
    measure: "returns",
    dataset: "irs",
    periodStart: "2014-01-01",
    periodEnd: "2015-12-31",
    value: 50,
  },
  {
    origin: "02001",
    destination: "01001",
    measure: "exemptions",
    dataset: "irs",
    periodStart: "2014-01-01",
    periodEnd: "2015-12-31",
    value: 90,
  },
  {
    origin: "02001",
    destination: "04013",
    measure: "returns",
    dataset: "irs",
    periodStart: "2014-01-01",
    periodEnd: "2015-12-31",
    value: 60,
  },
  {
    origin: "02001",
    destination: "04013",
    measure: "exemptions",
    dataset: "irs",
    periodStart: "2014-01-01",
    periodEnd: "2015-12-31",
    value: 80,
  },
  {
    origin: "02001",
    destination: "04001",
    measure: "returns",
    dataset: "irs",
    periodStart: "2013-01-01",
    periodEnd: "2014-12-31",
    value: 500,
  },
];

const data: AskData = {
  series: async (code, region) => SERIES[`${code}@${region}`] ?? [],
  panel: async (code, kind, parent) =>
    new Map(
      PLACES.filter((p) => p.kind === kind && (!parent || p.parent === parent) && SERIES[`${code}@${p.code}`]).map(
        (p) => [p.code, SERIES[`${code}@${p.code}`]],
      ),
    ),
  place: async (code) => PLACES.find((p) => p.code === code) ?? null,
  places: async (kind, parent) =>
    PLACES.filter((p) => p.kind === kind && (parent === undefined || p.parent === parent)),
  unit: async (code) => UNITS[code] ?? null,
  flows: async (region, direction) => FLOWS.filter((f) => (direction === "out" ? f.origin : f.destination) === region),
};
const passes = async (rule: string, answer: string) => expect(await check(rule, answer, data)).toBeNull();
/** A miss for what the answer says, never for data the rule could not find. */
const fails = async (rule: string, answer: string) => {
  const why = await check(rule, answer, data);
  expect(why).toBeString();
  expect(why!).not.toStartWith("no data");
};

describe("reading an answer", () => {
  test("a number rounded as a writer would, in multiples, its sign from the words", () => {
    expect(mentions("1.44 million jobs", 1_437_338)).toBe(true);
    expect(mentions("1.4 million jobs", 1_437_338)).toBe(false); // 37,338 off: more than 0.6%
    expect(mentions("2.8%", 2.7523)).toBe(true);
    expect(mentions("2.7%", 2.7523)).toBe(false); // 0.0523 off: past the 0.051 a rounding can be
    expect(mentions("fell 0.3 points", -0.3)).toBe(true);
    expect(mentions("565,000 jobs", 565)).toBe(true); // thousands of persons
  });
  test("the first sentence, places as whole names, yes/no and the direction before the first number", () => {
    expect(firstSentence("The U.S. rate was 4.3%. Next sentence.")).toBe("The U.S. rate was 4.3%.");
    expect(
      [...namesIn("Arkansas and West Virginia", ["Kansas", "Arkansas", "Virginia", "West Virginia"])].sort(),
    ).toEqual(["Arkansas", "West Virginia"]);
    expect(yesNo("No: it fell.")).toBe("no");
    expect(yesNo("Not quite")).toBeNull();
    expect(leadingDirection("Down: the rate fell 0.2 points to 4.1%.")).toBe("down");
    expect(leadingDirection("The rate rose 0.2 points to 4.1%.")).toBe("up");
    expect(leadingDirection("The rate was 4.1%, up 0.2 points.")).toBeNull();
    expect(leadingDirection("Unchanged: 4.1% in May.")).toBe("flat");
  });
});

describe("rules on one series", () => {
  test("latest, yoy, diff, diffn, pctn, since, at, yoyat, diffat, max, min, qoqa: the number and the year in the first sentence", async () => {
    await passes("latest:X@US", "X was 112 in January 2025. More.");
    await fails("latest:X@US", "X was 112. It was January 2025.");
    await fails("latest:X@US", "X was 111 in January 2025.");
    await passes("yoy:X@US", "X rose 12.0% in the year to January 2025."); // 112 / 100 - 1
    await passes("diff:X@US", "X rose 1 in January 2025.");
    await passes("diffn:X@US:12", "X rose 12 over the year to January 2025.");
    await passes("pctn:X@US:3", "X rose 2.75% in the three months to January 2025."); // 112 / 109 - 1 = 2.7523%
    await fails("pctn:X@US:3", "X rose 2.7% in the three months to January 2025.");
    await passes("since:X@US:2024-06", "X rose 7 from June 2024 to January 2025.");
    await passes("since:X@US:2024-06", "X rose 6.7% from June 2024 to January 2025."); // 112 / 105 - 1
    await passes("at:X@US:2024-06", "X was 105 in June 2024.");
    await passes("yoyat:X@US:2025-01", "X was up 12% in January 2025.");
    await passes("diffat:X@US:2024-06", "X rose 1 in June 2024.");
    await passes("max:X@US", "X peaked at 112 in January 2025.");
    await passes("min:X@US", "X was lowest at 100 in January 2024.");
    await fails("min:X@US", "X was lowest at 100 in January 2025.");
    await passes("qoqa:Q@US", "Q grew at a 4.1% annual rate in the second quarter of 2024."); // 1.01^4 - 1 = 4.0604%
    await fails("at:X@US:2024-06", "X was 105 then.");
    await passes("latest:yoy(X)@US", "X was up 12% in 2025.");
  });

  test("yesno on the newest value, its change and another place", async () => {
    await passes("yesno:R@US:>4", "Yes: R was 5.0% in January 2025.");
    await fails("yesno:R@US:>4", "No: R was 5.0% in January 2025.");
    await passes("yesno:R@US:<4.5", "No: 5.0%.");
    await passes("yesno:R@US:d>0", "Yes, up from 4.8%.");
    await passes("yesno:R@US:d<0", "No.");
    await passes("yesno:R@US:=1", "No.");
    await passes("yesno:R@US:<0", "No.");
    await passes("yesno:LASST03@02:>@01", "Yes: 5.0% against 3.0%.");
    await passes("yesno:LASST03@01:>@02", "No: 3.0% against 5.0%.");
    // Against its own value at a period: 112 in January 2025 against 105 in June 2024.
    await passes("yesno:X@US:>at:2024-06", "Yes: X is 7 above its June 2024 level.");
    await fails("yesno:X@US:>at:2024-06", "No: X is still below June 2024.");
    await passes("yesno:X@US:<at:2024-06", "No: 112 against 105.");
    expect(await check("yesno:X@US:>at:2023-06", "Yes.", data)).toStartWith("no data");
  });

  test("dir: the direction first (or the asked yes/no) and the size of the change over the period", async () => {
    await passes("dir:R@US:1m", "Up: R rose 0.2 points in January 2025, to 5.0%.");
    await fails("dir:R@US:3m", "Up: R rose 0.2 points in January 2025, to 5.0%.");
    await passes("dir:R@US:3m", "Down: R fell 0.2 points over three months, to 5.0%.");
    await passes("dir:R@US:12m", "Unchanged: R was 5.0% in January 2025, the same as a year before.");
    await fails("dir:R@US:1m", "R was 5.0% in January 2025, up 0.2 points.");
    await passes("dir:R@US:1m:up", "Yes: R rose 0.2 points in January 2025.");
    await fails("dir:R@US:1m:up", "Up: R rose 0.2 points in January 2025.");
    await passes("dir:R@US:3m:up", "No: R fell 0.2 points over three months.");
    await passes("dir:X@US:3m", "Up: X rose 2.8% over three months."); // a level: in percent
    await passes("dir:X@US:3m", "Up: X rose 3 over three months."); // or in its unit
    await fails("dir:R@US:1m", "Up: R rose 4.2% in January 2025."); // a rate: points only
  });

  test("episodes: recessions from USREC with their margins, the peak, below it, the distance from it", async () => {
    expect(await episodeWindows(data, "great_recession")).toEqual([
      ["2008-01-01", "2009-12-01"],
      ["2008-01-01", "2010-06-01"],
      ["2008-01-01", "2010-12-01"],
      ["2008-01-01", "2011-06-01"],
    ]);
    expect((await episodeWindows(data, "early1980s"))[0]).toEqual(["1980-02-01", "1983-05-01"]);
    expect(await episodeWindows(data, "surge2021")).toEqual([["2021-01-01", "2022-12-31"]]);
    await passes("epmax:U@US:great_recession", "Unemployment peaked at 10.0% in October 2009.");
    await passes("epmax:U@US:great_recession", "Unemployment peaked at 10.5% in March 2011."); // the 24-month margin
    await fails("epmax:U@US:great_recession", "Unemployment peaked at 9.0% in 2009.");
    await passes("epmin:U@US:great_recession", "Unemployment was lowest at 5.0% in 2008.");
    await passes("belowpeak:U@US:great_recession", "Yes: 8.5% against a peak of 10.0%.");
    await passes("frompeak:U@US:great_recession", "Unemployment is 1.5 points below its peak of October 2009."); // 8.5 - 10.0
    await passes("frompeak:U@US:great_recession", "Unemployment is 2.0 points below its March 2011 peak."); // 8.5 - 10.5
    await fails("frompeak:U@US:great_recession", "Unemployment is 1.5 points below its peak."); // no year of the peak
    await passes("frompeak:U@US:all", "2.0 points below the record of March 2011.");
  });
});

describe("rules over places", () => {
  test("the set is read at the newest period half its places hold", () => {
    expect(
      commonPeriod(
        new Map([
          ["a", months("2024-11-01", [1, 2, 3])],
          ["b", months("2024-11-01", [1, 2])],
          ["c", months("2024-11-01", [1, 2])],
        ]),
      ),
    ).toBe("2024-12-01");
    expect(
      commonPeriod(
        new Map([
          ["a", months("2024-11-01", [1, 2, 3])],
          ["b", months("2024-11-01", [1, 2, 3])],
          ["c", months("2024-11-01", [1, 2])],
        ]),
      ),
    ).toBe("2025-01-01");
  });

  test("rank, topn (ties), rankin: the places and the top value, the period's year", async () => {
    // January 2025: Alaska 5.0, Arizona 5.0, Alabama 3.0, Arkansas 2.0; Kansas holds no January value.
    await passes("rank:unemployment_rate@state:max", "Alaska had the highest rate in January 2025: 5.0%.");
    await passes("rank:unemployment_rate@state:max", "Arizona had the highest rate in January 2025: 5.0%.");
    await fails("rank:unemployment_rate@state:max", "Kansas had the highest rate in December 2024: 9.0%.");
    await passes("topn:LASST03@state:max:3", "Highest in January 2025: Alaska (5.0%), Arizona (5.0%), Alabama (3.0%).");
    await fails("topn:LASST03@state:max:3", "Highest in January 2025: Alaska (5.0%), Alabama (3.0%), Arkansas (2.0%).");
    await passes("topn:LASST03@state:min:1", "Arkansas had the lowest rate in January 2025: 2.0%.");
    await fails("topn:LASST03@state:min:1", "Kansas had the lowest rate in January 2025: 2.0%."); // "Kansas" is not Arkansas
    await passes("rankin:POPESTIMATE@county:01:max", "Orange County had the most people in Alabama in 2024: 500.");
    await passes(
      "topn:POPESTIMATE@county:01:min:1",
      "Autauga had the fewest people of Alabama's counties in 2024: 300.",
    );
  });

  test("above and below: every place past the threshold, none that is not, or none at all", async () => {
    await passes("above:LASST03@state:4", "Alaska and Arizona were above 4% in January 2025.");
    await fails("above:LASST03@state:4", "Alaska, Arizona and Alabama were above 4% in January 2025.");
    await fails("above:LASST03@state:4", "Alaska was above 4% in January 2025.");
    await passes("below:LASST03@state:1", "No state was below 1% in January 2025.");
  });

  test("higher: the higher place named first with a word saying so, at the period both hold", async () => {
    await passes("higher:LASST03@02,01", "Unemployment was higher in Alaska (5.0%) than in Alabama (3.0%).");
    await passes("higher:LASST03@01,02", "Unemployment was lower in Alabama (3.0%) than in Alaska (5.0%).");
    await fails("higher:LASST03@02,01", "Unemployment was lower in Alaska than in Alabama.");
  });

  test("flows: the largest edge of the newest slice by either IRS measure, and the total", async () => {
    await passes("flowout:02001", "Most went to Maricopa County (60 returns) in 2014-15.");
    await passes("flowout:02001", "Most went to Autauga County (90 exemptions) in 2014-15.");
    await fails("flowout:02001", "Most went to Orange County, Arizona (500 returns) in 2013-14."); // an older slice
    await passes("flowin:04013", "The most came from Orange County (60 returns) in 2015.");
    await passes("flowtotal:02001:out", "170 people left in 2015.");
    // One edge of the newest slice: 60 returns or 80 exemptions from Orange County, Alaska to Maricopa.
    await passes("flowpair:02001:04013", "80 people moved from Orange County to Maricopa County in 2014-15.");
    await passes("flowpair:02001:04013", "60 households moved to Maricopa County in 2015.");
    await fails("flowpair:02001:04013", "70 people moved to Maricopa County in 2015.");
    await fails("flowpair:02001:04013", "80 people moved to Maricopa County.");
    expect(await check("flowpair:02001:04001", "500 returns in 2014.", data)).toStartWith("no data"); // only in an older slice
  });

  test("shared: the most populous county of the name, its state, and another named", async () => {
    await passes(
      "shared:POPESTIMATE@Orange County",
      "Orange County, Alaska had 900 people in 2024. Other Orange Counties are in Alabama and Arizona.",
    );
    await fails("shared:POPESTIMATE@Orange County", "Orange County, Alaska had 900 people in 2024.");
    await fails(
      "shared:POPESTIMATE@Orange County",
      "Orange County, Alabama had 500 people in 2024; there is one in Alaska too.",
    );
  });

  test("says, and a whole row: status, grounded, places, groups of alternatives", async () => {
    await passes("says:nominal|current", "Nominal GDP");
    const labels = parseLabels("ok", "Alaska", "latest:X@US|latest:R@US;says:rose");
    const reply = (answer: string, grounded = true) => ({ status: "ok", answer, grounded });
    expect(await scoreReply(labels, reply("In Alaska X rose to 112 in January 2025."), data)).toBeNull();
    expect(await scoreReply(labels, reply("In Alaska X rose to 112 in January 2025.", false), data)).toStartWith(
      "not grounded",
    );
    expect(await scoreReply(labels, reply("In Alaska X fell to 112 in January 2025."), data)).toContain("rose");
    expect(await scoreReply(labels, reply("X rose to 112 in January 2025."), data)).toContain("Alaska");
    expect(await scoreReply(labels, { status: "no_coverage", answer: null, grounded: true }, data)).toStartWith(
      "status",
    );
    expect(
      await scoreReply(
        parseLabels("no_coverage", "-", "-"),
        { status: "no_coverage", answer: null, grounded: true },
        data,
      ),
    ).toBeNull();
  });
});
