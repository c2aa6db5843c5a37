// Reading signal intervals: GET /v1/signals/active and GET /v1/signals, and the active signals of one series that
// an insights response lists.
// - Filters resolve before any payment: an indicator filter value is a catalog code (every source publishing it) or
//   a concept (every series it curates); a region filter value is anything /v1/regions resolves. Unknown values are
//   404s (free), like any read of something that does not exist.
// - Paging: newest valid_from first, by keyset (db/repos/signals.ts). The cursor is opaque: base64url JSON of the
//   last row's (valid_from, id) and a hash of the normalised query, then a checksum. A cursor whose checksum fails
//   (tampered) or whose query hash differs (another endpoint or other filters: foreign) is a 400.
// - Text and vocabulary are rendered at read time from the stored evidence and the catalog (names may change).
import { createHash } from "node:crypto";
import { listSignalIntervals, openIntervalsOfSeries, type SignalFilter, type SignalRow } from "../../db/repos/signals";
import { getConcept } from "../domain/concepts";
import { isFrequency } from "../domain/calendar";
import { asOfDate, currentSince, isCurrent } from "../domain/freshness";
import { placeName } from "../domain/prose";
import {
  SIGNAL_SALIENCE,
  STRENGTHS,
  signalText,
  staleNote,
  strengthRank,
  vocabulary,
  type Episode,
  type Strength,
} from "../domain/signals";
import { fail } from "../errors";
import type { ActiveSignalsQuery, InsightSignalOut, SignalOut, SignalsQuery } from "../schemas/signals";
import type { Store } from "./caches";
import { regionIndex, resolveRegion, type RegionRow } from "./regions";

export type SignalListQuery = { endpoint: "active" | "history" } & (ActiveSignalsQuery | SignalsQuery);

/** A list query with its filters resolved to ids and codes (what resolve() hands the handler). */
export type ResolvedSignalQuery = {
  endpoint: "active" | "history";
  filter: SignalFilter;
  filters: Record<string, unknown>;
  limit: number;
  cursor?: string;
};

/** `store.now`: the clock that decides which series are current (an active signal's series is). */
export async function resolveSignalQuery(
  store: Store & { now: () => Date },
  q: SignalListQuery,
): Promise<ResolvedSignalQuery> {
  // Signals are detected once everything is stored: until then a list would be missing most of them.
  store.caches.catalog.loading.assertServed("signals");
  const catalog = await store.caches.catalog.catalog();
  const filter: SignalFilter = {};
  const filters: Record<string, unknown> = {};
  if (q.indicator) {
    const ids = new Set<string>();
    const codes = new Set<string>();
    for (const value of q.indicator) {
      const rows = catalog.byLowerCode.get(value.toLowerCase()) ?? [];
      const exact = rows.filter((r) => r.code === value);
      const concept = getConcept(value);
      let found = (exact.length ? exact : concept ? [] : rows).filter((r) => r.isActive);
      if (found.length === 0 && concept?.type === "series") {
        const curated = Object.values(concept.levels).flat();
        found = [...catalog.byId.values()].filter(
          (r) => r.isActive && curated.some((c) => c!.indicator === r.code && c!.source === r.sourceSlug),
        );
      }
      if (found.length === 0) {
        fail(
          "RESOURCE_NOT_FOUND",
          `Unknown indicator '${value.slice(0, 100)}': it is neither a catalog code nor a concept with stored series.`,
          { parameter: "indicator", indicator: value },
        );
      }
      for (const r of found) {
        ids.add(r.id);
        codes.add(r.code);
      }
    }
    filter.indicatorIds = [...ids];
    filters.indicator = [...codes];
  }
  if (q.region) {
    const codes: string[] = [];
    for (const value of q.region) {
      const region = await resolveRegion(store, value);
      if (!codes.includes(region.code)) codes.push(region.code);
    }
    filter.regionCodes = codes;
    filters.region = codes;
  }
  if (q.type) {
    filter.types = q.type;
    filters.type = q.type;
  }
  filter.strengths = STRENGTHS.filter((s) => strengthRank(s) >= strengthRank(q.strength));
  filters.strength = q.strength;
  // Active: open, on a series current as of today (src/domain/freshness.ts): a run that ended years ago in the data
  // is not news however open its interval is. The cutoffs are not in `filters`, so a cursor outlives midnight.
  filter.currentSince = currentSince(asOfDate(store.now()));
  if (q.endpoint === "active") filter.active = true;
  else {
    const h = q as SignalsQuery;
    if (h.active !== undefined) {
      filter.active = h.active;
      filters.active = h.active;
    }
    if (h.from) {
      filter.from = new Date(`${h.from}T00:00:00.000Z`);
      filters.from = h.from;
    }
    if (h.to) {
      filter.to = new Date(`${h.to}T00:00:00.000Z`);
      filters.to = h.to;
    }
  }
  const resolved: ResolvedSignalQuery = { endpoint: q.endpoint, filter, filters, limit: q.limit, cursor: q.cursor };
  if (q.cursor !== undefined) filter.after = decodeCursor(q.cursor, queryHash(resolved));
  return resolved;
}

// ---------------------------------------------------------------------------------------------------------------
// Cursor

const CURSOR_CONTEXT = "svc-signals-cursor-v1";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What a cursor is bound to: the endpoint and the normalised filters (the page size may change between pages). */
function queryHash(r: Pick<ResolvedSignalQuery, "endpoint" | "filters">): string {
  return createHash("sha256")
    .update(JSON.stringify([r.endpoint, r.filters]))
    .digest("base64url")
    .slice(0, 16);
}

function checksum(payload: string): string {
  return createHash("sha256").update(`${CURSOR_CONTEXT}|${payload}`).digest("base64url").slice(0, 16);
}

