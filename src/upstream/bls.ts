// BLS Public Data API: POST {base}/v2/timeseries/data/ with a key (BLS_API_KEY), {base}/v1/timeseries/data/ without.
//   body   { seriesid: [...], startyear: "2007", endyear: "2026", registrationkey?, annualaverage?: true }
//   answer { status: "REQUEST_SUCCEEDED" | "REQUEST_NOT_PROCESSED" | ..., message: [...],
//            Results: { series: [{ seriesID, data: [{ year, period: "M01".."M13", periodName, latest?, value: "4.4" | "-",
//                                                    footnotes: [{ code: "P", text: "Preliminary." } | {}] }] }] } }
// Per query: v2 50 series and 20 years, v1 25 series and 10 years; longer spans take several windows, newest
// first. Annual averages (period M13) are a v2 feature: an annual-average entry (meta.upstream.annual_average) is
// offered only with a key, and M13 is kept only for such entries. Quirks: "Series does not exist for Series X"
// comes in the message list of a successful answer; "No Data Available for Series X Year: Y" is no error; a quota
// or capacity refusal is a 200 with status REQUEST_NOT_PROCESSED. BLS gives no update time.
import { blsPeriodDate, secondsUntilMidnight } from "../domain/upstream-dates";
import { byDate, chunks, inRange, readNumber, seriesIdFor, upstreamMeta } from "./catalog-meta";
import { parseJson, protocolError, send, statusError, type Answer, type Transport } from "./http";
import {
  UpstreamError,
  type Connector,
  type DateRange,
  type FetchedSeries,
  type SeriesRef,
  type UpstreamObservation,
} from "./types";

type BlsRef = Extract<SeriesRef, { connector: "bls" }>;
type BlsDatum = { year?: unknown; period?: unknown; value?: unknown; footnotes?: unknown };

export const BLS_LIMITS = {
  v2: { seriesPerQuery: 50, yearsPerQuery: 20 },
  v1: { seriesPerQuery: 25, yearsPerQuery: 10 },
} as const;

/** The oldest year a query needs to ask for: LAUS states start in 1976, counties in 1990; BLS's oldest data is 1913. */
function firstYear(seriesId: string): number {
  if (/^LA[SU]ST/.test(seriesId)) return 1976;
  if (/^LA[SU]CN/.test(seriesId)) return 1990;
  return 1913;
}

/** BLS quotas reset at midnight US Eastern. */
const QUOTA_ZONE = "America/New_York";

