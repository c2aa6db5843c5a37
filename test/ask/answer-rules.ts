// The label language of the ask answer evaluations (test/ask/README.md): a rule names what the stored data say the
// answer must carry, and check() reads an answer against it. Everything here is plain arithmetic over observations an
// AskData hands over (SQL over the database in the evaluations, a hand-made table in the unit test); nothing goes
// through the resolver or the services it calls. A rule is `kind:TARGET[:arg...]`, TARGET being `SPEC@PLACE`:
// - SPEC: a catalog code or a concept of src/domain/concepts.ts (the freshest of its curated series held for the
//   place, ties to the order of preference), optionally as `yoy(SPEC)`: its 12-month percent change.
// - PLACE: a region code, or for rules over a set of places a kind (state, county, country) and, for the counties of a
//   state, the state after the rule's kind (`topn:X@county:06:max:3`).
// Strict reading: the first sentence carries the number (a writer's rounding of it: answer-text.ts mentions), the
// period's year and, for rankings, the place; yes/no and direction answers open with that word.
import {
  at,
  dateArg,
  episodeExtremes,
  isRate,
  monthBack,
  parseSpec,
  pctChange,
  periodMonths,
  seriesOf,
  valueBack,
  yoySeries,
  type AskData,
  type Obs,
  type Spec,
} from "./answer-data";
import {
  anyOf,
  firstSentence,
  leadingDirection,
  named,
  opensWith,
  says,
  saysYear,
  yesNo,
  type Why,
} from "./answer-text";
import { checkSetRule, SET_RULES } from "./answer-set-rules";

export type { AskData, FlowRow, Obs, Place } from "./answer-data";

// ---- checking one rule --------------------------------------------------------------------------------------------
export async function check(rule: string, answer: string, data: AskData): Promise<Why> {
  const kind = rule.slice(0, rule.indexOf(":"));
  const [target, ...args] = rule.slice(rule.indexOf(":") + 1).split(":");
  if (kind === "says")
    return new RegExp([target, ...args].join(":"), "i").test(answer)
      ? null
      : `answer does not say /${[target, ...args].join(":")}/`;
  if (SET_RULES.has(kind)) return checkSetRule(kind, target, args, answer, data);
  const [specText, where] = target.split("@");
  const spec = parseSpec(specText);
  const head = firstSentence(answer);
  const s = await seriesOf(data, spec, where);
  const last = s.at(-1);
  if (!last) return `no data: ${target}`;
  const valueAndYear = (o: Obs | undefined, what: string) =>
    o ? (says(head, o.value, what) ?? saysYear(head, o.date)) : `no data: no ${what}`;

  switch (kind) {
    case "latest":
    case "concept":
      return valueAndYear(last, "latest");
    case "yoy":
      return (
        says(head, pctChange(last.value, at(s, monthBack(last.date, 12))), "12-month change") ??
        saysYear(head, last.date)
      );
    case "qoqa":
      if (s.length < 2) return "no data: one quarter";
      return (
        says(head, ((last.value / s.at(-2)!.value) ** 4 - 1) * 100, "annualized change") ?? saysYear(head, last.date)
      );
    case "diff":
      if (s.length < 2) return "no data: one period";
      return says(head, last.value - s.at(-2)!.value, "change") ?? saysYear(head, last.date);
    case "pctn": {
      const then = valueBack(s, last.date, periodMonths(args[0]));
      return says(head, pctChange(last.value, then), `percent change over ${args[0]}`) ?? saysYear(head, last.date);
    }
    case "diffn": {
      const then = valueBack(s, last.date, periodMonths(args[0]));
      return (
        says(head, then === undefined ? undefined : last.value - then, `change over ${args[0]}`) ??
        saysYear(head, last.date)
      );
    }
    case "since": {
      // The change from a named period to the newest, in the unit or as a percent.
      const then = at(s, dateArg(args[0]));
      if (then === undefined) return `no data: no value at ${args[0]}`;
      return (
        anyOf([
          says(head, last.value - then, `change since ${args[0]}`),
          says(head, pctChange(last.value, then), `percent change since ${args[0]}`),
        ]) ?? saysYear(head, last.date)
      );
    }
    case "at":
      return says(head, at(s, dateArg(args[0])), `value at ${args[0]}`) ?? saysYear(head, dateArg(args[0]));
    case "yoyat":
      return (
        says(
          head,
          pctChange(at(s, dateArg(args[0])), at(s, monthBack(dateArg(args[0]), 12))),
          `12-month change at ${args[0]}`,
        ) ?? saysYear(head, dateArg(args[0]))
      );
    case "diffat": {
      const date = dateArg(args[0]);
      const [now, before] = [at(s, date), at(s, monthBack(date, 1))];
      return (
        says(head, now === undefined || before === undefined ? undefined : now - before, `change in ${args[0]}`) ??
        saysYear(head, date)
      );
    }
    case "max":
    case "min":
      return valueAndYear(
        s.reduce((a, b) => ((kind === "max" ? b.value > a.value : b.value < a.value) ? b : a)),
        kind,
      );
    case "peakyoy": {
      const peak = yoySeries(s)
        .filter((o) => o.date >= dateArg(args[0]))
        .reduce<Obs | undefined>((a, b) => (!a || b.value > a.value ? b : a), undefined);
      return says(head, peak?.value, `peak 12-month change since ${args[0]}`) ?? saysYear(answer, peak!.date);
    }
    case "epmax":
    case "epmin": {
      const extremes = await episodeExtremes(data, s, args[0], kind === "epmax" ? "max" : "min");
      return anyOf(extremes.map((o) => valueAndYear(o, `${kind === "epmax" ? "peak" : "low"} in ${args[0]}`)));
    }
    case "belowpeak": {
      const peaks = await episodeExtremes(data, s, args[0], "max");
      if (peaks.length === 0) return `no data: no peak in ${args[0]}`;
      return anyOf(peaks.map((p) => opensWith(answer, last.value < p.value)));
    }
    case "frompeak": {
      const peaks = await episodeExtremes(data, s, args[0], "max");
      return anyOf(
        peaks.map(
          (p) => says(head, last.value - p.value, `distance from the ${args[0]} peak`) ?? saysYear(answer, p.date),
        ),
      );
    }
    case "dir":
      return direction(data, spec, where, s, args, answer);
    case "yesno":
      return yesNoRule(data, spec, s, args, answer);
  }
  return `unknown rule ${rule}`;
}

