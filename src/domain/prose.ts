// Numbers, units, dates and names written for people, shared by insight facts and signal sentences.
// - Units (the catalog's lower-case unit strings): "percent" values read "4.4%" and their changes read in
//   percentage points ("0.3 percentage points"), never in percent; "percentage points" likewise. Scaled units
//   ("thousands of persons", "billions of dollars, SAAR") are multiplied out and written compactly from a million up
//   ("159.3 million persons", "$27.4 trillion (SAAR)"); dollars get a "$". Any other unit is written after the
//   number ("421.1 parts per million").
// - Decimals: the data's own precision (the most decimals among the values shown, at most 3), so a rate published
//   to one decimal reads "4.4%", a spread to two "-0.89"; compact figures keep three significant digits.
// - Dates by frequency: daily "July 5, 2022", weekly "the week of January 6, 2024", monthly "October 2025",
//   quarterly "the third quarter of 2025", annual "2025".
// - Tone: whether a move is good news depends on the indicator (up_is_good): a rise in unemployment is bad news,
//   a rise in employment good; null polarity is neutral.
import type { Frequency } from "./calendar";

export type Direction = "up" | "down";
export type Tone = "positive" | "negative" | "neutral";

/** positive when the move is good news for this indicator, negative when bad, neutral when it has no polarity. */
export function toneOf(direction: Direction | null, upIsGood: boolean | null): Tone {
  if (direction === null || upIsGood === null) return "neutral";
  return (direction === "up") === upIsGood ? "positive" : "negative";
}

// ---------------------------------------------------------------------------------------------------------------
// Units

export type UnitStyle =
  /** A rate in percent (suffix: " of GDP"); changes are percentage points. */
  | { kind: "percent"; suffix: string }
  /** A difference of rates; values and changes are percentage points. */
  | { kind: "points" }
  /** Dollars, times `scale`; `per`: " per hour"; `note`: " (SAAR)", " (chained 2017 dollars)". */
  | { kind: "money"; scale: number; per: string; note: string }
  /** A count, times `scale`, of `noun` ("persons", "" for a bare count). */
  | { kind: "count"; scale: number; noun: string; note: string }
  /** Anything else: the number, then the unit. */
  | { kind: "plain"; unit: string };

const SCALES: Record<string, number> = {
  thousand: 1e3,
  thousands: 1e3,
  million: 1e6,
  millions: 1e6,
  billion: 1e9,
  billions: 1e9,
};

export function unitStyle(unit: string | null): UnitStyle {
  const u = (unit ?? "").trim();
  const pct = /^percent( of .+)?$/.exec(u);
  if (pct) return { kind: "percent", suffix: pct[1] ?? "" };
  if (u === "percentage points") return { kind: "points" };
  // "billions of dollars, SAAR": the adjustment after the comma becomes a note.
  const [body, ...rest] = u.split(", ");
  const adj = rest.length ? ` (${rest.join(", ")})` : "";
  const scaled = /^(thousands?|millions?|billions?)(?: of)?(?: (.+))?$/.exec(body);
  const scale = scaled ? SCALES[scaled[1]] : 1;
  const what = scaled ? (scaled[2] ?? "") : body;
  const money = /^(.*?)\s*(?:U\.S\. |US )?dollars( per .+)?$/.exec(what);
  if (money) {
    const kind = money[1].trim();
    const note = kind && kind !== "current" ? ` (${kind} dollars${rest.length ? `, ${rest.join(", ")}` : ""})` : adj;
    return { kind: "money", scale, per: money[2] ?? "", note };
  }
  if (scaled || what === "persons" || what === "number")
    return { kind: "count", scale, noun: what === "number" ? "" : what, note: adj };
  return { kind: "plain", unit: u };
}

/** Whether changes of this unit are percentage points (a rate or a difference of rates). */
export function isRateUnit(unit: string | null): boolean {
  const k = unitStyle(unit).kind;
  return k === "percent" || k === "points";
}

/** The most decimals among the values (their shortest decimal form), at most 3. */
export function decimalsOf(values: readonly number[]): number {
  let d = 0;
  for (const v of values) {
    if (!Number.isFinite(v)) continue;
    const s = String(Math.abs(v));
    if (s.includes("e")) return 3;
    const dot = s.indexOf(".");
    if (dot >= 0) d = Math.max(d, s.length - dot - 1);
    if (d >= 3) return 3;
  }
  return d;
}

