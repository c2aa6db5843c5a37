// Flow questions of ask ("where do people leaving San Francisco County go", "where do people moving to Texas come
// from", "how many people moved from California to Texas"): the flows GET /v1/flows serves for the place (state to
// state, county to county), largest first, read through the same services (resolveFlows, getFlows), so the citation
// replays there. People are counted as persons where the source allows: ACS movers, or IRS exemptions.
import { flowsLead } from "../domain/ask/flows-lead";
import type { FlowMeasure } from "../domain/flows";
import type { Citation } from "../schemas/ask";
import { ApiError } from "../errors";
import { getFlows, resolveFlows, type FlowsTarget } from "./flows";
import type { RegionRow } from "./regions";
import type { ReadContext } from "./series-read";
import { placeOf } from "./signals";
import { regionIndex } from "./regions";

export type FlowPlan = {
  way: "out" | "in" | "between";
  origin: RegionRow | null;
  destination: RegionRow | null;
  target: FlowsTarget;
  regions: string[];
};

/** Places named; the most a sentence names. */
const NAMED = 5;
/** Persons first: ACS movers, else IRS exemptions (about persons), else what the source holds. */
const PREFERRED: FlowMeasure[] = ["movers", "exemptions"];

export async function planFlows(
  ctx: ReadContext,
  way: FlowPlan["way"],
  places: readonly RegionRow[],
): Promise<FlowPlan | { status: "no_coverage" | "no_data"; message: string }> {
  const local = places.filter((p) => p.type === "state" || p.type === "county");
  if (local.length === 0 || (way === "between" && local.length < 2)) {
    return {
      status: "no_coverage",
      message:
        "Moves between places are held between US states (Census ACS 1-year, 2019) and between US counties (IRS SOI, 2014-15); name a state or a county.",
    };
  }
  const origin = way === "in" ? null : local[0];
  const destination = way === "out" ? null : way === "in" ? local[0] : local[1];
  // The rows are read with a margin: a flow from a place to itself (no move) is left out by the lead.
  const limit = NAMED + 1;
  for (const measure of [...PREFERRED, undefined]) {
    try {
      const target = await resolveFlows(ctx, {
        origin: origin?.code,
        destination: destination?.code,
        measure,
        period: undefined,
        limit,
      });
      return {
        way,
        origin,
        destination,
        target,
        regions: [origin, destination].filter((r) => r !== null).map((r) => r.code),
      };
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 404) throw e;
      if (measure === undefined) return { status: "no_data", message: e.message };
    }
  }
  return { status: "no_data", message: "No flows are held for this place." };
}

export async function runFlows(
  ctx: ReadContext,
  plan: FlowPlan,
): Promise<{ text: string; citation: Citation; result: unknown }> {
  const body = await getFlows(ctx, plan.target);
  const index = await regionIndex(ctx);
  const name = (r: RegionRow) => placeOf(r, index.byCode);
  const rows = body.data.map((r) => ({
    origin: { code: r.origin.code, name: name(index.byCode.get(r.origin.code)!) },
    destination: { code: r.destination.code, name: name(index.byCode.get(r.destination.code)!) },
    value: r.value,
  }));
  const place = plan.way === "in" ? plan.destination! : plan.origin!;
  const lead = flowsLead({
    way: plan.way,
    place: name(place),
    other: plan.way === "between" ? name(plan.destination!) : undefined,
    measure: plan.target.measure,
    periodStart: plan.target.periodStart,
    periodEnd: plan.target.periodEnd,
    datasets: plan.target.datasets,
    rows,
    count: NAMED,
  });
  const args = {
    ...(plan.origin ? { origin: plan.origin.code } : {}),
    ...(plan.destination ? { destination: plan.destination.code } : {}),
    measure: plan.target.measure,
    period: plan.target.periodStart,
    limit: plan.target.limit,
  };
  const summary = `${body.data.length} flow(s) of ${plan.target.measure} ${plan.way === "in" ? "into" : "out of"} ${name(place)}, largest first: ${rows.map((r) => `${r.origin.name} to ${r.destination.name} ${r.value ?? "suppressed"}`).join("; ")}.`;
  return {
    text: lead.text,
    citation: { tool: "get_flows", args, summary },
    result: { ...lead.figures, values: rows.map((r) => r.value) },
  };
}
