// The four providers' wire formats, as the fake upstream (test/support/fake-upstream.ts) answers them from the data
// a test loaded: FRED's JSON with values as strings, BLS's results newest first with its footnotes and refusals,
// Census's 2-D string arrays, the World Bank's paged [meta, rows]. Faults and recording are the fake's.
export type BlsDatum = { year: string; period: string; value: string; footnotes?: { code?: string; text?: string }[] };
export type WbRow = { iso2: string; iso3: string; name: string; date: string; value: number | null };

/** What the answers read: the data loaded into the fake, its keys, and where over-limit requests are recorded. */
export type ProviderData = {
  readonly fred: Map<string, { lastUpdated: string; observations: { date: string; value: string }[] }>;
  readonly bls: Map<string, BlsDatum[]>;
  /** year -> dataset -> geography -> variable -> value */
  readonly census: Map<number, Map<string, Map<string, Record<string, string | null>>>>;
  readonly worldbank: Map<string, { name: string; lastUpdated: string; rows: WbRow[] }>;
  readonly keys: { fred: string; bls: string };
  readonly violations: string[];
};

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

function periodName(period: string): string {
  if (period === "M13") return "Annual";
  const m = /^M(\d{2})$/.exec(period);
  if (m) return MONTHS[Number(m[1]) - 1];
  const q = /^Q0([1-5])$/.exec(period);
  if (q) return q[1] === "5" ? "Annual" : `${q[1]}${["st", "nd", "rd", "th"][Number(q[1]) - 1]} Quarter`;
  return "Annual";
}

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json;charset=UTF-8", ...headers },
  });

export const html = (status: number, title: string) =>
  new Response(`<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1></body></html>`, {
    status,
    headers: { "content-type": "text/html" },
  });

export function fredAnswer(store: ProviderData, path: string, q: Record<string, string>): Response {
  const bad = (message: string, status = 400) => json({ error_code: status, error_message: message }, status);
  if (!q.api_key)
    return bad(
      "Bad Request.  Variable api_key is not set.  Read https://fred.stlouisfed.org/docs/api/api_key.html for more information.",
    );
  if (q.api_key !== store.keys.fred)
    return bad(
      "Bad Request.  The value for variable api_key is not registered.  Read https://fred.stlouisfed.org/docs/api/api_key.html for more information.",
    );
  if (q.file_type !== "json")
    return new Response('<?xml version="1.0"?><error/>', { status: 200, headers: { "content-type": "text/xml" } });
  const s = store.fred.get(q.series_id ?? "");
  if (!s) return bad("Bad Request.  The series does not exist.");
  const today = "2026-01-10";
  if (path === "/series") {
    return json({
      realtime_start: today,
      realtime_end: today,
      seriess: [
        {
          id: q.series_id,
          realtime_start: today,
          realtime_end: today,
          title: q.series_id,
          observation_start: s.observations[0]?.date,
          observation_end: s.observations.at(-1)?.date,
          last_updated: s.lastUpdated,
        },
      ],
    });
  }
  if (path !== "/series/observations") return bad("Not Found", 404);
  const start = q.observation_start ?? "1776-07-04";
  const end = q.observation_end ?? "9999-12-31";
  const all = s.observations.filter((o) => o.date >= start && o.date <= end);
  if (q.sort_order === "desc") all.reverse();
  const limit = Number(q.limit ?? 100000);
  const offset = Number(q.offset ?? 0);
  if (!(limit >= 1 && limit <= 100000)) return bad("Bad Request.  Variable limit is not between 1 and 100000.");
  return json({
    realtime_start: today,
    realtime_end: today,
    observation_start: start,
    observation_end: end,
    units: "lin",
    output_type: 1,
    file_type: "json",
    order_by: "observation_date",
    sort_order: q.sort_order ?? "asc",
    count: all.length,
    offset,
    limit,
    observations: all
      .slice(offset, offset + limit)
      .map((o) => ({ realtime_start: today, realtime_end: today, date: o.date, value: o.value })),
  });
}

export function blsAnswer(store: ProviderData, path: string, body: any): Response {
  const m = /^\/(v1|v2)\/timeseries\/data\/?$/.exec(path);
  if (!m) return html(404, "Not Found");
  const v2 = m[1] === "v2";
  const refuse = (message: string) =>
    json({ status: "REQUEST_NOT_PROCESSED", responseTime: 3, message: [message], Results: {} });
  if (!body || typeof body !== "object" || !Array.isArray(body.seriesid)) return refuse("Invalid Parameters: seriesid");
  if (v2 && body.registrationkey !== undefined && body.registrationkey !== store.keys.bls) {
    return refuse(`The key:${body.registrationkey} provided by the User is invalid.`);
  }
  const keyed = v2 && body.registrationkey === store.keys.bls;
  const maxSeries = keyed ? 50 : 25;
  const maxYears = keyed ? 20 : 10;
  const start = Number(body.startyear);
  const end = Number(body.endyear);
  if (body.seriesid.length > maxSeries)
    store.violations.push(`${body.seriesid.length} series in one query (limit ${maxSeries})`);
  if (end - start + 1 > maxYears) store.violations.push(`${end - start + 1} years in one query (limit ${maxYears})`);
  if (!keyed && body.annualaverage) store.violations.push("annualaverage without a registration key");
  const messages: string[] = [];
  const series = body.seriesid.map((id: string) => {
    const all = store.bls.get(id);
    if (!all) {
      messages.push(`Series does not exist for Series ${id}`);
      return { seriesID: id, data: [] };
    }
    const data = all
      .filter(
        (d) =>
          Number(d.year) >= start &&
          Number(d.year) <= end &&
          (d.period !== "M13" || (keyed && body.annualaverage === true)),
      )
      .sort((a, b) => (a.year === b.year ? b.period.localeCompare(a.period) : b.year.localeCompare(a.year)));
    for (let y = end; y >= start; y--)
      if (!data.some((d) => d.year === String(y))) messages.push(`No Data Available for Series ${id} Year: ${y}`);
    const newest = data.find((d) => d.period !== "M13");
    return {
      seriesID: id,
      data: data.map((d) => ({
        year: d.year,
        period: d.period,
        periodName: periodName(d.period),
        ...(d === newest ? { latest: "true" } : {}),
        value: d.value,
        footnotes: d.footnotes && d.footnotes.length ? d.footnotes : [{}],
      })),
    };
  });
  return json({ status: "REQUEST_SUCCEEDED", responseTime: 41, message: messages, Results: { series } });
}