export function blsConnector(cfg: { apiKey: string | null; baseUrl: string }, t: Transport): Connector {
  const version = cfg.apiKey ? "v2" : "v1";
  const limits = BLS_LIMITS[version];
  const endpoint = `${cfg.baseUrl}/${version}/timeseries/data/`;
  const scrub = (s: string) => (cfg.apiKey ? s.split(cfg.apiKey).join("***") : s);

  function read(label: string) {
    return (a: Answer) => {
      if (a.status !== 200) throw statusError("bls", a, label, t.clock.now());
      const body = parseJson("bls", a, label) as {
        status?: unknown;
        message?: unknown;
        Results?: { series?: unknown };
      };
      const messages = (Array.isArray(body?.message) ? body.message : [])
        .filter((m): m is string => typeof m === "string")
        .map(scrub);
      const said = messages.join(" ");
      if (body?.status === "REQUEST_SUCCEEDED") {
        if (!Array.isArray(body.Results?.series)) throw protocolError("bls", label, "no Results.series");
        return { series: body.Results.series as { seriesID?: unknown; data?: unknown }[], messages };
      }
      const base = {
        provider: "bls" as const,
        status: a.status,
        message: `${label}: ${String(body?.status)}${said ? ` (${said})` : ""}`,
      };
      if (body?.status === "REQUEST_NOT_PROCESSED" && /threshold|exceeded the number of requests/i.test(said)) {
        // The day's allowance is gone for every caller until BLS's midnight.
        const seconds = secondsUntilMidnight(t.clock.now(), QUOTA_ZONE);
        t.limiter.pause("bls", t.clock.now().getTime() + seconds * 1000);
        throw new UpstreamError({ ...base, kind: "quota", retryable: true, retryAfterSeconds: seconds });
      }
      if (/key/i.test(said) && /invalid/i.test(said))
        throw new UpstreamError({ ...base, kind: "auth", retryable: false });
      if (body?.status === "REQUEST_NOT_PROCESSED" || body?.status === "REQUEST_FAILED_OVER_CAPACITY") {
        throw new UpstreamError({ ...base, kind: "over_capacity", retryable: true });
      }
      throw new UpstreamError({ ...base, kind: "bad_request", retryable: false });
    };
  }

  /** Every datum of each series id over [start, end], newest window first; ids BLS says do not exist. */
  async function fetchBatch(ids: string[], annual: boolean, range?: DateRange) {
    const data = new Map<string, BlsDatum[]>(ids.map((id) => [id, []]));
    const missing = new Set<string>();
    const endYear = range?.end ? Number(range.end.slice(0, 4)) : t.clock.now().getUTCFullYear();
    const startYear = range?.start ? Number(range.start.slice(0, 4)) : Math.min(...ids.map(firstYear));
    // Without a start, a series is done once a window older than its first data comes back empty.
    const done = new Set<string>();
    const seen = new Set<string>();
    for (let hi = endYear; hi >= startYear; hi -= limits.yearsPerQuery) {
      const lo = Math.max(startYear, hi - limits.yearsPerQuery + 1);
      const ask = ids.filter((id) => !done.has(id) && !missing.has(id));
      if (ask.length === 0) break;
      const body: Record<string, unknown> = { seriesid: ask, startyear: String(lo), endyear: String(hi) };
      if (cfg.apiKey) body.registrationkey = cfg.apiKey;
      if (annual) body.annualaverage = true;
      const label = `POST ${version}/timeseries/data ${ask.length} series ${lo}-${hi}`;
      const answer = await send(
        t,
        "bls",
        {
          url: endpoint,
          label,
          init: { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) },
        },
        read(label),
      );
      for (const m of answer.messages) {
        const gone = /Series does not exist for Series (\S+)/i.exec(m);
        if (gone) missing.add(gone[1]);
      }
      const got = new Set<string>();
      for (const s of answer.series) {
        if (typeof s?.seriesID !== "string" || !data.has(s.seriesID)) continue;
        if (!Array.isArray(s.data)) throw protocolError("bls", label, `no data array for ${s.seriesID}`);
        if (s.data.length > 0) got.add(s.seriesID);
        data.get(s.seriesID)!.push(...(s.data as BlsDatum[]));
      }
      for (const id of ask) {
        if (got.has(id)) seen.add(id);
        else if (seen.has(id) && !range?.start) done.add(id);
      }
    }
    return { data, missing };
  }

  function observations(ref: BlsRef, data: BlsDatum[], range?: DateRange): UpstreamObservation[] {
    const out: UpstreamObservation[] = [];
    for (const d of data) {
      const p = typeof d.year === "string" && typeof d.period === "string" ? blsPeriodDate(d.year, d.period) : null;
      if (!p)
        throw protocolError(
          "bls",
          ref.seriesId,
          `unknown period ${JSON.stringify(d.year)} ${JSON.stringify(d.period)}`,
        );
      if (p.annualAverage !== ref.annualAverage || !inRange(p.date, range)) continue;
      const footnotes = Array.isArray(d.footnotes) ? (d.footnotes as { code?: unknown }[]) : [];
      out.push({
        date: p.date,
        value: readNumber("bls", d.value, `${ref.seriesId} ${d.year} ${d.period}`),
        isPreliminary: footnotes.some((f) => f?.code === "P"),
      });
    }
    return byDate(out);
  }

  return {
    id: "bls",
    batchSize: limits.seriesPerQuery,
    seriesRef(indicator, region) {
      const m = upstreamMeta(indicator, "bls");
      if (!m) return null;
      const annualAverage = m.annual_average === true;
      if (annualAverage && !cfg.apiKey) return null;
      const id = seriesIdFor(indicator, region, m);
      if (!id) return null;
      return { connector: "bls", upstreamId: annualAverage ? `${id}/annual` : id, seriesId: id, annualAverage };
    },
    async fetch(refs, range) {
      for (const r of refs) if (r.connector !== "bls") throw new Error(`bls connector given a ${r.connector} ref`);
      const blsRefs = refs as BlsRef[];
      const ids = [...new Set(blsRefs.map((r) => r.seriesId))];
      const all = new Map<string, BlsDatum[]>();
      const missing = new Set<string>();
      for (const batch of chunks(ids, limits.seriesPerQuery)) {
        const annual = blsRefs.some((r) => r.annualAverage && batch.includes(r.seriesId));
        const got = await fetchBatch(batch, annual, range);
        for (const [id, d] of got.data) all.set(id, d);
        for (const id of got.missing) missing.add(id);
      }
      return blsRefs.map((ref): FetchedSeries => {
        if (missing.has(ref.seriesId)) {
          return {
            ref,
            observations: [],
            sourceUpdatedAt: null,
            error: new UpstreamError({
              provider: "bls",
              kind: "not_found",
              retryable: false,
              message: `series ${ref.seriesId} does not exist`,
            }),
          };
        }
        return { ref, observations: observations(ref, all.get(ref.seriesId) ?? [], range), sourceUpdatedAt: null };
      });
    },
  };
}
