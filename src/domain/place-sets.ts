// Places as sets (pure): the places of one kind (the states, the counties of a state, the countries) read at one
// period, ordered, cut to the top or bottom N, or filtered by a threshold.
// - Order: highest first for "max", lowest first for "min"; equal values are broken by name so the order is stable.
// - Top N with ties: the N first, and every place tied with the N-th (three places tied for the top of a "which
//   state" question are all named).
// - A threshold: "above 5%" keeps value > 5, "at least 5" value >= 5, "below" <, "at most" <=. The threshold is in
//   the series' unit as written: "5%" of a percent series is 5; "1 million" of a count of persons is 1,000,000; a
//   count in thousands ("thousands of persons") compares the threshold divided by 1,000.
export type Ranked = { code: string; place: string; value: number };
export type Order = "max" | "min";
export type Comparison = ">" | ">=" | "<" | "<=";
export type Threshold = { op: Comparison; value: number };

export function ordered(values: readonly Ranked[], dir: Order): Ranked[] {
  return [...values].sort(
    (a, b) => (dir === "max" ? b.value - a.value : a.value - b.value) || a.place.localeCompare(b.place),
  );
}

/** The first `n` places in order and every place tied with the n-th. */
export function topWithTies(values: readonly Ranked[], dir: Order, n: number): Ranked[] {
  const sorted = ordered(values, dir);
  if (sorted.length <= n) return sorted;
  const last = sorted[n - 1].value;
  let end = n;
  while (end < sorted.length && sorted[end].value === last) end++;
  return sorted.slice(0, end);
}

export function passes(value: number, t: Threshold): boolean {
  switch (t.op) {
    case ">":
      return value > t.value;
    case ">=":
      return value >= t.value;
    case "<":
      return value < t.value;
    case "<=":
      return value <= t.value;
  }
}

/** The places that pass the threshold, in the order it points to (above: highest first; below: lowest first). */
export function filtered(values: readonly Ranked[], t: Threshold): Ranked[] {
  return ordered(
    values.filter((v) => passes(v.value, t)),
    t.op.startsWith(">") ? "max" : "min",
  );
}

const SCALE_WORDS: Record<string, number> = {
  thousand: 1e3,
  k: 1e3,
  million: 1e6,
  m: 1e6,
  billion: 1e9,
  bn: 1e9,
  trillion: 1e12,
};

/**
 * A threshold written in a question ("above 5%", "more than 1 million", "under $50,000", "at least 4.5 percent"),
 * or null. Words after the number that name time ("over 5 years") are no threshold.
 */
export function readThreshold(question: string): (Threshold & { percent: boolean; scaled: boolean }) | null {
  const q = question.toLowerCase().replace(/[’']/g, "'");
  const m =
    /\b(above|over|more than|greater than|higher than|exceeding|exceeds|in excess of|at least|no less than|below|under|less than|lower than|fewer than|at most|no more than)\s+(?:(?:the|its|their|a|an|[a-z]+'s)\s+)*(?:\$\s?)?(-?\d[\d,]*(?:\.\d+)?)(?![\d.,]*\d)\s*(%|percent\b|per cent\b|percentage points?\b|(?:thousand|million|billion|trillion|k|m|bn)\b)?(?!\s*(?:years?|months?|weeks?|days?|decades?|quarters?|peak|high|low|top|record|levels?)\b)/.exec(
      q,
    );
  if (!m) return null;
  const word = m[1];
  const op: Comparison = /^(at least|no less than)$/.test(word)
    ? ">="
    : /^(at most|no more than)$/.test(word)
      ? "<="
      : /^(below|under|less than|lower than|fewer than)$/.test(word)
        ? "<"
        : ">";
  const scale = m[3] && SCALE_WORDS[m[3]] ? SCALE_WORDS[m[3]] : 1;
  return {
    op,
    value: Number(m[2].replace(/,/g, "")) * scale,
    percent: !!m[3] && /^(%|percent|per cent|percentage)/.test(m[3]),
    scaled: scale !== 1,
  };
}

/** A threshold in people's units restated in a series' unit: "thousands of ..." divides by 1,000, "millions of" by 1e6. */
export function inUnit(t: Threshold, unit: string | null): Threshold {
  const m = /^(thousands?|millions?|billions?)\b/.exec((unit ?? "").trim());
  const by = m ? (m[1].startsWith("thousand") ? 1e3 : m[1].startsWith("million") ? 1e6 : 1e9) : 1;
  return { op: t.op, value: t.value / by };
}

export function describeThreshold(t: Threshold, show: (x: number) => string): string {
  const word = t.op === ">" ? "above" : t.op === ">=" ? "at or above" : t.op === "<" ? "below" : "at or below";
  return `${word} ${show(t.value)}`;
}
