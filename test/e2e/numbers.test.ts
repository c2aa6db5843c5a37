// Numbers checked as a user would: three real FRED series shipped with the seed (db/seed/snapshot/fred-macro-us, the
// January-2026 vintage, and fred-national-2026-vintage, the June-2026 one loaded over it: UNRATE monthly with the
// October 2025 gap, GDPC1 quarterly (January vintage only), ICSA weekly ending Saturday) come back through
// GET /v1/observations as a fresh install serves them: each date's current value, the June vintage's where it has the
// date (test/support/snapshot.ts fredRows). Importing each series' newest shipped file through the real import service
// changes nothing (the seed and the import path store the same rows). Every expected value is computed here from the
// raw CSVs with plain arithmetic on strings and UTC dates, never with the service's domain code.
// Complements test/routes/observations-golden.test.ts: quarterly qoq/yoy, annual and quarterly means with the
// incomplete newest bucket dropped, windows whose comparators lie before start_date, index bases, pages in both orders,
// and the refusals for transforms a frequency cannot carry.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { importObservationsCsv } from "../../src/services/import";
import { makeTestApp, type TestApp } from "../support/app";
import { fredRows, fredVintageRows, snapshotText } from "../support/snapshot";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

type Row = { date: string; value: number | null };
const raw: Record<string, Row[]> = {};
/** Rows in each series' newest shipped file (the June-2026 vintage's where it has the series), the file imported again. */
const newestFileRows: Record<string, number> = {};
const imported: Record<string, Awaited<ReturnType<typeof importObservationsCsv>>> = {};
let t: TestApp;

beforeAll(async () => {
  t = await makeTestApp();
  for (const code of ["UNRATE", "GDPC1", "ICSA"]) {
    raw[code] = fredRows(code);
    const vintage =
      fredVintageRows("fred-national-2026-vintage", code).length > 0 ? "fred-national-2026-vintage" : "fred-macro-us";
    newestFileRows[code] = fredVintageRows(vintage, code).length;
    const text = snapshotText(`${vintage}/${code}.csv.gz`);
    imported[code] = await importObservationsCsv(t.store, {
      text,
      indicator: code,
      region: "US",
      now: new Date("2026-01-05T00:00:00Z"),
    });
  }
}, 120_000);
afterAll(() => t?.close());

// ---- independent arithmetic ----------------------------------------------------------------------------------------

const pct = (x: number | null | undefined, base: number | null | undefined) =>
  x === null || x === undefined || base === null || base === undefined || base === 0 ? null : ((x - base) / base) * 100;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
/** YYYY-MM-01 shifted by whole months. */
function addMonths(date: string, months: number): string {
  const total = Number(date.slice(0, 4)) * 12 + (Number(date.slice(5, 7)) - 1) + months;
  return `${String(Math.floor(total / 12)).padStart(4, "0")}-${String((total % 12) + 1).padStart(2, "0")}-01`;
}
function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
const quarterStart = (date: string) =>
  `${date.slice(0, 4)}-${String(Math.floor((Number(date.slice(5, 7)) - 1) / 3) * 3 + 1).padStart(2, "0")}-01`;
/** Values grouped by a key, in first-seen order, missing values left out. */
function groups(rows: Row[], key: (date: string) => string): Map<string, number[]> {
  const m = new Map<string, number[]>();
  for (const r of rows) {
    const k = key(r.date);
    if (!m.has(k)) m.set(k, []);
    if (r.value !== null) m.get(k)!.push(r.value);
  }
  return m;
}
const byDate = (code: string) => new Map(raw[code]!.map((r) => [r.date, r.value]));

function expectClose(got: number | null, want: number | null, where: string) {
  if (want === null) expect({ where, got }).toEqual({ where, got: null });
  else {
    expect({ where, isNumber: typeof got === "number" }).toEqual({ where, isNumber: true });
    expect(got as number).toBeCloseTo(want, 9);
  }
}

/** Every row of a query, following pages of 1000 in ascending order. */
async function readAll(qs: string): Promise<{ rows: any[]; meta: any }> {
  const rows: any[] = [];
  for (let offset = 0; ; offset += 1000) {
    const r = await t.getJson(`/v1/observations?${qs}&order=asc&limit=1000&offset=${offset}`);
    expect({ qs, status: r.status }).toEqual({ qs, status: 200 });
    rows.push(...r.body.data);
    if (rows.length >= r.body.meta.total) return { rows, meta: r.body.meta };
  }
}