/** Fixed decimals with thousands separators: 1234567.891, 2 -> "1,234,567.89". */
export function groupDigits(x: number, decimals: number): string {
  const fixed = Math.abs(x).toFixed(decimals);
  const [int, frac] = fixed.split(".");
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const sign = x < 0 && Number(fixed) !== 0 ? "-" : "";
  return `${sign}${grouped}${frac ? `.${frac}` : ""}`;
}

/** From a million up: "1.03 million", "159.3 million", "27.4 trillion" (three significant digits). */
function compact(x: number): string | null {
  const a = Math.abs(x);
  const [div, word] =
    a >= 1e12 ? [1e12, "trillion"] : a >= 1e9 ? [1e9, "billion"] : a >= 1e6 ? [1e6, "million"] : [0, ""];
  if (!div) return null;
  const v = x / div;
  return `${groupDigits(v, Math.abs(v) < 10 ? 2 : 1)} ${word}`;
}

/** A count or amount: compact from a million up, else grouped with the data's decimals. */
function amount(x: number, decimals: number): string {
  return compact(x) ?? groupDigits(x, decimals);
}

/** A value in its unit: "4.4%", "-0.89 percentage points", "$31.25 per hour", "159.3 million persons". */
export function formatValue(x: number, unit: string | null, decimals: number): string {
  const s = unitStyle(unit);
  switch (s.kind) {
    case "percent":
      return `${groupDigits(x, decimals)}%${s.suffix}`;
    case "points":
      return `${groupDigits(x, decimals)} ${pointsWord(x, decimals)}`;
    case "money": {
      const v = x * s.scale;
      const body = amount(Math.abs(v), s.scale > 1 ? 0 : Math.max(decimals, v % 1 === 0 ? 0 : 2));
      return `${v < 0 ? "-" : ""}$${body}${s.per}${s.note}`;
    }
    case "count": {
      const body = amount(x * s.scale, s.scale > 1 ? 0 : decimals);
      return `${body}${s.noun ? ` ${s.noun}` : ""}${s.note}`;
    }
    case "plain":
      // An index reads "258.08 (index 1982-1984=100)"; other units follow the number.
      if (/^index\b/.test(s.unit)) return `${groupDigits(x, decimals)} (${s.unit})`;
      return s.unit ? `${groupDigits(x, decimals)} ${s.unit}` : groupDigits(x, decimals);
  }
}

function pointsWord(x: number, decimals: number): string {
  return Math.abs(Number(Math.abs(x).toFixed(decimals))) === 1 && decimals === 0
    ? "percentage point"
    : "percentage points";
}

/** The size of a change (no sign: the verb carries it): "0.3 percentage points", "254,000 persons", "$1.2 billion". */
export function formatChange(dx: number, unit: string | null, decimals: number): string {
  const a = Math.abs(dx);
  const s = unitStyle(unit);
  if (s.kind === "percent" || s.kind === "points") return `${groupDigits(a, decimals)} ${pointsWord(a, decimals)}`;
  if (s.kind === "plain" && /^index\b/.test(s.unit)) return `${groupDigits(a, decimals)} index points`;
  // The value's note ("(SAAR)") is said once, with the value.
  if (s.kind === "money" || s.kind === "count") return formatValue(a, unit, decimals).replace(s.note, "");
  return formatValue(a, unit, decimals);
}

/** A change with its sign, for comparing averages: "+0.25 percentage points", "-$1.2 billion", "+0.2%". */
export function formatSignedChange(dx: number, unit: string | null, decimals: number): string {
  const body = formatChange(dx, unit, decimals);
  return Number(Math.abs(dx).toFixed(decimals)) === 0 ? body : `${dx < 0 ? "-" : "+"}${body}`;
}

/** A percent change: "2.3%", "0.04%" (two decimals below a tenth), "-1.5%". */
export function formatPercent(p: number): string {
  return `${groupDigits(p, p !== 0 && Math.abs(p) < 0.1 ? 2 : 1)}%`;
}

// ---------------------------------------------------------------------------------------------------------------
// Dates

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
const QUARTERS = ["first", "second", "third", "fourth"];

