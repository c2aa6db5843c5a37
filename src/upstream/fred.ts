// FRED (api.stlouisfed.org/fred): one series per request.
//   GET {base}/series?series_id=ID&api_key=K&file_type=json
//       -> { seriess: [{ id, last_updated: "2024-06-07 07:51:02-05", ... }] }       (the update time)
//   GET {base}/series/observations?series_id=ID&api_key=K&file_type=json&observation_start=&observation_end=
//       &sort_order=asc&limit=&offset=
//       -> { count, offset, limit, observations: [{ realtime_start, realtime_end, date, value: "3.5" | "." }] }
// Errors: HTTP 400/404/423/429/500 with { error_code, error_message }. A key is required: without FRED_API_KEY the
// connector offers nothing. Dates are FRED's own (period start; weekly series carry their week-ending day).
import { fredUpdatedAt } from "../domain/upstream-dates";
import { byDate, readNumber, seriesIdFor, upstreamMeta } from "./catalog-meta";
import { parseJson, protocolError, send, statusError, type Answer, type Transport } from "./http";
import {
  UpstreamError,
  type Connector,
  type DateRange,
  type FetchedSeries,
  type SeriesRef,
  type UpstreamObservation,
} from "./types";

type FredRef = Extract<SeriesRef, { connector: "fred" }>;

/** FRED's largest page. */
const PAGE = 100_000;

export function fredConnector(
  cfg: { apiKey: string | null; baseUrl: string },
  t: Transport,
  opts: { pageSize?: number } = {},
): Connector {
  const pageSize = opts.pageSize ?? PAGE;

  function read(label: string) {
    return (a: Answer): unknown => {
      if (a.status === 200) return parseJson("fred", a, label);
      let detail: string | null = null;
      try {
        const body = JSON.parse(a.text) as { error_message?: unknown; message?: unknown };
        detail =
          typeof body.error_message === "string"
            ? body.error_message
            : typeof body.message === "string"
              ? body.message
              : null;
      } catch {
        // An HTML error page: the status says enough.
      }
      const e = statusError("fred", a, label, t.clock.now(), detail);
      // FRED answers 400 both for an unknown series and for a refused key; the message tells them apart.
      if (a.status === 400 && detail && /api_key/i.test(detail)) return fail(e, "auth");
      if (a.status === 400 && detail && /does not exist/i.test(detail)) return fail(e, "not_found");
      throw e;
    };
  }

  function fail(e: UpstreamError, kind: "auth" | "not_found"): never {
    throw new UpstreamError({
      provider: "fred",
      kind,
      status: e.status,
      retryable: false,
      message: e.message.replace(/^fred: /, ""),
    });
  }

  function url(path: string, params: Record<string, string>): string {
    const q = new URLSearchParams({ ...params, api_key: cfg.apiKey ?? "", file_type: "json" });
    return `${cfg.baseUrl}${path}?${q}`;
  }

  async function fetchOne(ref: FredRef, range?: DateRange): Promise<FetchedSeries> {
    const infoLabel = `GET series ${ref.seriesId}`;
    const info = (await send(
      t,
      "fred",
      { url: url("/series", { series_id: ref.seriesId }), label: infoLabel },
      read(infoLabel),
    )) as {
      seriess?: { last_updated?: unknown }[];
    };
    const lastUpdated = info?.seriess?.[0]?.last_updated;
    if (typeof lastUpdated !== "string") throw protocolError("fred", infoLabel, "no seriess[0].last_updated");

    const observations: UpstreamObservation[] = [];
    for (let offset = 0; ; ) {
      const params: Record<string, string> = {
        series_id: ref.seriesId,
        sort_order: "asc",
        limit: String(pageSize),
        offset: String(offset),
      };
      if (range?.start) params.observation_start = range.start;
      if (range?.end) params.observation_end = range.end;
      const label = `GET series/observations ${ref.seriesId} offset ${offset}`;
      const body = (await send(t, "fred", { url: url("/series/observations", params), label }, read(label))) as {
        count?: unknown;
        observations?: unknown;
      };
      if (!body || !Array.isArray(body.observations) || typeof body.count !== "number")
        throw protocolError("fred", label, "no observations array or count");
      for (const o of body.observations as { date?: unknown; value?: unknown }[]) {
        if (typeof o?.date !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(o.date))
          throw protocolError("fred", label, `bad date ${JSON.stringify(o?.date)}`);
        observations.push({
          date: o.date,
          value: readNumber("fred", o.value, `${ref.seriesId} ${o.date}`),
          isPreliminary: false,
        });
      }
      offset += body.observations.length;
      if (body.observations.length === 0 || offset >= body.count) break;
    }
    return { ref, observations: byDate(observations), sourceUpdatedAt: fredUpdatedAt(lastUpdated) };
  }

  return {
    id: "fred",
    batchSize: 1,
    seriesRef(indicator, region) {
      const m = upstreamMeta(indicator, "fred");
      if (!m || !cfg.apiKey) return null;
      const id = seriesIdFor(indicator, region, m);
      return id ? { connector: "fred", upstreamId: id, seriesId: id } : null;
    },
    async fetch(refs, range) {
      const out: FetchedSeries[] = [];
      for (const ref of refs) {
        if (ref.connector !== "fred") throw new Error(`fred connector given a ${ref.connector} ref`);
        out.push(await fetchOne(ref, range));
      }
      return out;
    },
  };
}