test("the shipped files are what these tests assume", () => {
  // UNRATE: the June file from 1948 (no October 2025 row), plus January's blank October 2025; ICSA: June's 3,100 weeks
  // cover all of January's; GDPC1: January's file alone.
  expect([raw.UNRATE!.length, newestFileRows.UNRATE, raw.UNRATE![0]!.date, raw.UNRATE!.at(-1)]).toEqual([
    941,
    940,
    "1948-01-01",
    { date: "2026-05-01", value: 4.3 },
  ]);
  expect(raw.UNRATE!.filter((r) => r.value === null).map((r) => r.date)).toEqual(["2025-10-01"]);
  expect([raw.ICSA!.length, newestFileRows.ICSA, raw.ICSA![0]!.date, raw.ICSA!.at(-1)!.date]).toEqual([
    3100,
    3100,
    "1967-01-07",
    "2026-05-30",
  ]);
  expect([raw.GDPC1!.length, newestFileRows.GDPC1, raw.GDPC1!.at(-1)!.date]).toEqual([183, 183, "2025-07-01"]);
});

test("the seed already holds the files as the import path stores them: importing the newest file again changes nothing", () => {
  for (const code of ["UNRATE", "GDPC1", "ICSA"]) {
    const r = imported[code]!;
    expect({
      code,
      inserted: r.inserted,
      revised: r.revised,
      unchanged: r.unchanged,
      count: r.series.observationCount,
      version: r.series.version,
    }).toEqual({
      code,
      inserted: 0,
      revised: 0,
      unchanged: newestFileRows[code]!,
      count: raw[code]!.length,
      version: 1, // the seed wrote both vintages in one write; the import wrote nothing
    });
  }
});

// ---- UNRATE, monthly -----------------------------------------------------------------------------------------------

