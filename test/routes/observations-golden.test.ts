// Golden tests on real FRED files from ../shared/data/fred-macro-us, loaded through the real import service and read
// through GET /v1/observations. Every expected value is computed here, independently, from the raw file (plain
// string and Date arithmetic, not the domain code). Skips with a message when the shared folder is absent.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { importObservationsCsv } from "../../src/services/import";
import { makeTestApp, type TestApp } from "../support/app";
import { deriveOnly } from "../support/derive";
import { clearSeries } from "../support/series";
import { sharedDataMissingMessage, sharedDataPath } from "../support/shared-data";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

const dir = sharedDataPath("fred-macro-us");
const skip = !dir;
const label = (name: string) => (skip ? `${name} (${sharedDataMissingMessage("fred-macro-us")})` : name);

type Raw = { date: string; value: number | null }[];
const raw: Record<string, Raw> = {};
let t: TestApp;

async function load(code: string): Promise<string> {
  const text = await Bun.file(`${dir}/${code}.csv`).text();
  raw[code] = text
    .trim()
    .split("\n")
    .slice(1)
    .map((line) => {
      const [date, v] = line.trim().split(",");
      return { date, value: v === "" || v === undefined ? null : Number(v) };
    });
  return text;
}

beforeAll(async () => {
  if (skip) return;
  t = await makeTestApp();
  for (const code of ["CPIAUCSL", "DGS10", "ICSA", "UNRATE"]) {
    // The seeded snapshot holds a later vintage of these series too: removed, so the import is all that is read.
    await clearSeries(t.database.db, "fred", code, "US");
    await importObservationsCsv(t.store, {
      text: await load(code),
      indicator: code,
      region: "US",
      now: new Date("2026-01-05T00:00:00Z"),
    });
  }
  // The one svc: series these tests read, derived from the imported UNRATE as `svc import` derives it after importing
  // (reads never do); not the others the imports feed, which no test here reads.
  await deriveOnly(t.store, new Date("2026-01-05T00:00:00Z"), ["svc:sahm_rule"]);
}, 120_000);
afterAll(() => t?.close());

/** All rows of a read, following pages. */
async function readAll(qs: string): Promise<any[]> {
  const out: any[] = [];
  for (let offset = 0; ; offset += 1000) {
    const r = await t.getJson(`/v1/observations?${qs}&order=asc&limit=1000&offset=${offset}`);
    expect(r.status).toBe(200);
    out.push(...r.body.data);
    if (out.length >= r.body.meta.total) return out;
  }
}

