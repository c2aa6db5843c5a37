// Episodes (src/domain/episodes.ts) from the shipped NBER indicator (USREC, fred-macro-us) and the named table, with
// the windows a lagging series is read in, and the leads that read them (src/domain/ask/moves.ts) on the shipped
// unemployment rate and CPI: the Great Recession's unemployment peak is 10.0% in October 2009, the 2020 recession's
// 14.8% in April 2020, the early-1980s' 10.8% in November 1982; inflation peaked at 9.0% in June 2022.
import { describe, expect, test } from "bun:test";
import { episodeLead, sincePeakLead } from "../../src/domain/ask/moves";
import type { View } from "../../src/domain/ask/lead";
import {
  concerns,
  episodesOf,
  episodeWindow,
  latestEpisode,
  namedEpisode,
  recessionsOf,
} from "../../src/domain/episodes";
import { fredRows } from "../support/snapshot";

const recessions = recessionsOf(fredRows("USREC"));
const episodes = episodesOf(recessions);
const byId = (id: string) => episodes.find((e) => e.id === id)!;
const view = (o: Partial<View> & Pick<View, "label" | "unit" | "points" | "values">): View => ({
  growthLabel: null,
  place: "the United States",
  frequency: "monthly",
  state: null,
  jobs: false,
  ...o,
});
const unrate = view({
  label: "the unemployment rate",
  unit: "percent",
  values: { kind: "rate" },
  lagging: true,
  category: "labor",
  points: fredRows("UNRATE"),
});
const cpi = view({
  label: "the consumer price index",
  growthLabel: "inflation",
  unit: "index 1982-1984=100",
  values: { kind: "index" },
  category: "prices",
  points: fredRows("CPIAUCSL"),
});

describe("recessions from USREC", () => {
  test("the runs of months at 1, from 1980 (the file's start)", () => {
    expect(recessions).toEqual([
      { start: "1980-02-01", end: "1980-07-01" },
      { start: "1981-08-01", end: "1982-11-01" },
      { start: "1990-08-01", end: "1991-03-01" },
      { start: "2001-04-01", end: "2001-11-01" },
      { start: "2008-01-01", end: "2009-06-01" },
      { start: "2020-03-01", end: "2020-04-01" },
    ]);
    expect(
      recessionsOf([
        { date: "2000-01-01", value: 1 },
        { date: "2000-02-01", value: null },
        { date: "2000-03-01", value: 1 },
      ]),
    ).toEqual([
      { start: "2000-01-01", end: "2000-01-01" },
      { start: "2000-03-01", end: "2000-03-01" },
    ]);
    expect(recessionsOf([])).toEqual([]);
  });
  test("named episodes: one recession keeps its name and margin; the early 1980s group two; the inflation surge is fixed months", () => {
    expect(byId("great_recession")).toEqual({
      id: "great_recession",
      name: "the Great Recession",
      kind: "recession",
      start: "2008-01-01",
      end: "2009-06-01",
      marginMonths: 12,
    });
    expect(byId("recession_2020")).toMatchObject({ start: "2020-03-01", end: "2020-04-01", marginMonths: 6 });
    expect(byId("early_1980s")).toMatchObject({
      name: "the recessions of 1980 and 1981-82",
      start: "1980-02-01",
      end: "1982-11-01",
    });
    expect(byId("inflation_2021_22")).toMatchObject({ kind: "inflation", start: "2021-01-01", end: "2022-12-01" });
    // The two early-1980s runs are also episodes of their own, unnamed, with the default margin.
    expect(episodes.filter((e) => e.id.startsWith("recession_19")).map((e) => [e.id, e.marginMonths])).toEqual([
      ["recession_1980-02", 24],
      ["recession_1981-08", 24],
      ["recession_1990-08", 24],
    ]);
  });
  test("windows: a lagging series gets the margin, never into the next recession", () => {
    expect(episodeWindow(byId("great_recession"), episodes, false)).toEqual({ start: "2008-01-01", end: "2009-06-01" });
    expect(episodeWindow(byId("great_recession"), episodes, true)).toEqual({ start: "2008-01-01", end: "2010-06-01" });
    // 1980's margin of 24 months stops the month before the 1981 recession starts.
    expect(episodeWindow(byId("recession_1980-02"), episodes, true)).toEqual({
      start: "1980-02-01",
      end: "1981-07-01",
    });
    expect(episodeWindow(byId("early_1980s"), episodes, true)).toEqual({ start: "1980-02-01", end: "1983-05-01" });
  });
  test("which episode a question names, and the most recent that concerns a series", () => {
    expect(namedEpisode("great recession", episodes)!.id).toBe("great_recession");
    expect(namedEpisode("the pandemic", episodes)!.id).toBe("recession_2020");
    expect(namedEpisode("2001 recession", episodes)!.start).toBe("2001-04-01");
    expect(namedEpisode("1991 recession", episodes)!.start).toBe("1990-08-01");
    expect(namedEpisode("last recession", episodes)!.id).toBe("recession_2020");
    expect(namedEpisode("1970 recession", episodes)).toBeNull();
    expect(latestEpisode(episodes, "labor", "2026-05-01")!.id).toBe("recession_2020");
    expect(latestEpisode(episodes, "prices", "2026-05-01")!.id).toBe("inflation_2021_22");
    expect(latestEpisode(episodes, "prices", "2020-12-01")!.id).toBe("recession_2020");
    expect([concerns(byId("inflation_2021_22"), "markets"), concerns(byId("inflation_2021_22"), "labor")]).toEqual([
      true,
      false,
    ]);
  });
});

