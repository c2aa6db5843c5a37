// Hand-worked cases for src/domain/fred: query bounds at and past each edge, aggregation edges, printing, units on
// small series, real-time periods and output types over two vintages, the documents and the series ids.
import { describe, expect, test } from "bun:test";
import { aggregate, checkFrequency, parseFrequency, periodOf } from "../../../src/domain/fred/frequency";
import { renderFredError } from "../../../src/domain/fred/errors";
import { fredObservations, type FredSeriesData } from "../../../src/domain/fred/observations";
import { parseObservationsQuery, parseSearchQuery, parseVintageDatesQuery } from "../../../src/domain/fred/query";
import { renderObservations } from "../../../src/domain/fred/render";
import { fredSeriesId, readSeriesId } from "../../../src/domain/fred/series-ids";
import { applyUnits, formatDecimal, seriesDecimals } from "../../../src/domain/fred/units";
import { RevisionHistory } from "../../../src/domain/fred/vintages";

const TODAY = "2026-11-29";
const obsQuery = (p: Record<string, string>) => parseObservationsQuery({ series_id: "X", ...p }, TODAY);
const message = (r: ReturnType<typeof obsQuery>) => (r.ok ? null : r.error.message);

describe("query bounds", () => {
  test("limit 1 and 100000 pass; 0 and 100001 are FRED's message", () => {
    expect(obsQuery({ limit: "1" }).ok).toBe(true);
    expect(obsQuery({ limit: "100000" }).ok).toBe(true);
    expect(message(obsQuery({ limit: "0" }))).toBe("Bad Request.  Variable limit is not between 1 and 100000.");
    expect(message(obsQuery({ limit: "100001" }))).toBe("Bad Request.  Variable limit is not between 1 and 100000.");
    expect(message(obsQuery({ limit: "ten" }))).toBe("Bad Request.  Variable limit is not between 1 and 100000.");
  });
  test("defaults are FRED's", () => {
    const q = obsQuery({});
    expect(q.ok && q.value).toMatchObject({
      fileType: "xml",
      realtimeStart: TODAY,
      realtimeEnd: TODAY,
      observationStart: "1776-07-04",
      observationEnd: "9999-12-31",
      limit: 100000,
      offset: 0,
      sortOrder: "asc",
      units: "lin",
      frequency: null,
      aggregationMethod: "avg",
      outputType: 1,
      vintageDates: null,
    });
  });
  test("offset 0 passes, -1 does not", () => {
    expect(obsQuery({ offset: "0" }).ok).toBe(true);
    expect(message(obsQuery({ offset: "-1" }))).toBe("Bad Request.  Variable offset is not a non-negative integer.");
  });
  test("output_type 1 and 4 pass; 0 and 5 do not", () => {
    expect(obsQuery({ output_type: "1" }).ok).toBe(true);
    expect(obsQuery({ output_type: "4" }).ok).toBe(true);
    expect(message(obsQuery({ output_type: "0" }))).toBe("Bad Request.  Variable output_type is not between 1 and 4.");
    expect(message(obsQuery({ output_type: "5" }))).toBe("Bad Request.  Variable output_type is not between 1 and 4.");
  });
  test("series_id, units, dates, file_type", () => {
    expect(message(parseObservationsQuery({}, TODAY))).toBe("Bad Request.  Variable series_id is not set.");
    expect(message(obsQuery({ units: "pct" }))).toContain("Variable units is not one of the following: 'lin', 'chg'");
    expect(message(obsQuery({ observation_start: "2023-02-29" }))).toBe(
      "Bad Request.  Variable observation_start is not a valid date in YYYY-MM-DD format.",
    );
    expect(obsQuery({ observation_start: "2024-02-29" }).ok).toBe(true);
    expect(message(obsQuery({ realtime_start: "2026-01-02", realtime_end: "2026-01-01" }))).toBe(
      "Bad Request.  Variable realtime_start can not be after variable realtime_end.",
    );
    const bad = obsQuery({ file_type: "csv" });
    expect(!bad.ok && bad.fileType).toBe("xml");
    const badJson = obsQuery({ file_type: "json", units: "x" });
    expect(!badJson.ok && badJson.fileType).toBe("json");
  });
  test("search limit 1..1000, default order desc by search_rank; vintagedates 1..10000 over all time", () => {
    expect(parseSearchQuery({ search_text: "a", limit: "1000" }, TODAY).ok).toBe(true);
    expect(parseSearchQuery({ search_text: "a", limit: "1001" }, TODAY).ok).toBe(false);
    const s = parseSearchQuery({ search_text: "a" }, TODAY);
    expect(s.ok && [s.value.orderBy, s.value.sortOrder]).toEqual(["search_rank", "desc"]);
    const t = parseSearchQuery({ search_text: "a", order_by: "title" }, TODAY);
    expect(t.ok && t.value.sortOrder).toBe("asc");
    expect(parseVintageDatesQuery({ series_id: "X", limit: "10000" }, TODAY).ok).toBe(true);
    expect(parseVintageDatesQuery({ series_id: "X", limit: "10001" }, TODAY).ok).toBe(false);
    const v = parseVintageDatesQuery({ series_id: "X" }, TODAY);
    expect(v.ok && [v.value.realtimeStart, v.value.realtimeEnd]).toEqual(["1776-07-04", "9999-12-31"]);
  });
});