describe("UNRATE (monthly, October 2025 missing)", () => {
  test("annual mean per calendar year; 2026 (January to May) dropped; 2025 averages the 11 months it has", async () => {
    const years = groups(raw.UNRATE!, (d) => d.slice(0, 4));
    const { rows, meta } = await readAll("indicator=UNRATE&frequency=annual&resample_method=mean");
    const complete = [...years.keys()].filter((y) => y !== "2026");
    expect(rows.map((r) => r.period_start)).toEqual(complete.map((y) => `${y}-01-01`));
    expect(rows.map((r) => r.period_end)).toEqual(complete.map((y) => `${y}-12-31`));
    rows.forEach((r) => expectClose(r.value, mean(years.get(r.period_start.slice(0, 4))!), r.period_start));
    expect(meta.total).toBe(78); // 1948 .. 2025
    expect(meta.resample).toMatchObject({
      method: "mean",
      source_frequency: "monthly",
      target_frequency: "annual",
      dropped_incomplete_bucket: true,
      dropped_period_start: "2026-01-01",
    });
    // Hand check (June-2026 vintage, May revised from 4.0 to 3.9): 2024 averaged 3.7, 3.9, 3.9, 3.9, 3.9, 4.1, 4.2,
    // 4.2, 4.1, 4.1, 4.2, 4.1 = 48.3 / 12.
    expect(rows.find((r) => r.period_start === "2024-01-01").value).toBeCloseTo(48.3 / 12, 12);
    // 2025 without October: 4.0, 4.2, 4.2, 4.2, 4.3, 4.1, 4.3, 4.3, 4.4, 4.5, 4.4 = 46.9 / 11, the gap not a zero.
    expect(years.get("2025")).toHaveLength(11);
    expect(rows.find((r) => r.period_start === "2025-01-01").value).toBeCloseTo(46.9 / 11, 12);
  });

  test("annual last is each December; quarterly mean then qoq", async () => {
    const v = byDate("UNRATE");
    const last = (await readAll("indicator=UNRATE&frequency=annual&resample_method=last")).rows;
    last.forEach((r) =>
      expect({ y: r.period_start, v: r.value }).toEqual({
        y: r.period_start,
        v: v.get(`${r.period_start.slice(0, 4)}-12-01`)!,
      }),
    );

    const q = groups(raw.UNRATE!, quarterStart);
    const { rows, meta } = await readAll("indicator=UNRATE&frequency=quarterly&transform=qoq");
    // 2026Q2 holds April and May (June not yet published): incomplete, dropped. 2025Q4 is the mean of November and
    // December (October missing).
    expect(rows.at(-1).period_start).toBe("2026-01-01");
    expect(meta.resample.dropped_period_start).toBe("2026-04-01");
    expect(q.get("2025-10-01")).toEqual([4.5, 4.4]);
    expect(rows.find((r) => r.period_start === "2025-10-01").value).toBeCloseTo(
      pct((4.5 + 4.4) / 2, (4.4 + 4.3 + 4.3) / 3)!,
      10,
    );
    expect(meta.transform).toBe("qoq");
    expect(meta.unit).toBe("percent");
    expect(rows[0].value).toBeNull();
    for (const r of rows.slice(1))
      expectClose(
        r.value,
        pct(mean(q.get(r.period_start)!), mean(q.get(addMonths(r.period_start, -3))!)),
        r.period_start,
      );
  });

  test("mom and yoy in a window read comparators from before start_date; the gap gives nulls", async () => {
    const v = byDate("UNRATE");
    for (const [transform, lag] of [
      ["mom", 1],
      ["yoy", 12],
      ["qoq", 3],
    ] as const) {
      const { rows, meta } = await readAll(
        `indicator=UNRATE&transform=${transform}&start_date=2024-06-01&end_date=2025-11-30`,
      );
      expect(rows.map((r) => r.date)).toEqual(
        raw.UNRATE!.filter((r) => r.date >= "2024-06-01" && r.date <= "2025-11-30").map((r) => r.date),
      );
      expect(meta.total).toBe(18);
      for (const r of rows)
        expectClose(r.value, pct(v.get(r.date), v.get(addMonths(r.date, -lag))), `${transform} ${r.date}`);
    }
    // By hand: 2024-06 mom is 4.1 against May's 3.9 (the June-2026 vintage's; January's had 4.0); October 2025 has no
    // value, so November's mom has no comparator; December's has November.
    const mom = (await readAll("indicator=UNRATE&transform=mom&start_date=2024-06-01&end_date=2024-06-30")).rows;
    expect(mom[0].value).toBeCloseTo(((4.1 - 3.9) / 3.9) * 100, 10);
    const tail = (await readAll("indicator=UNRATE&transform=mom&start_date=2025-09-01&end_date=2025-12-31")).rows.map(
      (r) => [r.date, r.value],
    );
    expect(tail).toEqual([
      ["2025-09-01", pct(4.4, 4.3)],
      ["2025-10-01", null],
      ["2025-11-01", null],
      ["2025-12-01", pct(4.4, 4.5)],
    ]);
  });

  test("index:2020-04-01 (the 14.8 peak) and log over the whole series", async () => {
    const { rows, meta } = await readAll("indicator=UNRATE&transform=index:2020-04-01");
    expect(meta.unit).toBe("index (2020-04-01=100)");
    const base = byDate("UNRATE").get("2020-04-01")!;
    expect(base).toBe(14.8);
    rows.forEach((r, k) =>
      expectClose(r.value, raw.UNRATE![k]!.value === null ? null : (raw.UNRATE![k]!.value! / base) * 100, r.date),
    );
    expect(rows.find((r) => r.date === "2020-04-01").value).toBe(100);
    const logs = (await readAll("indicator=UNRATE&transform=log")).rows;
    logs.forEach((r, k) =>
      expectClose(r.value, raw.UNRATE![k]!.value === null ? null : Math.log(raw.UNRATE![k]!.value!), r.date),
    );
  });

  test("pages in descending order are slices of the whole series", async () => {
    const desc = [...raw.UNRATE!].reverse();
    const n = desc.length; // 941
    // The last row alone, and a page of 10 that holds only the last 3 rows.
    for (const [limit, offset] of [
      [5, 0],
      [7, 3],
      [1, n - 1],
      [10, n - 3],
      [0, 0],
    ] as const) {
      const r = await t.getJson(`/v1/observations?indicator=UNRATE&limit=${limit}&offset=${offset}`);
      expect(r.body.meta).toMatchObject({ total: n, limit, offset });
      expect(r.body.data.map((x: any) => [x.date, x.value])).toEqual(
        desc.slice(offset, offset + limit).map((x) => [x.date, x.value]),
      );
    }
  });
});