describe("leads over episodes, from the shipped data", () => {
  const window = (id: string, lagging: boolean) => episodeWindow(byId(id), episodes, lagging);
  test("the unemployment rate's peaks: 10.0% in October 2009, 14.8% in April 2020, 10.8% in November 1982", () => {
    const great = episodeLead(unrate, byId("great_recession"), window("great_recession", true), "max", false);
    expect(great.text).toBe(
      "The unemployment rate in the United States peaked at 10.0% in October 2009 during the Great Recession (by the NBER's dates, January 2008 to June 2009, read to June 2010 since the unemployment rate lags).",
    );
    expect(great.figures).toMatchObject({ extreme: 10, extreme_date: "2009-10-01" });
    // Without the margin the peak would be June 2009's 9.5%.
    expect(
      episodeLead(
        { ...unrate, lagging: false },
        byId("great_recession"),
        window("great_recession", false),
        "max",
        false,
      ).figures.extreme,
    ).toBe(9.5);
    expect(
      episodeLead(unrate, byId("recession_2020"), window("recession_2020", true), "max", false).figures,
    ).toMatchObject({ extreme: 14.8, extreme_date: "2020-04-01" });
    expect(episodeLead(unrate, byId("early_1980s"), window("early_1980s", true), "max", false).figures).toMatchObject({
      extreme: 10.8,
      extreme_date: "1982-11-01",
    });
  });
  test("with no extreme asked: from the month before to the farthest point", () => {
    const lead = episodeLead(unrate, byId("recession_2020"), window("recession_2020", true), null, false);
    expect(lead.text).toStartWith(
      "During the 2020 recession, the unemployment rate in the United States rose from 3.5% in February 2020 to a peak of 14.8% in April 2020",
    );
  });
  test("inflation's peak in the 2021-22 surge is its 12-month change: 9.0% in June 2022 (CPI 296.311 / 271.696)", () => {
    const lead = episodeLead(cpi, byId("inflation_2021_22"), window("inflation_2021_22", false), "max", true);
    expect(lead.text).toStartWith(
      "Inflation in the United States peaked at 9.0% in June 2022 during the 2021-22 inflation surge",
    );
  });
  test("since its peak: the most recent episode's unless all-time; yes or no by what the question claims", () => {
    const e = byId("recession_2020");
    const last = unrate.points.at(-1)!;
    const lead = sincePeakLead(
      unrate,
      { kind: "since_peak", dir: "max", allTime: false, claim: "below" },
      true,
      { e, window: window("recession_2020", true) },
      false,
    );
    expect(lead.text).toBe(
      `Yes: the unemployment rate in the United States was ${last.value}% in May 2026, ${(14.8 - last.value!).toFixed(1)} percentage points below its peak of 14.8% in April 2020 during the 2020 recession.`,
    );
    expect(
      sincePeakLead(
        unrate,
        { kind: "since_peak", dir: "max", allTime: false, claim: "above" },
        true,
        { e, window: window("recession_2020", true) },
        false,
      ).text,
    ).toStartWith("No: ");
    // All-time: the whole series held (from 1948 in the 2026 vintage), still April 2020's 14.8%.
    expect(
      sincePeakLead(unrate, { kind: "since_peak", dir: "max", allTime: true, claim: null }, false, null, false).text,
    ).toContain("its all-time high of 14.8% in April 2020 in the data held (from January 1948)");
  });
});