const ym = (date: string) => date.slice(0, 7);
function shiftMonth(date: string, months: number): string {
  const d = new Date(`${date.slice(0, 7)}-01T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.toISOString().slice(0, 7);
}
const change = (x: number | null, c: number | null | undefined) =>
  x === null || c === null || c === undefined || c === 0 ? null : ((x - c) / c) * 100;

describe("golden: CPIAUCSL (monthly, with the October 2025 gap)", () => {
  test.skipIf(skip)(label("mom and yoy over the whole series match the raw file"), async () => {
    const byMonth = new Map(raw.CPIAUCSL.map((r) => [ym(r.date), r.value]));
    for (const [transform, lag] of [
      ["mom", 1],
      ["yoy", 12],
    ] as const) {
      const rows = await readAll(`indicator=CPIAUCSL&transform=${transform}`);
      expect(rows).toHaveLength(raw.CPIAUCSL.length);
      rows.forEach((row, k) => {
        const r = raw.CPIAUCSL[k];
        expect(row.date).toBe(r.date);
        const want = change(r.value, byMonth.get(shiftMonth(r.date, -lag)));
        if (want === null) expect(row.value).toBeNull();
        else expect(row.value).toBeCloseTo(want, 10);
      });
    }
    const nov = await t.getJson("/v1/observations?indicator=CPIAUCSL&transform=mom&start_date=2025-10-01");
    expect(nov.body.data.map((x: any) => [x.date, x.value])).toEqual([
      ["2025-11-01", null],
      ["2025-10-01", null],
    ]);
  });
  test.skipIf(skip)(label("annual mean yoy after resampling"), async () => {
    const years = new Map<string, number[]>();
    for (const r of raw.CPIAUCSL)
      if (r.value !== null) years.set(r.date.slice(0, 4), [...(years.get(r.date.slice(0, 4)) ?? []), r.value]);
    const mean = (y: string) => years.get(y)!.reduce((a, b) => a + b, 0) / years.get(y)!.length;
    const rows = await readAll("indicator=CPIAUCSL&frequency=annual&transform=yoy");
    // 2025 has no December row, so the newest (incomplete) year is dropped.
    expect(rows.at(-1).period_start).toBe("2024-01-01");
    expect(rows).toHaveLength(2024 - 1980 + 1);
    for (const row of rows.slice(1)) {
      const y = row.period_start.slice(0, 4);
      expect(row.value).toBeCloseTo(change(mean(y), mean(String(Number(y) - 1)))!, 10);
    }
  });
});

describe("golden: DGS10 (daily, holidays empty)", () => {
  const months = () => {
    const m = new Map<string, number[]>();
    for (const r of raw.DGS10) if (r.value !== null) m.set(ym(r.date), [...(m.get(ym(r.date)) ?? []), r.value]);
    return m;
  };
  test.skipIf(skip)(
    label("monthly mean and last per calendar month; December 2025 (ends on the 30th, a Tuesday) is dropped"),
    async () => {
      const m = months();
      const mean = await readAll("indicator=DGS10&frequency=monthly");
      const last = await readAll("indicator=DGS10&frequency=monthly&resample_method=last");
      const expectedMonths = [...m.keys()].filter((k) => k !== "2025-12");
      expect(mean.map((r) => r.period_start.slice(0, 7))).toEqual(expectedMonths);
      mean.forEach((row, k) => {
        const vals = m.get(expectedMonths[k])!;
        expect(row.value).toBeCloseTo(vals.reduce((a, b) => a + b, 0) / vals.length, 10);
        expect(last[k].value).toBe(vals[vals.length - 1]);
      });
      const meta = (await t.getJson("/v1/observations?indicator=DGS10&frequency=monthly&limit=1")).body.meta.resample;
      expect(meta).toMatchObject({
        source_frequency: "daily",
        target_frequency: "monthly",
        dropped_incomplete_bucket: true,
        dropped_period_start: "2025-12-01",
      });
    },
  );
  test.skipIf(skip)(label("frequency=monthly&transform=yoy over 46 years of daily data"), async () => {
    const m = months();
    const avg = (k: string) => {
      const v = m.get(k);
      return v ? v.reduce((a, b) => a + b, 0) / v.length : null;
    };
    const rows = await readAll("indicator=DGS10&frequency=monthly&transform=yoy");
    for (const row of rows) {
      const want = change(avg(row.period_start.slice(0, 7)), avg(shiftMonth(row.period_start, -12)));
      if (want === null) expect(row.value).toBeNull();
      else expect(row.value).toBeCloseTo(want, 10);
    }
    expect(rows.filter((r) => r.value !== null).length).toBe(rows.length - 12);
  });
  test.skipIf(skip)(label("native daily yoy is refused"), async () => {
    const r = await t.getJson("/v1/observations?indicator=DGS10&transform=yoy");
    expect(r.status).toBe(400);
    expect(r.body.error.message).toContain("frequency=monthly");
  });
});

describe("golden: ICSA (weekly, ending Saturday)", () => {
  test.skipIf(skip)(label("52-week yoy and quarterly sums"), async () => {
    const byDate = new Map(raw.ICSA.map((r) => [r.date, r.value]));
    const yoy = await readAll("indicator=ICSA&transform=yoy");
    yoy.forEach((row) => {
      const prior = new Date(`${row.date}T00:00:00Z`);
      prior.setUTCDate(prior.getUTCDate() - 364);
      const want = change(byDate.get(row.date)!, byDate.get(prior.toISOString().slice(0, 10)));
      if (want === null) expect(row.value).toBeNull();
      else expect(row.value).toBeCloseTo(want, 10);
    });
    const q = new Map<string, number>();
    for (const r of raw.ICSA) {
      const key = `${r.date.slice(0, 4)}-Q${Math.floor((Number(r.date.slice(5, 7)) - 1) / 3) + 1}`;
      q.set(key, (q.get(key) ?? 0) + (r.value ?? 0));
    }
    const sums = await readAll("indicator=ICSA&frequency=quarterly&resample_method=sum");
    // The file ends on 2025-12-27: the next week would be dated 2026-01-03, so 2025Q4 is complete and kept.
    expect(sums.at(-1).period_start).toBe("2025-10-01");
    expect(sums.map((r) => r.value)).toEqual([...q.values()]);
  });
});

describe("golden: svc:sahm_rule from UNRATE", () => {
  test.skipIf(skip)(label("3-month average minus the lowest 3-month average of the previous 12 months"), async () => {
    const u = new Map(raw.UNRATE.map((r) => [ym(r.date), r.value]));
    const m3 = (k: string) => {
      const v = [0, -1, -2].map((d) => u.get(shiftMonth(`${k}-01`, d)));
      return v.some((x) => x === null || x === undefined) ? null : (v[0]! + v[1]! + v[2]!) / 3;
    };
    const rows = await readAll("indicator=svc:sahm_rule");
    expect(rows).toHaveLength(raw.UNRATE.length);
    for (const row of rows) {
      const k = ym(row.date);
      const cur = m3(k);
      const prior = Array.from({ length: 12 }, (_, i) => m3(shiftMonth(`${k}-01`, -(i + 1)))).filter(
        (x): x is number => x !== null,
      );
      const want = cur === null || prior.length === 0 ? null : cur - Math.min(...prior);
      if (want === null) expect(row.value).toBeNull();
      else expect(row.value).toBeCloseTo(want, 10);
    }
    // The July 2024 trigger, widely reported as 0.53: (4.0 + 4.1 + 4.2) / 3 minus the prior year's low average.
    const jul = rows.find((r) => r.date === "2024-07-01");
    expect(jul.value).toBeCloseTo(0.53, 2);
  });
});
