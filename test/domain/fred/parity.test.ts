// Parity with FRED's arithmetic on the real files in ../shared/data/fred-*: every `units` value and every
// `frequency` x `aggregation_method` pair, for a monthly (UNRATE, CPIAUCSL), a quarterly (GDPC1), a weekly (ICSA)
// and a daily (DGS10) series of the January 2026 vintage, and for PAYEMS, WALCL (weekly, Wednesday) and T10YIE of
// the June 2026 one. The expected values are computed here, independently of src/domain/fred: decimal
// strings read into BigInt, periods found with Date, means rounded half away from zero in integers.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { fredObservations, type FredSeriesData } from "../../../src/domain/fred/observations";
import { nativeFrequency } from "../../../src/domain/fred/frequency";
import { parseObservationsQuery } from "../../../src/domain/fred/query";
import { seriesDecimals } from "../../../src/domain/fred/units";
import { RevisionHistory } from "../../../src/domain/fred/vintages";
import { sharedDataPath } from "../../support/shared-data";

type Raw = { date: string; text: string | null };
const VINTAGE = "2026-01-02";
const TODAY = "2026-11-29";

function readRaw(code: string, folder: string): Raw[] | null {
  const path = sharedDataPath(folder, `${code}.csv`);
  if (!path) return null;
  return readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((line) => {
      const [date, value] = line.split(",");
      return { date, text: value === "" || value === "." ? null : value };
    });
}

// Fraction digits of a decimal string once trailing zeros go ("394000.0" has none, "10.50" one).
const fractionDigits = (t: string) => (t.includes(".") ? t.split(".")[1].replace(/0+$/, "").length : 0);

function scaled(t: string, d: number): bigint {
  const neg = t.startsWith("-");
  const [i, f = ""] = (neg ? t.slice(1) : t).split(".");
  const v = BigInt(i + (f + "0".repeat(d)).slice(0, d));
  return neg ? -v : v;
}

function print(v: bigint, d: number): string {
  const neg = v < 0n;
  const s = (neg ? -v : v).toString().padStart(d + 1, "0");
  const body = d === 0 ? s : `${s.slice(0, s.length - d)}.${s.slice(s.length - d)}`;
  return neg ? `-${body}` : body;
}

const dayMs = 86_400_000;
const utc = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function label(date: string, freq: string): string {
  const t = new Date(utc(date));
  const y = t.getUTCFullYear();
  const m = t.getUTCMonth();
  switch (freq) {
    case "m":
      return iso(Date.UTC(y, m, 1));
    case "q":
      return iso(Date.UTC(y, m - (m % 3), 1));
    case "sa":
      return iso(Date.UTC(y, m < 6 ? 0 : 6, 1));
    case "a":
      return iso(Date.UTC(y, 0, 1));
    case "w": // week ending Friday
      return iso(utc(date) + ((5 - t.getUTCDay() + 7) % 7) * dayMs);
    case "bw": {
      // fortnight ending Wednesday, Wednesdays an even number of weeks after 1970-01-07
      const wed = utc(date) + ((3 - t.getUTCDay() + 7) % 7) * dayMs;
      const weeks = Math.round((wed - utc("1970-01-07")) / (7 * dayMs));
      return iso(weeks % 2 === 0 ? wed : wed + 7 * dayMs);
    }
  }
  throw new Error(freq);
}

const MIN_VALUES: Record<string, Record<string, number>> = {
  d: { w: 4, bw: 8, m: 17, q: 52, sa: 104, a: 208 },
  w: { bw: 2, m: 3, q: 10, sa: 20, a: 39 },
  m: { q: 3, sa: 6, a: 12 },
  q: { sa: 2, a: 4 },
};

