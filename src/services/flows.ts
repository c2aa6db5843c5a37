// GET /v1/flows: directed origin-to-destination rows of one measure and period, largest first.
// Resolution (before any payment): the regions named (404 unknown), then what is held for them: the measure (given,
// or the first held) and the period (given, or the latest held), src/domain/flows.ts chooseFlowSlice; nothing held is
// a 404 saying what is. The read then ranks that slice (db/repos/flows.ts).
import type { z } from "zod";
import { listFlowSlices, readFlows, type FlowRow } from "../../db/repos/flows";
import { FLOW_DATASETS, FLOW_MEASURES, chooseFlowSlice, type FlowDataset, type FlowMeasure } from "../domain/flows";
import { fail } from "../errors";
import type { FlowsResponse, flowsQuerySchema } from "../schemas/flows";
import type { Store } from "./caches";
import { regionLabel } from "./concepts";
import { regionIndex, resolveRegionAmong, type RegionRow } from "./regions";

export type FlowsQuery = z.output<typeof flowsQuerySchema>;

export type FlowsTarget = {
  origin: RegionRow | null;
  destination: RegionRow | null;
  measure: FlowMeasure;
  periodStart: string;
  periodEnd: string;
  datasets: FlowDataset[];
  limit: number;
};

// Flows are held between states and between counties; "CA" is California here.
const FLOW_REGION_KINDS = ["state", "county"];

export async function resolveFlows(store: Store, q: FlowsQuery): Promise<FlowsTarget> {
  store.caches.catalog.loading.assertServed("flows");
  const origin = q.origin === undefined ? null : await resolveRegionAmong(store, q.origin, FLOW_REGION_KINDS, "origin");
  const destination =
    q.destination === undefined
      ? null
      : await resolveRegionAmong(store, q.destination, FLOW_REGION_KINDS, "destination");
  const slices = await listFlowSlices(store.db, { origin: origin?.code, destination: destination?.code });
  const choice = chooseFlowSlice(slices, { measure: q.measure, period: q.period });
  if (!choice.ok) {
    const ends = [
      origin && `from ${await regionLabel(store, origin)}`,
      destination && `to ${await regionLabel(store, destination)}`,
    ]
      .filter(Boolean)
      .join(" ");
    const parameter =
      choice.reason === "no_measure"
        ? "measure"
        : choice.reason === "no_period"
          ? "period"
          : origin
            ? "origin"
            : "destination";
    fail("RESOURCE_NOT_FOUND", `${choice.message.replace("for these filters", ends)}`, {
      parameter,
      ...(origin ? { origin: origin.code } : {}),
      ...(destination ? { destination: destination.code } : {}),
      measures: choice.measures,
      ...(choice.reason === "no_period" ? { periods: choice.periods } : {}),
    });
  }
  return {
    origin,
    destination,
    measure: choice.measure,
    periodStart: choice.periodStart,
    periodEnd: choice.periodEnd,
    datasets: choice.datasets,
    limit: q.limit,
  };
}

const place = (r: RegionRow | null) => (r ? { code: r.code, name: r.name } : null);

export async function getFlows(store: Store, t: FlowsTarget): Promise<FlowsResponse> {
  const { rows, total } = await readFlows(store.db, {
    origin: t.origin?.code,
    destination: t.destination?.code,
    measure: t.measure,
    periodStart: t.periodStart,
    datasets: t.datasets,
    limit: t.limit,
  });
  const unit = FLOW_MEASURES[t.measure].unit;
  // Both ends are regions (foreign keys): named from the region index in memory rather than joined per row.
  const regions = (await regionIndex(store)).byCode;
  const named = (code: string) => ({ code, name: regions.get(code)?.name ?? code });
  return {
    data: rows.map((r: FlowRow) => ({
      origin: named(r.originCode),
      destination: named(r.destinationCode),
      measure: r.measure,
      period_start: r.periodStart,
      period_end: r.periodEnd,
      value: r.value,
      moe: r.moe,
      unit,
      source: r.source,
      dataset: r.dataset,
    })),
    meta: {
      origin: place(t.origin),
      destination: place(t.destination),
      measure: t.measure,
      unit,
      period: { start: t.periodStart, end: t.periodEnd },
      total,
      limit: t.limit,
      sources: t.datasets.map((d) => ({ source: FLOW_DATASETS[d].source, dataset: d, name: FLOW_DATASETS[d].name })),
    },
  };
}