/**
 * `dir:SPEC@PLACE:PERIOD[:up|down]`: the first sentence states the direction of the change over PERIOD before any
 * number ("going up or down?"), or, when the question asked whether it goes `up` (or `down`), the answer opens with
 * the right yes or no; and the first sentence carries the size of that change (points for a rate; for a level, in
 * the unit or in percent).
 */
async function direction(
  data: AskData,
  spec: Spec,
  where: string,
  s: Obs[],
  args: string[],
  answer: string,
): Promise<Why> {
  const last = s.at(-1)!;
  const then = valueBack(s, last.date, periodMonths(args[0]));
  if (then === undefined) return `no data: no value ${args[0]} before ${last.date}`;
  const change = last.value - then;
  const actual = change > 0 ? "up" : change < 0 ? "down" : "flat";
  const asked = args[1] as "up" | "down" | undefined;
  if (asked ? yesNo(answer) !== (asked === actual ? "yes" : "no") : leadingDirection(answer) !== actual)
    return `expected ${asked ? (asked === actual ? "yes" : "no") : actual} (${change.toFixed(3)} over ${args[0]}) first, answer opens "${answer.slice(0, 80)}"`;
  const head = firstSentence(answer);
  const size = says(head, change, `change over ${args[0]}`);
  if (size === null || (await isRate(data, spec, where))) return size;
  return says(head, pctChange(last.value, then), `percent change over ${args[0]}`) === null ? null : size;
}

/**
 * `yesno:SPEC@PLACE:COND`, the answer opening with the right yes or no. COND on the newest value: `=1`, `>X`, `<X`
 * (`<0` below zero); on its change from the period before: `d>0`, `d<0`; against its own value at a period (a peak
 * dated by the NBER, say): `>at:YYYY-MM`, `<at:YYYY-MM`; against the same spec at another place at the newest period
 * both hold: `>@PLACE`, `<@PLACE`.
 */
async function yesNoRule(data: AskData, spec: Spec, s: Obs[], [cond, date]: string[], answer: string): Promise<Why> {
  const last = s.at(-1)!;
  if ((cond === ">at" || cond === "<at") && date) {
    const then = at(s, dateArg(date));
    if (then === undefined) return `no data: no value at ${date}`;
    return opensWith(answer, cond === ">at" ? last.value > then : last.value < then);
  }
  const other = /^([<>])@(.+)$/.exec(cond);
  if (other) {
    const t = await seriesOf(data, spec, other[2]);
    const date = [...s].reverse().find((o) => at(t, o.date) !== undefined)?.date;
    if (!date) return `no data: no common period with ${other[2]}`;
    const [a, b] = [at(s, date)!, at(t, date)!];
    return opensWith(answer, other[1] === ">" ? a > b : a < b);
  }
  const threshold = /^([<>])(-?\d+(?:\.\d+)?)$/.exec(cond);
  if (threshold)
    return opensWith(
      answer,
      threshold[1] === ">" ? last.value > Number(threshold[2]) : last.value < Number(threshold[2]),
    );
  if (cond === "=1") return opensWith(answer, last.value === 1);
  if (cond === "d>0" || cond === "d<0") {
    if (s.length < 2) return "no data: one period";
    const d = last.value - s.at(-2)!.value;
    return opensWith(answer, cond === "d>0" ? d > 0 : d < 0);
  }
  return `unknown condition ${cond}`;
}

// ---- scoring one labelled question ----------------------------------------------------------------------------------
/** What GET /v1/ask answers (the fields the scorers read). */
export type AskReply = { status: string; answer: string | null; grounded: boolean; message?: string };
/** A labelled row: the status expected, the places the answer names (each a list of acceptable spellings) and the
 * rules it must meet (each a list of alternatives, one of which must hold). */
export type Labels = { status: string; places: string[][]; expects: string[][] };
export const parseLabels = (status: string, places: string, expects: string): Labels => ({
  status,
  places: places === "-" ? [] : places.split(",").map((p) => p.split("/")),
  expects: expects === "-" ? [] : expects.split(";").map((e) => e.split("|")),
});

/** Null when the reply answers as labelled; otherwise why not. An answer that is not grounded is a miss. */
export async function scoreReply(labels: Labels, reply: AskReply, data: AskData): Promise<Why> {
  if (reply.status !== labels.status)
    return `status ${reply.status} (${(reply.message ?? reply.answer ?? "").slice(0, 160)})`;
  if (labels.status !== "ok") return null;
  const answer = reply.answer ?? "";
  if (!reply.grounded) return `not grounded: "${answer.slice(0, 160)}"`;
  for (const alternatives of labels.places)
    if (!alternatives.some((p) => named(answer, p)))
      return `place ${alternatives.join("/")} not named: "${answer.slice(0, 160)}"`;
  for (const alternatives of labels.expects) {
    const reasons: string[] = [];
    for (const rule of alternatives) {
      const why = await check(rule, answer, data);
      if (why === null) break;
      reasons.push(why);
    }
    if (reasons.length === alternatives.length) return reasons.join("; ");
  }
  return null;
}
