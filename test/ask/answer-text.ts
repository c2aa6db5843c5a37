// Reading an ask answer as a strict reader would: the numbers it states (with "thousand" ... "trillion" multiples), its
// first sentence, the places it names, the yes or no it opens with and the direction word it leads with. Used by the
// answer scorers (content-eval, grid-eval); knows nothing of the resolver.

const SCALE: Record<string, number> = { thousand: 1e3, million: 1e6, billion: 1e9, trillion: 1e12 };

export function numbersIn(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(/(\d[\d,]*(?:\.\d+)?)(?:\s*(thousand|million|billion|trillion))?/gi)) {
    const n = Number(m[1].replaceAll(",", ""));
    out.push(n * (m[2] ? SCALE[m[2].toLowerCase()] : 1));
  }
  return out;
}

/** The number is in the text, rounded as a writer would, in the series' unit or a multiple of it (thousands of jobs,
 * billions of dollars); the sign is read from the words, so absolute values compare. */
export function mentions(text: string, x: number): boolean {
  const want = Math.abs(x);
  return numbersIn(text).some((n) =>
    [1, 1e3, 1e6, 1e9].some((s) => Math.abs(n - want * s) <= Math.max(0.051, want * s * 0.006)),
  );
}

/** A sentence ends at . ! or ? before a capital, not after an abbreviation such as "U.S.". */
export const firstSentence = (text: string) => text.split(/(?<![A-Z]\.[A-Z]\.)(?<=[.!?])\s+(?=[A-Z])/)[0];

export const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** The name as a whole word or words ("Kansas" is not named by "Arkansas"). */
export const named = (text: string, name: string) =>
  new RegExp(`(^|[^A-Za-z])${escapeRegExp(name)}($|[^A-Za-z])`).test(text);

/**
 * Which of `names` the text names, each once, longer names first and their text blanked out, so "Virginia" is not
 * found inside "West Virginia" nor "Washington" inside "Washington County" when both are candidates.
 */
export function namesIn(text: string, names: readonly string[]): Set<string> {
  let rest = text;
  const found = new Set<string>();
  for (const name of [...new Set(names)].sort((a, b) => b.length - a.length)) {
    const re = new RegExp(`(^|[^A-Za-z])${escapeRegExp(name)}(?=$|[^A-Za-z])`, "g");
    if (re.test(rest)) {
      found.add(name);
      rest = rest.replace(re, (_m, lead: string) => `${lead}${" ".repeat(name.length)}`);
    }
  }
  return found;
}

/** The yes or no the answer opens with, lower case; null when it opens with neither. */
export const yesNo = (answer: string) =>
  (/^\s*(yes|no)\b/i.exec(answer)?.[1]?.toLowerCase() as "yes" | "no" | undefined) ?? null;

const UP =
  /\b(up|upward|rising|rose|risen|rise|rises|higher|increas\w*|grew|grow|grows|growing|grown|gain\w*|climb\w*|add\w*|accelerat\w*|rais\w*|hik\w*|expand\w*|jump\w*)\b/i;
const DOWN =
  /\b(down|downward|falling|fell|fallen|fall|falls|lower|decreas\w*|declin\w*|shr[iau]nk\w*|lost|los(e|es|ing)|drop\w*|cut|cuts|cutting|eas(e|ed|es|ing)|slow\w*|contract\w*|decelerat\w*|cool\w*)\b/i;
const FLAT = /\b(unchanged|flat|steady|stable|same|held)\b/i;

/**
 * The direction the first sentence states before its first number ("Down: ...", "Unemployment is rising: up 0.2
 * points ..."), or null when a number comes first or no direction word is there: a level given first is not an answer
 * to "going up or down?". Up and down words both present before the first number read as no direction.
 */
export function leadingDirection(answer: string): "up" | "down" | "flat" | null {
  const head = firstSentence(answer);
  const beforeNumber = head.slice(0, head.search(/\d/) < 0 ? head.length : head.search(/\d/));
  const up = UP.test(beforeNumber);
  const down = DOWN.test(beforeNumber);
  if (up !== down) return up ? "up" : "down";
  if (!up && FLAT.test(beforeNumber)) return "flat";
  return null;
}

// ---- verdicts: null when the answer carries what is expected, else why not ---------------------------------------
export type Why = string | null;
const year = (date: string) => date.slice(0, 4);
/** The number is in the text; a zero may be said as "unchanged". */
export const says = (text: string, x: number | undefined, what: string): Why =>
  x === undefined
    ? `no data: no ${what}`
    : mentions(text, x) || (x === 0 && /\bunchanged\b/i.test(text))
      ? null
      : `${what} ${x.toFixed(3)} not in "${text}"`;
export const saysYear = (text: string, date: string): Why =>
  text.includes(year(date)) ? null : `year ${year(date)} not in "${text}"`;
/** The first of several candidate readings that the text carries, or the first reason when none does. */
export const anyOf = (whys: Why[]): Why =>
  whys.length === 0 ? "no data: nothing to compare" : whys.includes(null) ? null : whys[0];
export const opensWith = (answer: string, yes: boolean): Why => {
  const said = yesNo(answer);
  return said === (yes ? "yes" : "no")
    ? null
    : `expected ${yes ? "yes" : "no"} first, answer opens "${answer.slice(0, 60)}"`;
};
