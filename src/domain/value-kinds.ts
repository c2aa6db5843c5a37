// What a series' values are (pure). Every catalog entry states it (meta.values: db/seed/catalog-data/value-kinds.ts),
// and whatever picks arithmetic for a series reads it: ask's answers and briefings, insight facts, the landing cards.
// - level: an amount held or flowing over a period (GDP, payrolls, population, births in a year, a price in dollars).
//   Its growth is its percent change over 12 months; its change is the difference.
// - index: a price or quantity index (CPI, industrial production). As a level: growth is the percent change.
// - rate: a rate, share, ratio or spread (the unemployment rate, a yield, births per woman, debt as % of GDP). Its
//   change is a difference in its own unit (percentage points for a percent); a percent change of it means nothing.
// - change: a change already computed over `spanMonths` (GDP growth, annual %; inflation, annual %; population change
//   and net migration over a year). The value is itself the growth or change over its span: a growth question is
//   answered with the value as published, never with a change of the change or its percent change.
// - binary: a 0/1 state (the NBER recession indicator): read as yes or no.
// Entries that state nothing (never the curated catalog: its seed refuses that) are read from their unit: "percent",
// "percentage points", "ratio", "births per woman" a rate; "index ..." an index; "binary ..." binary; else a level.

export const VALUE_KINDS = ["level", "index", "rate", "change", "binary"] as const;
export type ValueKind = (typeof VALUE_KINDS)[number];

export type ValueSpec = {
  kind: ValueKind /** change only: the span the change is over, in months. */;
  spanMonths?: number;
};

const RATE_UNIT = /^(percent( of .+)?|percentage points|ratio|births per woman)$/;

/** Read from a unit, for an entry that states nothing. */
export function inferValueSpec(unit: string | null): ValueSpec {
  const u = (unit ?? "").trim().toLowerCase();
  if (RATE_UNIT.test(u)) return { kind: "rate" };
  if (u.startsWith("index")) return { kind: "index" };
  if (u.startsWith("binary")) return { kind: "binary" };
  return { kind: "level" };
}

/** An entry's stated values (meta.values: { kind, span_months? }), else what its unit says. */
export function valueSpecOf(entry: { unit: string | null; meta?: Record<string, unknown> | null }): ValueSpec {
  const stated = entry.meta?.values as { kind?: unknown; span_months?: unknown } | undefined;
  if (stated && typeof stated.kind === "string" && (VALUE_KINDS as readonly string[]).includes(stated.kind)) {
    const kind = stated.kind as ValueKind;
    return kind === "change" && typeof stated.span_months === "number"
      ? { kind, spanMonths: stated.span_months }
      : { kind };
  }
  return inferValueSpec(entry.unit);
}

/** How a spec is stored in an entry's meta. */
export function valuesMeta(spec: ValueSpec): { kind: ValueKind; span_months?: number } {
  return spec.spanMonths === undefined ? { kind: spec.kind } : { kind: spec.kind, span_months: spec.spanMonths };
}

/** Whether a percent change of the values means anything: of a level or an index only. */
export function percentChangeApplies(spec: ValueSpec): boolean {
  return spec.kind === "level" || spec.kind === "index";
}

/**
 * How "how fast is it growing" is answered for these values:
 * - percent_change: the percent change over 12 months (a level, an index);
 * - stated: the value itself, a change over `months` as published (GDP growth, inflation as annual %);
 * - difference: the difference over 12 months in the values' unit (a rate: percentage points);
 * - none: a 0/1 state has no growth.
 */
export type GrowthMethod =
  | { method: "percent_change"; months: 12 }
  | { method: "stated"; months: number }
  | { method: "difference"; months: 12 }
  | { method: "none" };

export function growthMethod(spec: ValueSpec): GrowthMethod {
  if (percentChangeApplies(spec)) return { method: "percent_change", months: 12 };
  if (spec.kind === "change") return { method: "stated", months: spec.spanMonths ?? 12 };
  if (spec.kind === "rate") return { method: "difference", months: 12 };
  return { method: "none" };
}

const SPAN = (months: number) =>
  months % 12 === 0
    ? months === 12
      ? "a year"
      : `${months / 12} years`
    : months === 1
      ? "a month"
      : `${months} months`;

/** One sentence saying what the values are and how they are changed, for the indicator detail and the docs. */
export function describeValues(spec: ValueSpec, unit: string | null): string {
  const points = (unit ?? "").startsWith("percent") ? "percentage points" : `its unit (${unit ?? "none"})`;
  switch (spec.kind) {
    case "level":
      return "A level: its growth is its percent change (over 12 months unless asked otherwise), its change the difference.";
    case "index":
      return "An index: its growth is its percent change (over 12 months unless asked otherwise); the level itself means little alone.";
    case "rate":
      return `A rate or share: its change is a difference in ${points}, never a percent change.`;
    case "change":
      return `A change already computed over ${SPAN(spec.spanMonths ?? 12)}: the value is itself the growth or change, never given a percent change or read as a level.`;
    case "binary":
      return "A 0/1 state (1 = yes): read as yes or no, never changed.";
  }
}

/** Why a stated spec does not fit its unit (empty when it does): the catalog's seed refuses a mismatch. */
export function valueSpecProblems(spec: ValueSpec, unit: string | null): string[] {
  const u = (unit ?? "").toLowerCase();
  const out: string[] = [];
  if (spec.kind === "index" && !u.startsWith("index")) out.push(`an index needs an index unit, not '${unit}'`);
  if (spec.kind !== "index" && u.startsWith("index")) out.push(`unit '${unit}' is an index, stated as ${spec.kind}`);
  if (spec.kind === "binary" && !u.startsWith("binary")) out.push(`a 0/1 state needs a binary unit, not '${unit}'`);
  if (spec.kind === "level" && RATE_UNIT.test(u)) out.push(`unit '${unit}' is a rate, stated as a level`);
  if (spec.kind === "rate" && !RATE_UNIT.test(u))
    out.push(`a rate needs a rate unit (percent, percentage points, ratio, births per woman), not '${unit}'`);
  if (spec.kind === "change" && !(Number.isInteger(spec.spanMonths) && spec.spanMonths! > 0))
    out.push("a change needs its span in months");
  if (spec.kind !== "change" && spec.spanMonths !== undefined) out.push("only a change has a span");
  return out;
}
