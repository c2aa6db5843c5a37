// The first sentence of a question about where people move (pure): the largest flows out of a place (where people
// leaving it go) or into it (where people moving there come from), or the one flow between two places, with the
// count, the places and the period. People are counted as the source counts them: ACS movers (persons aged 1 and
// over), or the personal exemptions on IRS returns (about persons; FLOW_MEASURES in domain/flows.ts). A flow from a
// place to itself (people who did not move) is no move and is left out.
import { FLOW_DATASETS, type FlowDataset, type FlowMeasure } from "../flows";
import type { Lead } from "./lead";

export type FlowLeadRow = {
  origin: { code: string; name: string };
  destination: { code: string; name: string };
  value: number | null;
};
export type FlowLeadInput = {
  way: "out" | "in" | "between";
  /** The place asked about (its name as prose says it), and for "between" the second one. */
  place: string;
  other?: string;
  measure: FlowMeasure;
  periodStart: string;
  periodEnd: string;
  datasets: readonly FlowDataset[];
  rows: readonly FlowLeadRow[];
  /** Named in the sentence, at most. */
  count: number;
};

const COUNTED: Record<FlowMeasure, string> = {
  movers: "people",
  exemptions: "people (tax exemptions)",
  returns: "households (tax returns)",
  agi: "thousand dollars of income",
};

const n = (x: number) => x.toLocaleString("en-US");

function period(start: string, end: string): string {
  const [a, b] = [start.slice(0, 4), end.slice(0, 4)];
  return a === b ? `in ${a}` : `from ${a} to ${b}`;
}

export function flowsLead(f: FlowLeadInput): Lead {
  const counted = COUNTED[f.measure];
  const when = period(f.periodStart, f.periodEnd);
  const source = f.datasets.map((d) => FLOW_DATASETS[d].name).join("; ");
  const moves = f.rows.filter((r) => r.origin.code !== r.destination.code && r.value !== null && r.value > 0);
  const figures: Record<string, number | string> = { period_start: f.periodStart, period_end: f.periodEnd };
  if (f.way === "between") {
    const edge = moves[0];
    if (!edge) return { text: `No move from ${f.place} to ${f.other} is held ${when} (${source}).`, figures };
    figures.value = edge.value!;
    return {
      text: `${n(edge.value!)} ${counted} moved from ${f.place} to ${f.other} ${when} (${source}).`,
      figures,
      computed: "value",
    };
  }
  const top = moves.slice(0, f.count);
  if (top.length === 0)
    return {
      text: `No moves ${f.way === "out" ? "out of" : "into"} ${f.place} are held ${when} (${source}).`,
      figures,
    };
  const other = (r: FlowLeadRow) => (f.way === "out" ? r.destination.name : r.origin.name);
  top.forEach((r, i) => (figures[`${i + 1}:${f.way === "out" ? r.destination.code : r.origin.code}`] = r.value!));
  const [first, ...rest] = top;
  const then = rest.length ? `, then ${rest.map((r) => `${other(r)} (${n(r.value!)})`).join(", ")}` : "";
  const verb =
    f.way === "out"
      ? `Of the people who moved out of ${f.place} ${when}, the most went to`
      : `Of the people who moved into ${f.place} ${when}, the most came from`;
  return {
    text: `${verb} ${other(first)} (${n(first.value!)} ${counted})${then} (${source}).`,
    figures,
    computed: "value",
  };
}