describe("frequency", () => {
  test("finer than native is refused; same is a no-op; a weekly variant must end on the series' weekday", () => {
    expect(checkFrequency({ code: "m" }, parseFrequency("d")!)).toEqual({
      ok: false,
      reason: "can not be higher than the native frequency of the series",
    });
    expect(checkFrequency({ code: "m" }, parseFrequency("m")!)).toEqual({ ok: true, aggregate: false });
    expect(checkFrequency({ code: "w", endDay: 6 }, parseFrequency("w")!)).toEqual({ ok: true, aggregate: false });
    expect(checkFrequency({ code: "w", endDay: 6 }, parseFrequency("wesa")!)).toEqual({ ok: true, aggregate: false });
    expect(checkFrequency({ code: "w", endDay: 6 }, parseFrequency("wef")!).ok).toBe(false);
    expect(checkFrequency({ code: "d" }, parseFrequency("wef")!)).toEqual({ ok: true, aggregate: true });
  });
  test("periods: a week dated Friday 2010-09-03 counts in September; weeks are named by their ending day", () => {
    expect(periodOf("2010-09-03", { code: "m" })).toBe("2010-09-01");
    expect(periodOf("2024-02-29", { code: "q" })).toBe("2024-01-01");
    expect(periodOf("2024-07-01", { code: "sa" })).toBe("2024-07-01");
    expect(periodOf("2024-06-30", { code: "sa" })).toBe("2024-01-01");
    expect(periodOf("2024-01-01", { code: "w", endDay: 5 })).toBe("2024-01-05"); // a Monday
    expect(periodOf("2024-01-05", { code: "w", endDay: 5 })).toBe("2024-01-05");
    expect(periodOf("1970-01-07", { code: "bw", endDay: 3 })).toBe("1970-01-07");
    expect(periodOf("1970-01-08", { code: "bw", endDay: 3 })).toBe("1970-01-21");
  });
  const months = (values: (number | null)[], start = 2024) =>
    values.map((value, i) => ({
      date: `${start + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, "0")}-01`,
      value,
    }));
  test("monthly to quarterly: a last quarter with two months is dropped, with three kept; a missing month inside is skipped", () => {
    const m = { code: "m" as const };
    const q = { code: "q" as const };
    expect(aggregate(months([1, 2, 3, 4, 5]), m, q, "avg", 1)).toEqual([{ date: "2024-01-01", value: 2 }]);
    expect(aggregate(months([1, 2, 3, 4, 5, 6]), m, q, "avg", 1)).toEqual([
      { date: "2024-01-01", value: 2 },
      { date: "2024-04-01", value: 5 },
    ]);
    expect(aggregate(months([1, 2, 3, 4.3, null, 4.4, 1, 1, 1]), m, q, "avg", 1)[1]).toEqual({
      date: "2024-04-01",
      value: 4.4,
    }); // 4.35 half away
    expect(aggregate(months([1, 2, 3, 4.3, null, 4.4, 1, 1, 1]), m, q, "sum", 1)[1]).toEqual({
      date: "2024-04-01",
      value: 8.7,
    });
    expect(aggregate(months([1, 2, 3, 4.3, null, 4.4, 1, 1, 1]), m, q, "eop", 1)[1]).toEqual({
      date: "2024-04-01",
      value: 4.4,
    });
    expect(aggregate(months([1, 2, 3, null, null, null, 1, 1, 1]), m, q, "avg", 1)[1]).toEqual({
      date: "2024-04-01",
      value: null,
    });
    expect(aggregate(months([-1.25, -1.3, -1.3]), m, q, "avg", 2)).toEqual([{ date: "2024-01-01", value: -1.28 }]); // -1.28333
  });
  test("the first period is dropped too when short (a series starting in February)", () => {
    const rows = months([9, 1, 2, 3, 4, 5, 6]).slice(1);
    expect(aggregate(rows, { code: "m" }, { code: "q" }, "avg", 0).map((p) => p.date)).toEqual(["2024-04-01"]);
  });
});