/** A date as its period reads at the series' frequency. */
export function formatDate(date: string, frequency: Frequency): string {
  const y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7));
  const d = Number(date.slice(8, 10));
  switch (frequency) {
    case "daily":
      return `${MONTHS[m - 1]} ${d}, ${y}`;
    case "weekly":
      return `the week of ${MONTHS[m - 1]} ${d}, ${y}`;
    case "monthly":
      return `${MONTHS[m - 1]} ${y}`;
    case "quarterly":
      return `the ${QUARTERS[Math.floor((m - 1) / 3)]} quarter of ${y}`;
    case "annual":
      return String(y);
  }
}

/** "in October 2025", "on July 5, 2022". */
export function atDate(date: string, frequency: Frequency): string {
  return `${frequency === "daily" ? "on" : "in"} ${formatDate(date, frequency)}`;
}

/** The word for one period of the frequency: "month", "quarter", "year", "week", "day". */
export function periodNoun(frequency: Frequency, count = 1): string {
  const noun = { daily: "day", weekly: "week", monthly: "month", quarterly: "quarter", annual: "year" }[frequency];
  return count === 1 ? noun : `${noun}s`;
}

/** "monthly", "quarterly", "annual", "weekly", "daily": an adjective of the frequency. */
export function frequencyAdjective(frequency: Frequency): string {
  return frequency;
}

export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix =
    tens >= 11 && tens <= 13 ? "th" : n % 10 === 1 ? "st" : n % 10 === 2 ? "nd" : n % 10 === 3 ? "rd" : "th";
  return `${n}${suffix}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Names

// Words kept capitalised inside a sentence (proper names in catalog indicator names).
const PROPER = new Set(["Treasury", "Federal", "Reserve", "Mauna", "Loa", "Cushing", "Gapminder", "Sahm", "American"]);
// A name ending in one of these reads with "the": "the unemployment rate", "the consumer price index".
const ARTICLE_NOUNS = new Set([
  "rate",
  "index",
  "yield",
  "spread",
  "price",
  "ratio",
  "indicator",
  "gap",
  "concentration",
  "population",
  "level",
  "balance",
  "deficit",
  "debt",
  "production",
  "supply",
  "expectancy",
  "prevalence",
  "force",
  "estimate",
]);

/**
 * An indicator name as a sentence subject: without parentheticals and "by State"-style suffixes, in sentence case
 * (acronyms and proper names kept), with "the" where the name is a singular measure. "Unemployment Rate by State
 * (LAUS, seasonally adjusted)" -> "the unemployment rate"; "All Employees, Total Nonfarm" -> "all employees, total
 * nonfarm"; "Unemployed Persons" -> "unemployed persons".
 */
export function indicatorPhrase(name: string): string {
  const clean = name
    .replace(/\s*\([^)]*\)/g, "")
    .replace(/,?\s+by (State|County|Country|State and County)$/i, "")
    .trim();
  const words = clean.split(/\s+/).map((w) => {
    if (/^\d+-[A-Z][a-z]+$/.test(w)) return w.toLowerCase(); // "10-Year" -> "10-year"
    return /^[A-Z][a-z]+[,:]?$/.test(w) && !PROPER.has(w.replace(/[,:]$/, "")) ? w.toLowerCase() : w;
  });
  const phrase = words.join(" ");
  const last = words[words.length - 1]?.toLowerCase() ?? "";
  return !/[,:]/.test(clean) && ARTICLE_NOUNS.has(last) ? `the ${phrase}` : phrase;
}

/** The subject of a sentence about a series: "The unemployment rate in Texas". */
export function seriesSubject(indicatorName: string, place: string): string {
  return capitalise(`${indicatorPhrase(indicatorName)} in ${place}`);
}

export function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

const WITH_THE =
  /^(United |Republic of |Netherlands$|Philippines$|Bahamas$|Gambia$|District of Columbia$|Czech Republic$|Dominican Republic$|Central African Republic$)/;

/** A region as prose names it: "the United States", "Texas", "Los Angeles County, California". */
export function placeName(region: { name: string; type: string }, parentName?: string | null): string {
  if (region.type === "county" && parentName) return `${region.name}, ${parentName}`;
  return WITH_THE.test(region.name) ? `the ${region.name}` : region.name;
}

/** Fills `{name}` placeholders; a placeholder without a value is left as written (a template bug shows, not hides). */
export function renderTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{([a-z_]+)\}/g, (whole, key: string) => values[key] ?? whole);
}