/** Aggregated (date, printed value or null), FRED's rules, computed here. */
function expectedAggregate(
  raw: Raw[],
  native: string,
  target: string,
  method: string,
  d: number,
): { date: string; text: string | null }[] {
  const groups: { date: string; vals: bigint[] }[] = [];
  for (const r of raw) {
    const key = label(r.date, target);
    if (groups.length === 0 || groups[groups.length - 1].date !== key) groups.push({ date: key, vals: [] });
    if (r.text !== null) groups[groups.length - 1].vals.push(scaled(r.text, d));
  }
  const min = MIN_VALUES[native][target];
  return groups
    .filter((g, i) => !((i === 0 || i === groups.length - 1) && g.vals.length < min))
    .map((g) => {
      if (g.vals.length === 0) return { date: g.date, text: null };
      const sum = g.vals.reduce((a, b) => a + b, 0n);
      const n = BigInt(g.vals.length);
      const mean = sum >= 0n ? (2n * sum + n) / (2n * n) : -((-2n * sum + n) / (2n * n));
      const v = method === "sum" ? sum : method === "eop" ? g.vals[g.vals.length - 1] : mean;
      return { date: g.date, text: print(v, d) };
    });
}

const N: Record<string, number> = { d: 260, w: 52, bw: 26, m: 12, q: 4, sa: 2, a: 1 };

/** units applied to printed values at frequency `f`; comparators by calendar for m/q/sa/a, by row otherwise. */
function expectedUnits(
  rows: { date: string; text: string | null }[],
  units: string,
  f: string,
  d: number,
): { date: string; value: number | null; exact?: string }[] {
  const n = N[f];
  const lag = units === "ch1" || units === "pc1" ? n : 1;
  const key = (date: string) => {
    const t = new Date(utc(date));
    const months = t.getUTCFullYear() * 12 + t.getUTCMonth();
    return f === "m" ? months : f === "q" ? months / 3 : f === "sa" ? months / 6 : f === "a" ? months / 12 : 0;
  };
  const byKey = new Map(rows.map((r, i) => [key(r.date), i]));
  return rows.map((r, i) => {
    const j = f === "d" || f === "w" || f === "bw" ? i - lag : (byKey.get(key(r.date) - lag) ?? -1);
    const xText = r.text;
    const pText = j >= 0 ? rows[j].text : null;
    if (units === "lin") return { date: r.date, value: xText === null ? null : Number(xText), exact: xText ?? "." };
    if (units === "log")
      return { date: r.date, value: xText !== null && Number(xText) > 0 ? Math.log(Number(xText)) : null };
    if (xText === null || pText === null)
      return { date: r.date, value: null, exact: units === "chg" || units === "ch1" ? "." : undefined };
    const x = Number(xText);
    const p = Number(pText);
    switch (units) {
      case "chg":
      case "ch1":
        return { date: r.date, value: x - p, exact: print(scaled(xText, d) - scaled(pText, d), d) };
      case "pch":
      case "pc1":
        return { date: r.date, value: p === 0 ? null : (x / p - 1) * 100 };
      case "pca":
        return { date: r.date, value: p === 0 || x / p < 0 ? null : (Math.pow(x / p, n) - 1) * 100 };
      case "cch":
        return { date: r.date, value: x > 0 && p > 0 ? Math.log(x / p) * 100 : null };
      case "cca":
        return { date: r.date, value: x > 0 && p > 0 ? Math.log(x / p) * 100 * n : null };
    }
    throw new Error(units);
  });
}

function served(code: string, raw: Raw[], catalogFrequency: string, params: Record<string, string>) {
  const points = raw.map((r) => ({ date: r.date, value: r.text === null ? null : Number(r.text) }));
  const s: FredSeriesData = {
    id: code,
    native: nativeFrequency(catalogFrequency, points)!,
    decimals: seriesDecimals(points.map((p) => p.value)),
    history: new RevisionHistory(points.map((p) => ({ ...p, vintage: VINTAGE }))),
  };
  const q = parseObservationsQuery({ series_id: code, file_type: "json", ...params }, TODAY);
  if (!q.ok) throw new Error(q.error.message);
  const a = fredObservations(q.value, s);
  if ("status" in a) throw new Error(a.message);
  if (a.kind !== "periods") throw new Error("expected periods");
  return a.rows;
}

