// World Bank Indicators API v2: one indicator for one, several (";"-joined) or all countries, paged.
//   GET {base}/country/{US;DE|all}/indicator/{id}?format=json&per_page=1000&page=1[&date=2000:2023]
//   -> [ { page, pages, per_page, total, sourceid, lastupdated: "2025-07-01" },
//        [ { indicator: {id, value}, country: {id: "US", value}, countryiso3code: "USA", date: "2023", value: 2.7e13 | null,
//            unit, obs_status, decimal }, ... ] | null ]
// An error is a 200 with a one-element array: [{ message: [{ id: "120", key: "Invalid value", value: "..." }] }].
// "all" also answers aggregates (World, Euro area, income groups: ids like 1W, XC, ZG; ISO-like codes such as EUU
// or WLD), which are not countries: rows are matched to the requested countries by ISO alpha-3 (any alpha-3 alias
// of our alpha-2 region, so Kosovo's XKX matches), never taken as places of their own. No key, no published limit.
import { dayUpdatedAt, worldBankDate } from "../domain/upstream-dates";
import { byDate, chunks, inRange, offeredFor, readNumber, str, upstreamMeta } from "./catalog-meta";
import { parseJson, protocolError, send, statusError, type Answer, type Transport } from "./http";
import {
  UpstreamError,
  type Connector,
  type DateRange,
  type FetchedSeries,
  type SeriesRef,
  type UpstreamObservation,
} from "./types";

type WbRef = Extract<SeriesRef, { connector: "worldbank" }>;
type WbRow = { country?: { id?: unknown }; countryiso3code?: unknown; date?: unknown; value?: unknown };
type WbMeta = { page?: unknown; pages?: unknown; lastupdated?: unknown };

/** From this many countries on, one "all" request is cheaper than naming them. */
const ALL_FROM = 20;
const NAMED_PER_REQUEST = 50;

export function worldBankConnector(
  cfg: { baseUrl: string },
  t: Transport,
  opts: { pageSize?: number } = {},
): Connector {
  const pageSize = opts.pageSize ?? 1000;

  function read(label: string) {
    return (a: Answer): { meta: WbMeta; rows: WbRow[] } => {
      if (a.status !== 200) throw statusError("worldbank", a, label, t.clock.now());
      const body = parseJson("worldbank", a, label);
      if (Array.isArray(body) && body.length === 1 && Array.isArray((body[0] as { message?: unknown })?.message)) {
        const msgs = (body[0] as { message: { id?: unknown; key?: unknown; value?: unknown }[] }).message;
        const said = msgs.map((m) => `${String(m?.id)} ${String(m?.key)}: ${String(m?.value)}`).join("; ");
        const unavailable = msgs.some(
          (m) => /unavailable/i.test(String(m?.value)) || /unavailable/i.test(String(m?.key)),
        );
        throw new UpstreamError({
          provider: "worldbank",
          kind: unavailable ? "over_capacity" : msgs.some((m) => String(m?.id) === "120") ? "not_found" : "bad_request",
          retryable: unavailable,
          status: 200,
          message: `${label}: ${said}`,
        });
      }
      if (
        !Array.isArray(body) ||
        body.length !== 2 ||
        typeof body[0] !== "object" ||
        body[0] === null ||
        !(body[1] === null || Array.isArray(body[1]))
      ) {
        throw protocolError("worldbank", label, "not a [meta, rows] pair");
      }
      return { meta: body[0] as WbMeta, rows: (body[1] ?? []) as WbRow[] };
    };
  }

  async function fetchIndicator(
    indicator: string,
    refs: WbRef[],
    range: DateRange | undefined,
    into: Map<string, UpstreamObservation[]>,
  ) {
    let updated: string | null = null;
    const byIso3 = new Map<string, WbRef[]>();
    for (const r of refs) for (const code of r.iso3) byIso3.set(code, [...(byIso3.get(code) ?? []), r]);
    const countries = [...new Set(refs.map((r) => r.iso2))].sort();
    const groups = countries.length >= ALL_FROM ? [["all"]] : chunks(countries, NAMED_PER_REQUEST);
    for (const group of groups) {
      for (let page = 1, pages = 1; page <= pages; page++) {
        const q = new URLSearchParams({ format: "json", per_page: String(pageSize), page: String(page) });
        if (range?.start || range?.end)
          q.set(
            "date",
            `${range?.start?.slice(0, 4) ?? "1960"}:${range?.end?.slice(0, 4) ?? t.clock.now().getUTCFullYear()}`,
          );
        const path = `/country/${group.join(";")}/indicator/${encodeURIComponent(indicator)}`;
        const label = `GET ${path} page ${page}`;
        const { meta, rows } = await send(t, "worldbank", { url: `${cfg.baseUrl}${path}?${q}`, label }, read(label));
        if (typeof meta.pages !== "number" || typeof meta.page !== "number")
          throw protocolError("worldbank", label, "no page count");
        pages = meta.pages;
        if (typeof meta.lastupdated === "string") updated = dayUpdatedAt(meta.lastupdated) ?? updated;
        for (const row of rows) {
          const iso3 = typeof row?.countryiso3code === "string" ? row.countryiso3code.toUpperCase() : "";
          const iso2 = typeof row?.country?.id === "string" ? row.country.id.toUpperCase() : "";
          // Matched by alpha-3; a row without one (older answers) by its alpha-2 id among the named countries.
          const targets = iso3 ? byIso3.get(iso3) : refs.filter((r) => r.iso2 === iso2);
          if (!targets?.length) continue;
          const date = typeof row.date === "string" ? worldBankDate(row.date) : null;
          if (!date) throw protocolError("worldbank", label, `bad date ${JSON.stringify(row.date)}`);
          if (!inRange(date, range)) continue;
          const value = readNumber("worldbank", row.value, `${indicator} ${iso3 || iso2} ${row.date}`);
          for (const r of targets) into.get(r.upstreamId)!.push({ date, value, isPreliminary: false });
        }
      }
    }
    return updated;
  }

  return {
    id: "worldbank",
    // One "all" request (paged) serves every country of an indicator.
    batchSize: Number.MAX_SAFE_INTEGER,
    seriesRef(indicator, region) {
      const m = upstreamMeta(indicator, "worldbank");
      const id = m && str(m, "indicator");
      if (!id || !/^[A-Za-z0-9._]+$/.test(id)) return null;
      if (region.type !== "country" || !offeredFor(indicator, region) || !/^[A-Z]{2}$/.test(region.code)) return null;
      const iso3 = region.aliases.filter((a) => /^[A-Z]{3}$/.test(a));
      if (iso3.length === 0) return null;
      return { connector: "worldbank", upstreamId: `${id}/${region.code}`, indicator: id, iso2: region.code, iso3 };
    },
    async fetch(refs, range) {
      for (const r of refs)
        if (r.connector !== "worldbank") throw new Error(`worldbank connector given a ${r.connector} ref`);
      const wbRefs = refs as WbRef[];
      const into = new Map<string, UpstreamObservation[]>(wbRefs.map((r) => [r.upstreamId, []]));
      const updated = new Map<string, string | null>();
      for (const [indicator, rs] of Map.groupBy(wbRefs, (r) => r.indicator))
        updated.set(indicator, await fetchIndicator(indicator, rs, range, into));
      return wbRefs.map(
        (ref): FetchedSeries => ({
          ref,
          observations: byDate(into.get(ref.upstreamId)!),
          sourceUpdatedAt: updated.get(ref.indicator) ?? null,
        }),
      );
    },
  };
}