// ---- GDPC1, quarterly ----------------------------------------------------------------------------------------------

describe("GDPC1 (quarterly)", () => {
  test("qoq against the previous quarter and yoy against the same quarter a year earlier", async () => {
    const v = byDate("GDPC1");
    for (const [transform, lag] of [
      ["qoq", 3],
      ["yoy", 12],
    ] as const) {
      const { rows, meta } = await readAll(`indicator=GDPC1&transform=${transform}`);
      expect(rows).toHaveLength(raw.GDPC1!.length);
      expect(meta.unit).toBe("percent");
      for (const r of rows)
        expectClose(r.value, pct(v.get(r.date), v.get(addMonths(r.date, -lag))), `${transform} ${r.date}`);
      expect(rows.filter((r) => r.value === null).length).toBe(lag / 3);
    }
    // By hand: 2025Q3 24,024.957 over 2025Q2 23,770.976.
    const q3 = (await t.getJson("/v1/observations?indicator=GDPC1&transform=qoq&limit=1")).body.data[0];
    expect(q3.date).toBe("2025-07-01");
    expect(q3.value).toBeCloseTo((24024.957 / 23770.976 - 1) * 100, 10);
  });

  test("annual mean of the four quarters; 2025 (three quarters) dropped; annual growth of the mean", async () => {
    const years = groups(raw.GDPC1!, (d) => d.slice(0, 4));
    const { rows, meta } = await readAll("indicator=GDPC1&frequency=annual&resample_method=mean");
    expect(rows.at(-1).period_start).toBe("2024-01-01");
    expect(meta).toMatchObject({
      total: 45,
      resample: { target_frequency: "annual", dropped_period_start: "2025-01-01" },
    });
    rows.forEach((r) => {
      expect(years.get(r.period_start.slice(0, 4))).toHaveLength(4);
      expectClose(r.value, mean(years.get(r.period_start.slice(0, 4))!), r.period_start);
    });
    const growth = (await readAll("indicator=GDPC1&frequency=annual&resample_method=mean&transform=yoy")).rows;
    expect(growth[0].value).toBeNull();
    for (const r of growth.slice(1)) {
      const y = r.period_start.slice(0, 4);
      expectClose(r.value, pct(mean(years.get(y)!), mean(years.get(String(Number(y) - 1))!)), r.period_start);
    }
    // BEA's annual real GDP growth for 2024 (average over average) rounds to 2.8 percent.
    expect(growth.find((r) => r.period_start === "2024-01-01").value.toFixed(1)).toBe("2.8");
  });

  test("index:2017-01-01 rebases the chained-2017-dollar series; a base date between quarters is a 400", async () => {
    const base = byDate("GDPC1").get("2017-01-01")!;
    const { rows } = await readAll("indicator=GDPC1&transform=index:2017-01-01");
    rows.forEach((r, k) => expectClose(r.value, (raw.GDPC1![k]!.value! / base) * 100, r.date));
    const between = await t.getJson("/v1/observations?indicator=GDPC1&transform=index:2017-02-01");
    expect(between.status).toBe(400);
    expect(between.body.error.details).toMatchObject({ nearest_before: "2017-01-01", nearest_after: "2017-04-01" });
  });

  test("mom and monthly resampling of a quarterly series are 400s", async () => {
    for (const qs of ["transform=mom", "frequency=monthly"]) {
      const r = await t.getJson(`/v1/observations?indicator=GDPC1&${qs}`);
      expect({ qs, status: r.status, code: r.body.error.code }).toEqual({ qs, status: 400, code: "INVALID_PARAMETER" });
      expect(r.body.error.message).toContain("quarterly");
    }
  });
});

// ---- ICSA, weekly --------------------------------------------------------------------------------------------------

