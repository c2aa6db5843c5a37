// Time phrases of a question (pure): a phrase naming a span becomes a window ("over the last 5 years" 5y, "past
// decade" 10y, "six months" 6m, "weeks" 7 days each, "a year ago" 1y, "quarters" 3 months each, "since 2020" and "in
// 2020" the years from that one to today's included, "all time" / "ever" / "record" all). Its words are marked used,
// so topics and places are read without them.
import { parseWindow, type Window } from "../window";
import { foldPlural, NUMBER_WORDS, type Word } from "./words";

const UNIT_OF: Record<string, { unit: "d" | "m" | "y"; times: number }> = {
  day: { unit: "d", times: 1 },
  week: { unit: "d", times: 7 },
  month: { unit: "m", times: 1 },
  quarter: { unit: "m", times: 3 },
  year: { unit: "y", times: 1 },
  decade: { unit: "y", times: 10 },
};

export function readTime(words: Word[], todayYear: number): Window | null {
  const t = words.map((w) => foldPlural(w.text));
  for (let i = 0; i < t.length; i++) {
    // "last 5 years", "past decade", "previous six months", "the last year"
    if (t[i] === "last" || t[i] === "past" || t[i] === "previous" || t[i] === "recent") {
      let j = i + 1;
      let n = 1;
      if (j < t.length && (/^\d{1,3}$/.test(t[j]) || NUMBER_WORDS[t[j]] !== undefined)) {
        n = /^\d+$/.test(t[j]) ? Number(t[j]) : NUMBER_WORDS[t[j]];
        j++;
      }
      const u = UNIT_OF[t[j]];
      if (u && n > 0) {
        for (let k = i; k <= j; k++) words[k].used = true;
        return parseWindow(`${n * u.times}${u.unit}`);
      }
    }
    // "a year ago", "6 months ago"
    if ((/^\d{1,3}$/.test(t[i]) || NUMBER_WORDS[t[i]] !== undefined) && UNIT_OF[t[i + 1]] && t[i + 2] === "ago") {
      const n = /^\d+$/.test(t[i]) ? Number(t[i]) : NUMBER_WORDS[t[i]];
      const u = UNIT_OF[t[i + 1]];
      if (n > 0) {
        for (let k = i; k <= i + 2; k++) words[k].used = true;
        return parseWindow(`${n * u.times}${u.unit}`);
      }
    }
    // "since 2020", "in 2019", "from 2010"
    if ((t[i] === "since" || t[i] === "in" || t[i] === "from") && /^(19|20)\d\d$/.test(t[i + 1] ?? "")) {
      const year = Number(t[i + 1]);
      if (year <= todayYear) {
        words[i].used = words[i + 1].used = true;
        return parseWindow(`${todayYear - year + 1}y`);
      }
    }
    // "this year", "year to date"
    if (
      (t[i] === "this" && t[i + 1] === "year") ||
      (t[i] === "year" && t[i + 1] === "to" && t[i + 2] === "date") ||
      t[i] === "ytd"
    ) {
      const end = t[i] === "ytd" ? i : t[i] === "this" ? i + 1 : i + 2;
      for (let k = i; k <= end; k++) words[k].used = true;
      return parseWindow("1y");
    }
    // "all time", "ever", "on record", "in history", "historically", "long term"
    if ((t[i] === "all" && t[i + 1] === "time") || (t[i] === "long" && (t[i + 1] === "term" || t[i + 1] === "run"))) {
      words[i].used = words[i + 1].used = true;
      return { kind: "all" };
    }
    if (
      t[i] === "ever" ||
      t[i] === "record" ||
      t[i] === "history" ||
      t[i] === "historically" ||
      t[i] === "historical"
    ) {
      words[i].used = true;
      return { kind: "all" };
    }
  }
  return null;
}
