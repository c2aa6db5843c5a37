// The words of a chart of one or more series. Pure. What they say, by definition:
// - the title: the series' name, or the indicators' names, and the place when there is one ("Unemployment Rate:
//   Texas"); its short form uses each series' short name;
// - the subtitle: the unit when every series has the same one (several units are named over their own axes or
//   panels), the source and attribution line, and what the grey bands are when there are any;
// - each series' newest valued point as "<value> (<period>)", the period written as people read it for the
//   frequency ("May 2026", "2026 Q2", "2026", "May 4, 2026");
// - the SVG's <title> and <desc>: the full title, and the series, places, period and newest values in a sentence.
import type { Frequency } from "./calendar";

export type ChartPoint = { date: string; value: number | null };
export type ChartSeries = {
  /** What the legend calls it: the place when one indicator is compared across places, else the indicator. */
  label: string;
  name: string;
  /** The name as a card or a short title says it; absent: the name. */
  shortName?: string;
  place: string;
  unit: string | null;
  frequency: Frequency;
  points: ChartPoint[];
};
export type Band = { start: string; end: string };
/** `recessionsFrom`: the first month the recession indicator covers (no band can be drawn before it). */
/** `bare`: no title, subtitle or source line drawn (a card that prints them beside the chart); <title> and <desc> stay. */
export type ChartInput = {
  series: ChartSeries[];
  attribution: string;
  recessions: Band[];
  recessionsFrom?: string;
  width: number;
  height: number;
  bare?: boolean;
};

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A period as people read it at its frequency: "May 2026", "2026 Q2", "2026", "May 4, 2026" (weekly and daily). */
export function formatPeriod(date: string, frequency: Frequency): string {
  const [y, m, d] = [date.slice(0, 4), Number(date.slice(5, 7)), Number(date.slice(8, 10))];
  if (frequency === "annual") return y;
  if (frequency === "quarterly") return `${y} Q${Math.floor((m - 1) / 3) + 1}`;
  if (frequency === "monthly") return `${MONTHS[m - 1]} ${y}`;
  return `${MONTHS[m - 1]} ${d}, ${y}`;
}

/** A number as a label: at most 2 decimals (3 significant digits for small magnitudes), thousands grouped. */
export function formatValue(v: number): string {
  const abs = Math.abs(v);
  const digits = abs >= 100 ? 1 : abs >= 1 ? 2 : 3;
  return v.toLocaleString("en-US", { maximumFractionDigits: abs >= 10_000 ? 0 : digits });
}

/** Text for XML character data and attribute values. */
export function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);
}

/** The series' newest point with a value, or null. */
export function newest(s: ChartSeries): ChartPoint | null {
  for (let k = s.points.length - 1; k >= 0; k--) if (s.points[k]!.value !== null) return s.points[k]!;
  return null;
}

/** "4.3 (May 2026)": the newest value and its period, or "no value". */
export function newestText(s: ChartSeries): string {
  const p = newest(s);
  return p ? `${formatValue(p.value!)} (${formatPeriod(p.date, s.frequency)})` : "no value";
}

/** The first and last dates drawn, over every series. */
export function span(input: ChartInput): { from: string; to: string } {
  const dates = input.series.flatMap((s) =>
    s.points.length ? [s.points[0]!.date, s.points[s.points.length - 1]!.date] : [],
  );
  return { from: dates.reduce((a, b) => (b < a ? b : a)), to: dates.reduce((a, b) => (b > a ? b : a)) };
}

export const distinct = <T>(xs: T[]) => [...new Set(xs)];

/** A place as a heading or legend names it: "United States", not "the United States". */
export const placeHeading = (place: string) => place.replace(/^the /, "");

/** The unit as an axis, panel or subtitle names it. */
export const unitText = (s: ChartSeries) => s.unit ?? "no unit";

/** The units drawn, in the order of their first series. */
export const unitsOf = (input: ChartInput) => distinct(input.series.map(unitText));

const placesOf = (input: ChartInput) => distinct(input.series.map((s) => placeHeading(s.place)));

function titleOf(input: ChartInput, names: string[]): string {
  const places = placesOf(input);
  // One place: "Name: Place". Several: the places are the legend's.
  return places.length === 1 ? `${distinct(names).join(", ")}: ${places[0]}` : distinct(names).join(", ");
}

/** Each series' short name; the full names when two different names would share one. */
export function shortNames(input: ChartInput): string[] {
  const short = input.series.map((s) => s.shortName ?? s.name);
  const clash = input.series.some((s, i) => input.series.some((t, j) => t.name !== s.name && short[i] === short[j]));
  return clash ? input.series.map((s) => s.name) : short;
}

/** What the legend calls each series: its place when places are compared, else its short name. */
export function legendLabels(input: ChartInput): string[] {
  return placesOf(input).length > 1 ? input.series.map((s) => s.label) : shortNames(input);
}

/**
 * The title and its short form, the subtitle lines, and the <title> and <desc> of the SVG (plain text: the SVG
 * writer escapes it).
 */
export function chartText(input: ChartInput): {
  title: string;
  shortTitle: string;
  subtitle: string[];
  shortSubtitle: string[];
  desc: string;
} {
  const { from, to } = span(input);
  const f = input.series[0]!.frequency;
  const latest = input.series.map((s) => `${s.label} ${newestText(s)}`);
  const n = input.recessions.length;
  const since =
    input.recessionsFrom && input.recessionsFrom > from
      ? `, held from ${formatPeriod(input.recessionsFrom, "monthly")}`
      : "";
  const shaded = n > 0 ? `Shaded: US recessions (NBER, FRED USREC${since}).` : "";
  const desc = `Line chart of ${input.series.map((s) => `${s.name} in ${s.place}`).join("; ")}, ${formatPeriod(from, f)} to ${formatPeriod(to, f)}. Newest: ${latest.join("; ")}.${shaded ? ` ${shaded.replace("Shaded: US recessions", `Shaded: ${n} US recession period${n > 1 ? "s" : ""}`)}` : ""} ${input.attribution}`;
  const units = unitsOf(input);
  const subtitle = [...(units.length === 1 ? units : []), input.attribution];
  return {
    title: titleOf(
      input,
      input.series.map((s) => s.name),
    ),
    shortTitle: titleOf(input, shortNames(input)),
    subtitle: [...subtitle, ...(shaded ? [shaded] : [])],
    shortSubtitle: [...subtitle, ...(shaded ? ["Shaded: US recessions."] : [])],
    desc,
  };
}
