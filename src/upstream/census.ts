// Census Data API, ACS 5-year (acs/acs5): one request per year answers up to 50 variables for many places at once.
//   GET {base}/{year}/acs/acs5?get=B19013_001E,B25077_001E&for=county:*&in=state:06[&key=K]
//   -> [["B19013_001E","B25077_001E","state","county"], ["91905","659300","06","001"], [null,...], ...]
// A JSON 2-D array of strings, header first; a suppressed estimate is null or an annotation code (-666666666 ...),
// both missing, never zero. 204 means no row matched; 404 means the year is not published (yet). Errors are plain
// text ("error: unknown variable 'X'"). CENSUS_API_KEY is optional. Each year is dated YYYY-01-01 (the five-year
// period ending in it); the API gives no update time.
// Not served: PEP (POPESTIMATE, BIRTHS, ...). The PEP API stops at vintage 2019 for components of change (vintage
// 2021 has population and numeric change only, vintage 2023 only characteristics), while the catalog's PEP entries
// are the vintage 2024 co-est files; mixing vintages would store one series from two estimate bases. They are
// loaded from the files instead. ACS flows are county pairs, not one series per region (the flows issue).
import { byDate, chunks, inRange, readNumber, offeredFor, str, upstreamMeta } from "./catalog-meta";
import { parseJson, protocolError, send, statusError, type Answer, type Transport } from "./http";
import type { Connector, DateRange, FetchedSeries, SeriesRef, UpstreamObservation } from "./types";

type CensusRef = Extract<SeriesRef, { connector: "census" }>;

export const ACS5_FIRST_YEAR = 2009;
/** Variables per request (the API's limit). */
export const CENSUS_MAX_VARIABLES = 50;
const DATASETS = new Set(["acs/acs5"]);

/** One request shape: which places (a `for`, maybe an `in`) and which refs it serves. */
type GeoQuery = { params: Record<string, string>; refs: CensusRef[] };

/** Few places are named, many asked for with a wildcard: one national or statewide request fills them all. */
function geoQueries(refs: CensusRef[]): GeoQuery[] {
  const out: GeoQuery[] = [];
  const states = refs.filter((r) => r.geo.county === null);
  if (states.length) {
    const codes = [...new Set(states.map((r) => r.geo.state))].sort();
    out.push({ params: { for: codes.length > 10 ? "state:*" : `state:${codes.join(",")}` }, refs: states });
  }
  const counties = refs.filter((r) => r.geo.county !== null);
  const byState = Map.groupBy(counties, (r) => r.geo.state);
  if (byState.size > 3) out.push({ params: { for: "county:*" }, refs: counties });
  else {
    for (const [state, rs] of [...byState].sort(([a], [b]) => a.localeCompare(b))) {
      const codes = [...new Set(rs.map((r) => r.geo.county!))].sort();
      out.push({
        params: { for: codes.length > 10 ? "county:*" : `county:${codes.join(",")}`, in: `state:${state}` },
        refs: rs,
      });
    }
  }
  return out;
}

export function censusConnector(cfg: { apiKey: string | null; baseUrl: string }, t: Transport): Connector {
  function read(label: string) {
    return (a: Answer): unknown[][] | null => {
      if (a.status === 204) return [];
      if (a.status === 404) return null;
      if (a.status !== 200) throw statusError("census", a, label, t.clock.now(), a.text.slice(0, 200).trim() || null);
      const body = parseJson("census", a, label);
      if (!Array.isArray(body) || body.length === 0 || !body.every(Array.isArray)) {
        throw protocolError("census", label, "not a 2-D array");
      }
      return body as unknown[][];
    };
  }

  async function fetchDataset(
    dataset: string,
    refs: CensusRef[],
    range: DateRange | undefined,
    into: Map<string, UpstreamObservation[]>,
  ) {
    const first = Math.max(ACS5_FIRST_YEAR, range?.start ? Number(range.start.slice(0, 4)) : ACS5_FIRST_YEAR);
    // ACS 5-year for year Y is published in December of Y+1 at the earliest.
    const last = range?.end ? Number(range.end.slice(0, 4)) : t.clock.now().getUTCFullYear() - 1;
    for (const q of geoQueries(refs)) {
      for (const vars of chunks([...new Set(q.refs.map((r) => r.variable))].sort(), CENSUS_MAX_VARIABLES)) {
        for (let year = first; year <= last; year++) {
          const date = `${year}-01-01`;
          if (!inRange(date, range)) continue;
          const params = new URLSearchParams({ get: vars.join(","), ...q.params });
          const label = `GET ${year}/${dataset}?${params}`;
          if (cfg.apiKey) params.set("key", cfg.apiKey);
          const rows = await send(
            t,
            "census",
            { url: `${cfg.baseUrl}/${year}/${dataset}?${params}`, label },
            read(label),
          );
          if (!rows || rows.length === 0) continue;
          const header = rows[0].map(String);
          const col = (name: string) => header.indexOf(name);
          const si = col("state");
          const ci = col("county");
          if (si < 0) throw protocolError("census", label, "no state column");
          const wanted = new Map<string, CensusRef[]>();
          for (const r of q.refs) {
            if (!vars.includes(r.variable)) continue;
            const key = r.geo.state + (r.geo.county ?? "");
            wanted.set(key, [...(wanted.get(key) ?? []), r]);
          }
          for (const row of rows.slice(1)) {
            const key = String(row[si]) + (ci >= 0 && q.refs.some((r) => r.geo.county !== null) ? String(row[ci]) : "");
            for (const r of wanted.get(key) ?? []) {
              const vi = col(r.variable);
              if (vi < 0) continue;
              into.get(r.upstreamId)!.push({
                date,
                value: readNumber("census", row[vi], `${r.variable} ${key} ${year}`),
                isPreliminary: false,
              });
            }
          }
        }
      }
    }
  }

  return {
    id: "census",
    // One request per year serves every place of a variable: hand over as many refs as there are.
    batchSize: Number.MAX_SAFE_INTEGER,
    seriesRef(indicator, region) {
      const m = upstreamMeta(indicator, "census");
      const dataset = m && str(m, "dataset");
      const variable = m && str(m, "variable");
      if (
        !m ||
        m.program !== "ACS" ||
        !dataset ||
        !DATASETS.has(dataset) ||
        !variable ||
        !/^[A-Z0-9_]+$/.test(variable)
      )
        return null;
      if (!offeredFor(indicator, region) || !region.fipsState || !/^\d{2}$/.test(region.fipsState)) return null;
      let geo: CensusRef["geo"];
      if (region.type === "state") geo = { state: region.fipsState, county: null };
      else if (region.type === "county" && region.fipsCounty && /^\d{3}$/.test(region.fipsCounty))
        geo = { state: region.fipsState, county: region.fipsCounty };
      else return null;
      return {
        connector: "census",
        upstreamId: `${dataset}/${variable}/${geo.state}${geo.county ?? ""}`,
        dataset,
        variable,
        geo,
      };
    },
    async fetch(refs, range) {
      for (const r of refs)
        if (r.connector !== "census") throw new Error(`census connector given a ${r.connector} ref`);
      const censusRefs = refs as CensusRef[];
      const into = new Map<string, UpstreamObservation[]>(censusRefs.map((r) => [r.upstreamId, []]));
      for (const [dataset, rs] of Map.groupBy(censusRefs, (r) => r.dataset))
        await fetchDataset(dataset, rs, range, into);
      return censusRefs.map(
        (ref): FetchedSeries => ({ ref, observations: byDate(into.get(ref.upstreamId)!), sourceUpdatedAt: null }),
      );
    },
  };
}