describe("ICSA (weekly, ending Saturday)", () => {
  test("yoy against 52 weeks (364 days) earlier, also across start_date and in descending pages", async () => {
    const v = byDate("ICSA");
    const want = (date: string) => pct(v.get(date), v.get(addDays(date, -364)));
    const { rows } = await readAll("indicator=ICSA&transform=yoy");
    expect(rows).toHaveLength(raw.ICSA!.length);
    for (const r of rows) expectClose(r.value, want(r.date), r.date);
    expect(rows.filter((r) => r.value === null).length).toBe(52);
    // 2025's first weeks compare with weeks of 2024, before the window: the last, short page in descending order
    // (22 weeks of 2026 and 52 of 2025 since start_date; offset 67 leaves 7).
    const page = await t.getJson(
      "/v1/observations?indicator=ICSA&transform=yoy&start_date=2025-01-01&order=desc&limit=10&offset=67",
    );
    const since2025 = raw.ICSA!.filter((r) => r.date >= "2025-01-01").reverse();
    expect(page.body.meta.total).toBe(since2025.length);
    expect(page.body.data.map((r: any) => r.date)).toEqual(since2025.slice(67, 77).map((r) => r.date));
    expect(page.body.data.map((r: any) => r.date)).toHaveLength(7);
    expect(page.body.data.at(-1).date).toBe("2025-01-04");
    for (const r of page.body.data) expectClose(r.value, want(r.date), r.date);
    // By hand: 2025-01-04 (206,000) against 2024-01-06 (201,000), the June-2026 vintage's values (January's file had
    // 205,000 and 199,000).
    expect([v.get("2025-01-04"), v.get("2024-01-06")]).toEqual([206000, 201000]);
    expect(rows.find((r) => r.date === "2025-01-04").value).toBeCloseTo((206000 / 201000 - 1) * 100, 10);
  });

  test("monthly mean of the weeks dated in each month, then mom", async () => {
    const months = groups(raw.ICSA!, (d) => `${d.slice(0, 7)}-01`);
    const { rows, meta } = await readAll("indicator=ICSA&frequency=monthly&resample_method=mean&transform=mom");
    // The series ends on Saturday 2026-05-30; the next week would be dated 2026-06-06, so May 2026 is complete.
    expect(rows.at(-1).period_start).toBe("2026-05-01");
    expect(meta.resample.dropped_incomplete_bucket).toBe(false);
    expect(rows).toHaveLength(months.size);
    expect(rows[0].value).toBeNull();
    for (const r of rows.slice(1))
      expectClose(
        r.value,
        pct(mean(months.get(r.period_start)!), mean(months.get(addMonths(r.period_start, -1))!)),
        r.period_start,
      );
  });

  test("annual sum and last per calendar year; 2026 (to May) dropped", async () => {
    const years = groups(raw.ICSA!, (d) => d.slice(0, 4));
    const { rows: sums, meta } = await readAll("indicator=ICSA&frequency=annual&resample_method=sum");
    expect([...years.keys()].at(-1)).toBe("2026");
    expect(sums.map((r) => r.period_start.slice(0, 4))).toEqual([...years.keys()].filter((y) => y !== "2026"));
    expect(meta.resample).toMatchObject({ dropped_incomplete_bucket: true, dropped_period_start: "2026-01-01" });
    sums.forEach((r) =>
      expect({ y: r.period_start, v: r.value }).toEqual({
        y: r.period_start,
        v: sum(years.get(r.period_start.slice(0, 4))!),
      }),
    );
    const last = (await readAll("indicator=ICSA&frequency=annual&resample_method=last")).rows;
    last.forEach((r) => {
      const y = r.period_start.slice(0, 4);
      expect(r.value).toBe(raw.ICSA!.filter((x) => x.date.startsWith(y)).at(-1)!.value);
    });
  });

  test("mom and qoq at native weekly frequency are 400s that suggest a frequency", async () => {
    for (const [transform, suggestion] of [
      ["mom", "frequency=monthly"],
      ["qoq", "frequency=quarterly"],
    ] as const) {
      const r = await t.getJson(`/v1/observations?indicator=ICSA&transform=${transform}`);
      expect({ transform, status: r.status, suggestion: r.body.error.details?.suggestion }).toEqual({
        transform,
        status: 400,
        suggestion,
      });
    }
  });
});