describe("printing and units", () => {
  test("series decimals are the most any value has; printing rounds half away from zero", () => {
    expect(seriesDecimals([78, 80.1, 324.368, null])).toBe(3);
    expect(seriesDecimals([394000, 225000])).toBe(0);
    expect(formatDecimal(78, 3)).toBe("78.000");
    expect(formatDecimal(10.5, 2)).toBe("10.50");
    expect(formatDecimal(1.005, 2)).toBe("1.01");
    expect(formatDecimal(-1.005, 2)).toBe("-1.01");
    expect(formatDecimal(-0.000001, 5)).toBe("0.00000");
    expect(formatDecimal(0.1 + 0.2, 1)).toBe("0.3");
  });
  const q = [100, 102, 104.04, 106.1208, 110]
    .map((value, i) => ({ date: `2024-${String(i * 3 + 1).padStart(2, "0")}-01`, value }))
    .slice(0, 4);
  const values = (units: Parameters<typeof applyUnits>[1]) =>
    applyUnits(q, units, "q").map((p) => (p.value === null ? "." : formatDecimal(p.value, 5)));
  test("quarterly: pca compounds four quarters, cca annualises one quarter's log change", () => {
    expect(values("pch")).toEqual([".", "2.00000", "2.00000", "2.00000"]);
    expect(values("pca")).toEqual([".", "8.24322", "8.24322", "8.24322"]); // 1.02^4 = 1.08243216
    expect(values("cch")).toEqual([".", "1.98026", "1.98026", "1.98026"]); // ln 1.02 = 0.0198026273
    expect(values("cca")).toEqual([".", "7.92105", "7.92105", "7.92105"]);
    expect(values("pc1")).toEqual([".", ".", ".", "."]); // no quarter a year earlier
    expect(values("log")[0]).toBe("4.60517"); // ln 100
  });
  test("a missing month leaves the next change missing; log of zero and pch over zero are missing", () => {
    const m = [
      { date: "2025-09-01", value: 4.4 },
      { date: "2025-11-01", value: 4.6 },
      { date: "2025-12-01", value: 0 },
      { date: "2026-01-01", value: 1 },
    ];
    expect(applyUnits(m, "chg", "m").map((p) => p.value)).toEqual([null, null, -4.6, 1]);
    expect(applyUnits(m, "pch", "m")[3].value).toBeNull();
    expect(applyUnits(m, "log", "m")[2].value).toBeNull();
  });
});

