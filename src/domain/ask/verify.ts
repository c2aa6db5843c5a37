// Number verification for ask answers (pure): every number the prose states must come from the tool results.
// - Numbers in prose: digits with thousands separators and decimals, an optional sign, currency sign or percent, and a
//   scale word after them ("4.46 trillion", "159.3 million"); ordinals ("3rd") count as their number. Digits inside
//   a word (U6RATE, T10Y2Y) are names, not numbers.
// - Numbers in results: every number field, and every number written inside a text field (dates give their year,
//   month and day; "10y" gives 10; a fact's sentence gives the figures its template filled in), walked recursively.
// - A prose number p, written with d decimals and scale s, matches a result number r when |p - |r|| <= 0.5 * 10^-d * s
//   (what rounding to the written precision allows; the sign is the verb's: "fell 0.2" states -0.2), or when it is
//   r expressed in thousands, millions, billions or trillions to the written precision (units "thousands of persons").
// DataGemma's retrieval-interleaved generation checks each generated figure the same way.

export type NumberMention = { text: string; value: number; tolerance: number };

const SCALES: Record<string, number> = { thousand: 1e3, million: 1e6, billion: 1e9, trillion: 1e12 };
const MENTION =
  /(?<![\p{L}\p{N}.])([-+−]?)\$?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?:(st|nd|rd|th)\b)?(?:\s*(thousand|million|billion|trillion)\b)?(?![\p{L}\p{N}])/gu;

/** The numbers prose states, with the tolerance its written precision allows. */
export function numbersInProse(text: string): NumberMention[] {
  const out: NumberMention[] = [];
  for (const m of text.matchAll(MENTION)) {
    const [whole, sign, int, frac, , scaleWord] = m;
    const decimals = frac ? frac.length - 1 : 0;
    const scale = scaleWord ? SCALES[scaleWord] : 1;
    const magnitude = Number(`${int.replace(/,/g, "")}${frac ?? ""}`);
    out.push({
      text: whole.trim(),
      value: (sign === "-" || sign === "−" ? -1 : 1) * magnitude * scale,
      tolerance: 0.5 * 10 ** -decimals * scale,
    });
  }
  return out;
}

const IN_TEXT = /-?\d+(?:,\d{3})*(?:\.\d+)?/g;

/** Every number of the results: number fields and numbers written in text fields (see the file comment). */
export function numbersInResults(results: unknown): number[] {
  const out = new Set<number>();
  const walk = (v: unknown, depth: number): void => {
    if (depth > 12 || v === null || v === undefined) return;
    if (typeof v === "number") {
      if (Number.isFinite(v)) out.add(v);
    } else if (typeof v === "string") {
      for (const m of v.matchAll(IN_TEXT)) {
        const n = Number(m[0].replace(/,/g, ""));
        out.add(n);
        // "2025-11-01": the month and day read as separate numbers too.
        if (m[0].startsWith("-")) out.add(-n);
      }
    } else if (Array.isArray(v)) {
      for (const x of v) walk(x, depth + 1);
    } else if (typeof v === "object") {
      for (const x of Object.values(v as Record<string, unknown>)) walk(x, depth + 1);
    }
  };
  walk(results, 0);
  return [...out];
}

function matches(p: NumberMention, known: readonly number[]): boolean {
  const size = Math.abs(p.value);
  for (const r of known) {
    const a = Math.abs(r);
    // 1e-9: binary floating point noise of a number printed exactly at its precision.
    if (Math.abs(size - a) <= p.tolerance + 1e-9 * Math.max(1, a)) return true;
    // A result in thousands (or millions) restated in a larger unit, or a count restated as "1.2 million".
    for (const s of [1e3, 1e6, 1e9, 1e12]) if (Math.abs(size - a * s) <= p.tolerance + 1e-9 * a * s) return true;
  }
  return false;
}

export type Verification = { grounded: boolean; checked: number; unsupported: string[] };

/** Checks every number of `prose` against the tool results (see the file comment). */
export function verifyNumbers(prose: string, results: unknown): Verification {
  const known = numbersInResults(results);
  const mentions = numbersInProse(prose);
  const unsupported = mentions.filter((m) => !matches(m, known)).map((m) => m.text);
  return { grounded: unsupported.length === 0, checked: mentions.length, unsupported };
}

// ---------------------------------------------------------------------------------------------------------------
// What a model's draft may not carry: whatever the number checker cannot read, or that is not plain prose. Such a
// draft is not served (the deterministic text is): numbers written in words, digits run into letters ("12.5percent"),
// digits other than ASCII ones (full-width, Arabic-Indic), fractions, scientific notation, links, markup, and
// instructions to the reader. Catalog codes in capitals (T10Y2Y, U6RATE), ordinals ("3rd") and R² are read.

const PLAIN_RULES: { why: string; re: RegExp }[] = [
  {
    why: "a number in words",
    re: /\b(zero|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|dozen|half|twice|double|doubled|tripled|quadrupled)\b/i,
  },
  {
    why: "a number in words",
    re: /(?<![\d.,]\s*)\b(one|a|an)\s+(thousand|million|billion|trillion|percent|per cent|percentage points?|point)\b/i,
  },
  { why: "a scale word without digits", re: /(?<![\d.]\s*)\b(thousand|million|billion|trillion)s?\b/i },
  { why: "a number in words", re: /\b(a|one)\s+(quarter|third|fifth|tenth)\s+(of|percent)\b/i },
  { why: "digits run into letters", re: /(?<![A-Z0-9])\d+(?:[.,]\d+)*(?!(?:st|nd|rd|th)\b)[a-z]/u },
  { why: "digits other than 0-9", re: /(?![0-9])\p{Nd}/u },
  { why: "a fraction", re: /\d\s*[/⁄]\s*\d|(?<!R)[\p{No}]/u },
  { why: "scientific notation", re: /\d(?:\.\d+)?\s*(?:[eE][+-]?\d|[x×]\s*10\s*\^?\s*[-+]?\d|\^\s*\d)/ },
  { why: "a link", re: /https?:|www\.|:\/\/|\]\(|\b[a-z0-9-]+\.(?:com|org|net|io|gov|ai|co|info|xyz|ly)\b/i },
  { why: "markup", re: /[<>*_`#|~{}\[\]\\]|&[a-z#0-9]+;|^\s*[-+]\s/im },
  {
    why: "an instruction to the reader",
    re: /\b(click|visit|go to|ignore|disregard|forget|follow (?:this|the|these)|you (?:must|should|need to|can)|please|sign up|subscribe|download|contact|call us|email us|reply|as an ai|system prompt|instructions?)\b/i,
  },
];

/** Why a draft may not be served (empty when it is plain prose whose every number the checker reads). */
export function draftProblems(text: string): string[] {
  return [...new Set(PLAIN_RULES.filter((r) => r.re.test(text)).map((r) => r.why))];
}

/**
 * Served text safe in any HTML context (element text, a quoted or unquoted attribute, a script string) without
 * entities: no < > & ` and no straight quotes (typographic ones instead), no control characters.
 */
export function safeText(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "")
    .replace(/&/g, " and ")
    .replace(/[<>`]/g, "")
    .replace(/(^|[\s(\[])"/g, "$1\u201c")
    .replace(/"/g, "\u201d")
    .replace(/'/g, "\u2019")
    .replace(/[ \t]{2,}/g, " ");
}
