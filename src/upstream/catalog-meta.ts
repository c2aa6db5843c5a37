// What connectors read from a catalog entry's meta.upstream (db/seed/catalog-data/types.ts), and the small steps
// every connector's mapping shares.
import { fillSeriesTemplate } from "../domain/series-template";
import { parseUpstreamNumber, UnreadableNumberError } from "../domain/upstream-numbers";
import {
  UpstreamError,
  type CatalogIndicator,
  type CatalogRegion,
  type ConnectorId,
  type UpstreamObservation,
} from "./types";

/** meta.upstream when it names `api`, else null. */
export function upstreamMeta(indicator: CatalogIndicator, api: ConnectorId): Record<string, unknown> | null {
  const u = indicator.meta?.upstream;
  if (!u || typeof u !== "object" || Array.isArray(u)) return null;
  const m = u as Record<string, unknown>;
  return m.api === api ? m : null;
}

export function str(m: Record<string, unknown>, key: string): string | null {
  const v = m[key];
  return typeof v === "string" && v.length > 0 ? v : null;
}

/** Whether the indicator is offered for this kind of region at all (when the entry says). */
export function offeredFor(indicator: CatalogIndicator, region: CatalogRegion): boolean {
  return !indicator.regionKinds || indicator.regionKinds.includes(region.type);
}

/**
 * The provider's series id for this region: series_id_template filled for the region, or a fixed series_id, which
 * names the series of the indicator's one region (its default region; the US when the entry does not say).
 */
export function seriesIdFor(
  indicator: CatalogIndicator,
  region: CatalogRegion,
  m: Record<string, unknown>,
): string | null {
  if (!offeredFor(indicator, region)) return null;
  const template = str(m, "series_id_template");
  if (template) return fillSeriesTemplate(template, region);
  const id = str(m, "series_id");
  if (!id) return null;
  return region.code === (indicator.defaultRegionCode ?? "US") ? id : null;
}

/** A provider's number, or a protocol error naming where it was found. */
export function readNumber(provider: ConnectorId, raw: unknown, where: string): number | null {
  try {
    return parseUpstreamNumber(raw);
  } catch (e) {
    if (e instanceof UnreadableNumberError) {
      throw new UpstreamError({ provider, kind: "protocol", retryable: false, message: `${where}: ${e.message}` });
    }
    throw e;
  }
}

/** Sorted by date with one observation per date (the later one in input order wins). */
export function byDate(observations: UpstreamObservation[]): UpstreamObservation[] {
  const m = new Map<string, UpstreamObservation>();
  for (const o of observations) m.set(o.date, o);
  return [...m.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

export function inRange(date: string, range?: { start?: string; end?: string }): boolean {
  return (!range?.start || date >= range.start) && (!range?.end || date <= range.end);
}

export function chunks<T>(xs: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size));
  return out;
}