function compare(
  actual: { date: string; value: string }[],
  expected: { date: string; value: number | null; exact?: string }[],
  decimalsOfTransform: boolean,
) {
  expect(actual.map((r) => r.date)).toEqual(expected.map((r) => r.date));
  for (let i = 0; i < expected.length; i++) {
    const e = expected[i];
    const a = actual[i].value;
    if (e.exact !== undefined) expect(`${e.date} ${a}`).toBe(`${e.date} ${e.exact}`);
    else if (e.value === null) expect(`${e.date} ${a}`).toBe(`${e.date} .`);
    else {
      if (decimalsOfTransform) expect(a).toMatch(/^-?\d+\.\d{5}$/);
      expect(Math.abs(Number(a) - e.value)).toBeLessThanOrEqual(5.0000001e-6 * Math.max(1, Math.abs(e.value) / 1e6));
    }
  }
}

const JAN = "fred-macro-us";
const JUNE = "fred-national-2026-vintage"; // missing observations are absent rows there, not empty values
const SERIES = [
  { code: "UNRATE", folder: JAN, freq: "monthly", f: "m", targets: ["q", "sa", "a"] },
  { code: "CPIAUCSL", folder: JAN, freq: "monthly", f: "m", targets: ["q", "sa", "a"] },
  { code: "GDPC1", folder: JAN, freq: "quarterly", f: "q", targets: ["sa", "a"] },
  { code: "ICSA", folder: JAN, freq: "weekly", f: "w", targets: ["bw", "m", "q", "sa", "a"] },
  { code: "DGS10", folder: JAN, freq: "daily", f: "d", targets: ["w", "bw", "m", "q", "sa", "a"] },
  { code: "PAYEMS", folder: JUNE, freq: "monthly", f: "m", targets: ["q", "a"] },
  { code: "WALCL", folder: JUNE, freq: "weekly", f: "w", targets: ["m", "q", "a"] },
  { code: "T10YIE", folder: JUNE, freq: "daily", f: "d", targets: ["w", "m", "a"] },
] as const;
const UNITS = ["lin", "chg", "ch1", "pch", "pc1", "pca", "cch", "cca", "log"];
const METHODS = ["avg", "sum", "eop"];

for (const s of SERIES) {
  const raw = readRaw(s.code, s.folder);
  describe.skipIf(!raw)(`${s.folder}/${s.code} (${s.freq})`, () => {
    const rows = raw ?? [];
    const d = Math.max(...rows.filter((r) => r.text !== null).map((r) => fractionDigits(r.text!)));
    const native = rows.map((r) => ({ date: r.date, text: r.text === null ? null : print(scaled(r.text, d), d) }));
    for (const units of UNITS) {
      test(`units=${units} at its own frequency`, () => {
        compare(
          served(s.code, rows, s.freq, { units }),
          expectedUnits(native, units, s.f, d),
          !["lin", "chg", "ch1"].includes(units),
        );
      });
    }
    for (const target of s.targets) {
      for (const method of METHODS) {
        test(`frequency=${target} aggregation_method=${method}`, () => {
          const expected = expectedAggregate(rows, s.f, target, method, d).map((r) => ({
            date: r.date,
            value: null,
            exact: r.text ?? ".",
          }));
          compare(served(s.code, rows, s.freq, { frequency: target, aggregation_method: method }), expected, false);
        });
      }
      // Units after aggregation, annualised by the aggregated frequency (pca, cca) and a year back in its periods.
      for (const units of ["pc1", "pca", "cca", "chg"]) {
        test(`frequency=${target} then units=${units}`, () => {
          const agg = expectedAggregate(rows, s.f, target, "avg", d);
          compare(
            served(s.code, rows, s.freq, { frequency: target, units }),
            expectedUnits(agg, units, target, d),
            units !== "chg",
          );
        });
      }
    }
  });
}