export function encodeCursor(row: { validFrom: Date; id: string }, hash: string): string {
  const payload = Buffer.from(JSON.stringify({ f: row.validFrom.toISOString(), i: row.id, q: hash })).toString(
    "base64url",
  );
  return `${payload}.${checksum(payload)}`;
}

function decodeCursor(cursor: string, hash: string): { validFrom: Date; id: string } {
  const bad = (why: string): never =>
    fail(
      "INVALID_PARAMETER",
      `Invalid parameter cursor: ${why}. Pass meta.next_cursor of the previous page of the same query, unchanged.`,
      { parameter: "cursor" },
    );
  const [payload, sum, ...rest] = cursor.split(".");
  if (!payload || !sum || rest.length > 0 || checksum(payload) !== sum)
    return bad("it is not a cursor this service issued, or it was altered");
  let data: { f?: unknown; i?: unknown; q?: unknown };
  try {
    data = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return bad("it is not a cursor this service issued");
  }
  if (data.q !== hash) return bad("it belongs to another query (another endpoint or other filters)");
  const validFrom = typeof data.f === "string" ? new Date(data.f) : null;
  if (!validFrom || Number.isNaN(validFrom.getTime()) || typeof data.i !== "string" || !UUID.test(data.i))
    return bad("it is not a cursor this service issued");
  return { validFrom, id: data.i };
}

// ---------------------------------------------------------------------------------------------------------------
// Reads

export type SignalPage = {
  data: SignalOut[];
  meta: { count: number; limit: number; next_cursor?: string; filters: Record<string, unknown> };
};

export async function listSignals(store: Store & { now: () => Date }, r: ResolvedSignalQuery): Promise<SignalPage> {
  const rows = await listSignalIntervals(store.db, r.filter, r.limit + 1);
  const page = rows.slice(0, r.limit);
  const data = await shapeSignals(store, page);
  const more = rows.length > r.limit;
  return {
    data,
    meta: {
      count: data.length,
      limit: r.limit,
      ...(more ? { next_cursor: encodeCursor(page[page.length - 1], queryHash(r)) } : {}),
      filters: r.filters,
    },
  };
}

const iso = (d: Date) => d.toISOString();
const dateOf = (d: Date) => d.toISOString().slice(0, 10);

function episodeOf(r: SignalRow): Episode {
  return {
    type: r.type,
    direction: (r.direction ?? "up") as Episode["direction"],
    strength: r.strength as Strength,
    validFrom: dateOf(r.validFrom),
    validTo: r.validTo ? dateOf(r.validTo) : null,
    evidence: r.evidence,
  };
}

/**
 * The Signal resources of stored rows: indicator and region from the catalog, text and vocabulary rendered; an open
 * interval of a series behind schedule as of `store.now()` says so in its text.
 */
async function shapeSignals(store: Store & { now: () => Date }, rows: readonly SignalRow[]): Promise<SignalOut[]> {
  if (rows.length === 0) return [];
  const asOf = asOfDate(store.now());
  const catalog = await store.caches.catalog.catalog();
  const regions = await regionIndex(store);
  const out: SignalOut[] = [];
  for (const r of rows) {
    const i = catalog.byId.get(r.indicatorId);
    const region = regions.byCode.get(r.regionCode);
    if (!i || !region) continue;
    const e = episodeOf(r);
    out.push({
      id: r.id,
      indicator: {
        code: i.code,
        name: i.name,
        category: i.category,
        unit: i.unit,
        frequency: i.frequency,
        source: { slug: i.sourceSlug ?? "", name: i.sourceName ?? i.sourceSlug ?? "" },
      },
      region: { code: region.code, name: region.name },
      type: r.type,
      strength: r.strength,
      direction: r.direction,
      valid_from: iso(r.validFrom),
      valid_to: r.validTo ? iso(r.validTo) : null,
      detected_at: iso(r.detectedAt),
      last_seen_at: iso(r.lastSeenAt),
      evidence: r.evidence,
      vocabulary: vocabulary(e, i.upIsGood),
      text:
        signalText(e, {
          indicatorName: i.name,
          place: placeOf(region, regions.byCode),
          frequency: i.frequency as never,
          unit: i.unit,
        }) +
        (isFrequency(i.frequency)
          ? staleNote(
              e,
              i.frequency,
              typeof e.evidence.last_date !== "string" || isCurrent(e.evidence.last_date, i.frequency, asOf),
            )
          : ""),
    });
  }
  return out;
}

export function placeOf(region: RegionRow, byCode: Map<string, RegionRow>): string {
  return placeName(region, region.parentCode ? (byCode.get(region.parentCode)?.name ?? null) : null);
}

/** The open intervals of one stored series, in the InsightSignal shape, strongest first (the caller checks it is current). */
export async function activeSignalsOfSeries(
  store: Store & { now: () => Date },
  key: { indicatorId: string; regionCode: string },
): Promise<InsightSignalOut[]> {
  store.caches.catalog.loading.assertServed("signals");
  const shaped = await shapeSignals(store, await openIntervalsOfSeries(store.db, key));
  return shaped
    .map((s) => ({
      id: s.id,
      indicator: s.indicator.code,
      region: s.region.code,
      kind: s.type,
      salience: SIGNAL_SALIENCE[s.strength],
      summary: `${s.vocabulary.label} since ${s.valid_from.slice(0, 10)}`,
      observed_at: s.valid_from,
      evidence: s.evidence,
      strength: s.strength,
      direction: s.direction,
      text: s.text,
      vocabulary: s.vocabulary,
    }))
    .sort((a, b) => b.salience - a.salience || (a.observed_at < b.observed_at ? 1 : -1));
}
