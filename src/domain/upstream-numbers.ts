// The one parser of numbers that data providers send. Every provider writes numbers as text (FRED, BLS, Census) or
// as JSON numbers with null (World Bank), each with its own way of saying "no value":
// - FRED: "." (a date kept with no observation, e.g. October 2025 CPI);
// - BLS: "-" (not available, footnote X), sometimes "(NA)";
// - Census: JSON null (suppressed), and estimate annotation codes sent as numbers: -666666666 (could not be
//   computed), -999999999 (too few sample cases), -888888888 (not applicable), -222222222, -333333333, -555555555
//   (margin-of-error annotations). A suppressed value is missing, never zero;
// - World Bank: JSON null.
// Thousands separators ("1,234,567", as spreadsheet exports and some tables write them) and surrounding spaces are
// accepted; a comma anywhere else is not. Anything else that is not a finite decimal number is an error, not a
// missing value: a provider that changed its format must be noticed, not stored as gaps.

/** Values that stand for "missing" when they arrive as text. */
const MISSING_TEXT = new Set([".", "-", "", "(NA)", "NA", "N/A", "(X)", "null"]);

/** Census ACS annotation values sent in place of an estimate or margin of error. */
export const CENSUS_ANNOTATION_CODES: ReadonlySet<number> = new Set([
  -666666666, -999999999, -888888888, -222222222, -333333333, -555555555,
]);

const PLAIN = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const GROUPED = /^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$/;

export class UnreadableNumberError extends Error {
  constructor(readonly raw: unknown) {
    super(`unreadable number ${JSON.stringify(raw)}`);
  }
}

/** A provider's number as a finite number, or null when the provider says the value is missing. */
export function parseUpstreamNumber(raw: unknown): number | null {
  if (raw === null || raw === undefined) return null;
  let n: number;
  if (typeof raw === "number") {
    if (!Number.isFinite(raw)) throw new UnreadableNumberError(raw);
    n = raw;
  } else if (typeof raw === "string") {
    const s = raw.trim();
    if (MISSING_TEXT.has(s)) return null;
    if (PLAIN.test(s)) n = Number(s);
    else if (GROUPED.test(s)) n = Number(s.replace(/,/g, ""));
    else throw new UnreadableNumberError(raw);
    if (!Number.isFinite(n)) throw new UnreadableNumberError(raw);
  } else {
    throw new UnreadableNumberError(raw);
  }
  if (CENSUS_ANNOTATION_CODES.has(n)) return null;
  // -0 and 0 are the same observation.
  return n === 0 ? 0 : n;
}