describe("vintages", () => {
  // 2024-01 published 3.0 on 2026-01-02 and revised to 3.1 on 2026-06-05; 2024-02 published only on 2026-06-05.
  const history = new RevisionHistory([
    { date: "2024-01-01", value: 3.0, vintage: "2026-01-02" },
    { date: "2024-01-01", value: 3.1, vintage: "2026-06-05" },
    { date: "2024-02-01", value: 3.3, vintage: "2026-06-05" },
  ]);
  const series: FredSeriesData = { id: "TEST", native: { code: "m" }, decimals: 1, history };
  const answer = (p: Record<string, string>) => {
    const q = obsQuery({ series_id: "TEST", ...p });
    if (!q.ok) throw new Error(q.error.message);
    const a = fredObservations(q.value, series);
    if ("status" in a) throw new Error(a.message);
    return a;
  };
  test("today: the newest values, the real-time period being today", () => {
    expect(answer({}).rows).toEqual([
      { realtime_start: TODAY, realtime_end: TODAY, date: "2024-01-01", value: "3.1" },
      { realtime_start: TODAY, realtime_end: TODAY, date: "2024-02-01", value: "3.3" },
    ] as never);
  });
  test("ALFRED: what 2024-01 said on 2026-02-01", () => {
    expect(answer({ realtime_start: "2026-02-01", realtime_end: "2026-02-01" }).rows).toEqual([
      { realtime_start: "2026-02-01", realtime_end: "2026-02-01", date: "2024-01-01", value: "3.0" },
    ] as never);
  });
  test("output type 1 over all time: one row per value and the period it held", () => {
    const a = answer({ realtime_start: "1776-07-04", realtime_end: "9999-12-31" });
    expect(a.rows).toEqual(
      [
        { realtime_start: "1776-07-04", realtime_end: "2026-01-01", date: "2024-01-01", value: "." },
        { realtime_start: "2026-01-02", realtime_end: "2026-06-04", date: "2024-01-01", value: "3.0" },
        { realtime_start: "2026-06-05", realtime_end: "9999-12-31", date: "2024-01-01", value: "3.1" },
        { realtime_start: "2026-06-05", realtime_end: "9999-12-31", date: "2024-02-01", value: "3.3" },
      ].slice(1) as never,
    );
    expect(a.count).toBe(3);
  });
  test("output types 2, 3 and 4", () => {
    const all = { realtime_start: "1776-07-04", realtime_end: "9999-12-31", file_type: "json" };
    const two = JSON.parse(renderObservations(answer({ ...all, output_type: "2" }), "json").body);
    expect(two.observations).toEqual([
      { date: "2024-01-01", TEST_20260102: "3.0", TEST_20260605: "3.1" },
      { date: "2024-02-01", TEST_20260102: ".", TEST_20260605: "3.3" },
    ]);
    const three = JSON.parse(renderObservations(answer({ ...all, output_type: "3" }), "json").body);
    expect(three.observations).toEqual([
      { date: "2024-01-01", TEST_20260102: "3.0", TEST_20260605: "3.1" },
      { date: "2024-02-01", TEST_20260605: "3.3" },
    ]);
    expect(answer({ ...all, output_type: "4" }).rows).toEqual([
      { realtime_start: "2026-01-02", realtime_end: "2026-06-04", date: "2024-01-01", value: "3.0" },
      { realtime_start: "2026-06-05", realtime_end: "9999-12-31", date: "2024-02-01", value: "3.3" },
    ] as never);
  });
  test("vintage_dates override the real-time period", () => {
    expect(answer({ vintage_dates: "2026-03-01" }).rows).toEqual([
      { realtime_start: "2026-03-01", realtime_end: "2026-03-01", date: "2024-01-01", value: "3.0" },
    ] as never);
  });
  test("sort, offset, limit and count; XML carries the same fields", () => {
    const a = answer({ sort_order: "desc", limit: "1", offset: "0" });
    expect([a.count, a.rows.map((r) => r.date)]).toEqual([2, ["2024-02-01"]]);
    const xml = renderObservations(a, "xml").body;
    expect(xml).toContain(
      '<observations realtime_start="2026-11-29" realtime_end="2026-11-29" observation_start="1776-07-04" observation_end="9999-12-31" units="lin" output_type="1" file_type="xml" order_by="observation_date" sort_order="desc" count="2" offset="0" limit="1">',
    );
    expect(xml).toContain(
      '<observation realtime_start="2026-11-29" realtime_end="2026-11-29" date="2024-02-01" value="3.3"/>',
    );
  });
  test("a frequency finer than the series' is FRED's 400", () => {
    const q = obsQuery({ frequency: "d" });
    const a = q.ok ? fredObservations(q.value, series) : null;
    expect(a).toEqual({
      status: 400,
      message: "Bad Request.  Variable frequency can not be higher than the native frequency of the series.",
    });
  });
});

describe("errors and ids", () => {
  test("JSON and XML error shapes", () => {
    const e = { status: 400 as const, message: "Bad Request.  The series does not exist." };
    expect(JSON.parse(renderFredError(e, "json").body)).toEqual({
      error_code: 400,
      error_message: "Bad Request.  The series does not exist.",
    });
    expect(renderFredError(e, "xml").body).toContain(
      '<error code="400" message="Bad Request.  The series does not exist."/>',
    );
  });
  const rate = { source: "bls", code: "LASST03", template: "LASST{fips2}0000000000003" };
  test("ids: FRED codes as is, <USPS>UR for state rates, filled templates, compact code + region", () => {
    expect(fredSeriesId({ source: "fred", code: "UNRATE", template: null }, { code: "US", usps: null })).toBe("UNRATE");
    expect(fredSeriesId(rate, { code: "48", usps: "TX" })).toBe("TXUR");
    expect(
      fredSeriesId(
        { source: "bls", code: "LASST04", template: "LASST{fips2}0000000000004" },
        { code: "48", usps: "TX" },
      ),
    ).toBe("LASST480000000000004");
    expect(
      fredSeriesId({ source: "worldbank", code: "NY.GDP.MKTP.CD", template: null }, { code: "DE", usps: null }),
    ).toBe("NYGDPMKTPCDDE");
  });
  test("reading ids back", () => {
    const regions = new Set(["US", "DE", "48"]);
    const read = (id: string) =>
      readSeriesId(id, ["LASST{fips2}0000000000004"], new Set(["NYGDPMKTPCD", "NYGDP"]), (r) => regions.has(r));
    expect(read("txur")).toEqual([
      { kind: "fred", code: "TXUR" },
      { kind: "state-rate", usps: "TX" },
    ]);
    expect(read("LASST480000000000004")[1]).toEqual({
      kind: "template",
      template: "LASST{fips2}0000000000004",
      region: "48",
    });
    expect(read("NYGDPMKTPCDDE")[1]).toEqual({ kind: "compact", code: "NYGDPMKTPCD", region: "DE" });
    expect(read("UN-RATE")).toEqual([]);
  });
});
