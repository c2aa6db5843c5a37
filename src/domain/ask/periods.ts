// The periods and spans a question's words name (pure, deterministic), read by the intent (intent.ts) and the topic
// reading: a month or year asked ("in April 2020", "in 2019", "argentina inflation 2023") and a span of months
// ("over the past year", "in the last six months").
const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];
export const COUNT: Record<string, number> = {
  a: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  twelve: 12,
  eighteen: 18,
  twenty: 20,
};
const SPAN_MONTHS: Record<string, number> = { month: 1, quarter: 3, year: 12, decade: 120 };

/** "in April 2020" → 2020-04-01, "in 2019" → 2019 (a year), else null. */
export function namedPeriod(q: string): string | null {
  const month = new RegExp(`\\b(?:in|for|during|of)\\s+(${MONTHS.join("|")})\\s*,?\\s+((?:19|20)\\d\\d)\\b`).exec(q);
  if (month) return `${month[2]}-${String(MONTHS.indexOf(month[1]) + 1).padStart(2, "0")}-01`;
  // "than in 2015", "since 2015": a change since that year, not a value in it.
  const year =
    /(?<!\bthan |\bthan it was |\bsince )\b(?:in|for|during)\s+((?:19|20)\d\d)\b(?!\s*(?:to|-|recession))/.exec(q);
  return year ? year[1] : bareYear(q);
}

/**
 * A year written on its own ("argentina inflation 2023", "india's growth rate 2019"): the period asked, unless a word
 * before it makes it a start or an end ("since 2019", "from 2010 to"), it is one end of a range ("2021-22") or it
 * names an episode ("the 2008 financial crisis", "the 2020 recession").
 */
export function bareYear(q: string): string | null {
  const m =
    /(?<!\b(?:since|from|than|to|in|for|during|after|before|until|till|through|between|and|vs|versus|the|of) )\b((?:19|20)\d\d)\b(?!\s*(?:to\b|-|–|\/|s\b|recession|crisis|financial|surge|inflation|pandemic|covid|crash|levels?\b))/.exec(
      q,
    );
  return m ? m[1] : null;
}

/** "over the past year" 12, "in the last six months" 6, "past 2 quarters" 6, "over 12 months" 12: the span asked. */
export function spanMonths(q: string): number | null {
  const m =
    /\b(?:past|last|previous)\s+(?:(\d{1,3}|[a-z]+)\s+)?(month|quarter|year|decade)s?\b/.exec(q) ??
    /\b(?:over|in|during|for|within)\s+(?:the\s+)?(\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|twelve|eighteen|twenty)\s+(month|quarter|year|decade)s?\b/.exec(
      q,
    );
  if (!m) return null;
  const n = m[1] === undefined ? 1 : /^\d+$/.test(m[1]) ? Number(m[1]) : COUNT[m[1]];
  return n ? n * SPAN_MONTHS[m[2]] : null;
}