export function censusAnswer(store: ProviderData, path: string, q: Record<string, string>): Response {
  const m = /^\/(\d{4})\/(.+)$/.exec(path);
  const byGeo = m ? store.census.get(Number(m[1]))?.get(m[2]) : undefined;
  if (!m || !byGeo) return html(404, "404 - Not Found");
  const vars = (q.get ?? "").split(",").filter(Boolean);
  if (vars.length === 0) return new Response("error: missing 'get' parameter", { status: 400 });
  if (vars.length > 50) return new Response("error: A maximum of 50 variables may be requested", { status: 400 });
  const known = new Set([...byGeo.values()].flatMap((r) => Object.keys(r)));
  const unknown = vars.find((v) => v !== "NAME" && !known.has(v));
  if (unknown) return new Response(`error: unknown variable '${unknown}'`, { status: 400 });
  const [forKind, forList] = (q.for ?? "").split(":");
  const inState = q.in ? q.in.replace(/^state:/, "") : null;
  const pick = (list: string) => (list === "*" ? null : new Set(list.split(",")));
  const wanted = pick(forList ?? "*");
  const rows: (string | null)[][] = [];
  for (const [geo, values] of [...byGeo].sort(([a], [b]) => a.localeCompare(b))) {
    if (forKind === "state" && geo.length === 2 && (!wanted || wanted.has(geo)))
      rows.push([...vars.map((v) => values[v] ?? null), geo]);
    if (
      forKind === "county" &&
      geo.length === 5 &&
      (!inState || inState === "*" || inState === geo.slice(0, 2)) &&
      (!wanted || wanted.has(geo.slice(2)))
    ) {
      rows.push([...vars.map((v) => values[v] ?? null), geo.slice(0, 2), geo.slice(2)]);
    }
  }
  if (forKind !== "state" && forKind !== "county")
    return new Response("error: unknown/unsupported geography heirarchy", { status: 400 });
  if (rows.length === 0) return new Response(null, { status: 204 });
  const header = [...vars, ...(forKind === "state" ? ["state"] : ["state", "county"])];
  return json([header, ...rows]);
}

export function worldBankAnswer(store: ProviderData, path: string, q: Record<string, string>): Response {
  const invalid = () =>
    json([{ message: [{ id: "120", key: "Invalid value", value: "The provided parameter value is not valid" }] }]);
  const m = /^\/country\/([^/]+)\/indicator\/([^/]+)$/.exec(path);
  if (!m || q.format !== "json") return html(404, "Not Found");
  const ind = store.worldbank.get(decodeURIComponent(m[2]));
  if (!ind) return invalid();
  const codes = decodeURIComponent(m[1]).toUpperCase().split(";");
  let rows = codes.includes("ALL")
    ? ind.rows
    : ind.rows.filter((r) => codes.includes(r.iso2) || codes.includes(r.iso3));
  if (q.date) {
    const [a, b] = q.date.split(":");
    rows = rows.filter((r) => r.date.slice(0, 4) >= a && r.date.slice(0, 4) <= (b ?? a));
  }
  rows = [...rows].sort((x, y) => (x.iso3 === y.iso3 ? y.date.localeCompare(x.date) : x.iso3.localeCompare(y.iso3)));
  const perPage = Number(q.per_page ?? 50);
  const page = Number(q.page ?? 1);
  const pages = Math.max(1, Math.ceil(rows.length / perPage));
  const meta = {
    page,
    pages,
    per_page: perPage,
    total: rows.length,
    sourceid: "2",
    sourcename: "World Development Indicators",
    lastupdated: ind.lastUpdated,
  };
  const slice = rows.slice((page - 1) * perPage, page * perPage);
  return json([
    meta,
    slice.length === 0 && rows.length === 0
      ? null
      : slice.map((r) => ({
          indicator: { id: m[2], value: ind.name },
          country: { id: r.iso2, value: r.name },
          countryiso3code: r.iso3,
          date: r.date,
          value: r.value,
          unit: "",
          obs_status: "",
          decimal: 0,
        })),
  ]);
}
