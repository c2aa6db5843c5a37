// A local stand-in for the four data providers the connectors call: a real HTTP server on 127.0.0.1 (Bun.serve,
// port 0) speaking each provider's wire format, so tests never reach the internet. Point a connector at it with
// `fake.config()` (UpstreamConfig) or `fake.env()` (the *_BASE_URL variables for a CLI subprocess).
//
//   FRED        GET /fred/series, /fred/series/observations   JSON, values as strings, "." missing,
//               errors { error_code, error_message } with the HTTP status; the key must match.
//   BLS         POST /bls/v1|v2/timeseries/data/   { status, responseTime, message[], Results.series[] }, data newest
//               first, "latest": "true", footnotes [{code:"P",text:"Preliminary."}] or [{}], M13 only with
//               annualaverage (v2), "No Data Available for Series X Year: Y", "Series does not exist for Series X",
//               refusals as 200 + REQUEST_NOT_PROCESSED. Requests over the per-query limits are recorded in
//               `violations` (BLS's own answer to them is not documented well enough to imitate).
//   Census      GET /census/{year}/{dataset}?get=&for=&in=   2-D string arrays with null; 204 when no row matches,
//               404 (HTML) for an unpublished year, 400 "error: unknown variable 'X'".
//   World Bank  GET /worldbank/country/{codes|all}/indicator/{id}?format=json&per_page&page&date   [meta, rows]
//               paged, aggregates included under "all", errors as [{ message: [{ id, key, value }] }].
//
// Tests load real values (see upstream-data.ts) and script faults per provider: fail with the provider's error
// body, throttle (429 + Retry-After), refuse (BLS REQUEST_NOT_PROCESSED), stall (never answer), and revise values.
// Every request is recorded.
import type { UpstreamConfig } from "../../src/config";
import { registerCleanup } from "./cleanup";

export type Provider = "fred" | "bls" | "census" | "worldbank";

export type RecordedRequest = {
  provider: Provider;
  method: string;
  path: string;
  query: Record<string, string | undefined>;
  body: any;
};

type Scripted = { kind: "reply"; status: number; body: string; headers?: Record<string, string> } | { kind: "stall" };

export type BlsDatum = { year: string; period: string; value: string; footnotes?: { code?: string; text?: string }[] };
export type WbRow = { iso2: string; iso3: string; name: string; date: string; value: number | null };

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

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json;charset=UTF-8", ...headers },
  });

const html = (status: number, title: string) =>
  new Response(`<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1></body></html>`, {
    status,
    headers: { "content-type": "text/html" },
  });

export class FakeUpstream {
  readonly requests: RecordedRequest[] = [];
  /** Requests the real provider would refuse or truncate (over its per-query limits). */
  readonly violations: string[] = [];
  readonly keys = { fred: "abcdefghijklmnopqrstuvwxyz012345", bls: "0123456789abcdef0123456789abcdef" };

  readonly fred = new Map<string, { lastUpdated: string; observations: { date: string; value: string }[] }>();
  readonly bls = new Map<string, BlsDatum[]>();
  /** year -> dataset -> "SS" or "SSCCC" -> variable -> value */
  readonly census = new Map<number, Map<string, Map<string, Record<string, string | null>>>>();
  readonly worldbank = new Map<string, { name: string; lastUpdated: string; rows: WbRow[] }>();

  private readonly scripts = new Map<Provider, Scripted[]>();
  private readonly stalled = new Set<() => void>();
  private server!: ReturnType<typeof Bun.serve>;

  static async start(): Promise<FakeUpstream> {
    const f = new FakeUpstream();
    f.server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req) => f.handle(req) });
    registerCleanup(() => f.close());
    return f;
  }

  get url(): string {
    return `http://127.0.0.1:${this.server.port}`;
  }

  /** Connector configuration pointing at this server (keys included unless told otherwise). */
  config(opts: { fredKey?: boolean; blsKey?: boolean; timeoutMs?: number } = {}): UpstreamConfig {
    return {
      fred: { apiKey: opts.fredKey === false ? null : this.keys.fred, baseUrl: `${this.url}/fred` },
      bls: { apiKey: opts.blsKey === false ? null : this.keys.bls, baseUrl: `${this.url}/bls` },
      census: { apiKey: null, baseUrl: `${this.url}/census` },
      worldbank: { baseUrl: `${this.url}/worldbank` },
      irsSoi: { baseUrl: `${this.url}/irs-soi/` },
      timeoutMs: opts.timeoutMs ?? 5000,
    };
  }

  /** The same as environment variables (for `svc` in a subprocess). */
  env(opts: { blsKey?: boolean } = {}): Record<string, string> {
    return {
      FRED_API_KEY: this.keys.fred,
      ...(opts.blsKey === false ? {} : { BLS_API_KEY: this.keys.bls }),
      FRED_BASE_URL: `${this.url}/fred`,
      BLS_BASE_URL: `${this.url}/bls`,
      CENSUS_BASE_URL: `${this.url}/census`,
      WORLDBANK_BASE_URL: `${this.url}/worldbank`,
    };
  }

  // ------------------------------------------------------------------------------------------------ data

  setFredSeries(
    id: string,
    observations: { date: string; value: string }[],
    lastUpdated = "2026-01-09 07:46:03-06",
  ): void {
    this.fred.set(id, { lastUpdated, observations: [...observations].sort((a, b) => a.date.localeCompare(b.date)) });
  }

  setBlsSeries(id: string, data: BlsDatum[]): void {
    this.bls.set(id, [...data]);
  }

  setCensus(year: number, dataset: string, geo: string, values: Record<string, string | null>): void {
    let byDataset = this.census.get(year);
    if (!byDataset) this.census.set(year, (byDataset = new Map()));
    let byGeo = byDataset.get(dataset);
    if (!byGeo) byDataset.set(dataset, (byGeo = new Map()));
    byGeo.set(geo, { ...byGeo.get(geo), ...values });
  }

  setWorldBank(indicator: string, name: string, rows: WbRow[], lastUpdated = "2025-07-01"): void {
    this.worldbank.set(indicator, { name, lastUpdated, rows: [...rows] });
  }

  /** Changes one published value, as a provider's revision does. */
  revise(provider: "fred", id: string, date: string, value: string): void;
  revise(provider: "bls", id: string, yearPeriod: string, value: string, footnotes?: BlsDatum["footnotes"]): void;
  revise(provider: "fred" | "bls", id: string, at: string, value: string, footnotes?: BlsDatum["footnotes"]): void {
    if (provider === "fred") {
      const o = this.fred.get(id)?.observations.find((x) => x.date === at);
      if (!o) throw new Error(`no FRED ${id} ${at}`);
      o.value = value;
    } else {
      const [year, period] = at.split(" ");
      const d = this.bls.get(id)?.find((x) => x.year === year && x.period === period);
      if (!d) throw new Error(`no BLS ${id} ${at}`);
      d.value = value;
      if (footnotes) d.footnotes = footnotes;
    }
  }

  // ------------------------------------------------------------------------------------------------ faults

  /** The next `times` requests to `provider` fail with `status` and the provider's own error body. */
  failNext(
    provider: Provider,
    status: number,
    opts: { message?: string; times?: number; retryAfter?: number } = {},
  ): void {
    const headers: Record<string, string> =
      opts.retryAfter !== undefined ? { "retry-after": String(opts.retryAfter) } : {};
    let body: string;
    if (provider === "fred") {
      body = JSON.stringify({
        error_code: status,
        error_message:
          opts.message ?? (status === 429 ? "Too Many Requests.  Exceeded Rate Limit" : "Internal Server Error"),
      });
      headers["content-type"] = "application/json";
    } else if (provider === "census") {
      body =
        opts.message ??
        "error: There was an error while running your query.  We've logged the error and we'll correct it ASAP.  Sorry for the inconvenience.";
    } else {
      body = `<!DOCTYPE html><html><body><h1>${opts.message ?? (status === 429 ? "Too Many Requests" : status === 503 ? "Service Unavailable" : "Error")}</h1></body></html>`;
      headers["content-type"] = "text/html";
    }
    this.push(provider, { kind: "reply", status, body, headers }, opts.times);
  }

  /** 429 with Retry-After (seconds), in the provider's format. */
  throttleNext(provider: Provider, retryAfter?: number, times = 1): void {
    this.failNext(provider, 429, { retryAfter, times });
  }

  /** BLS's refusal: HTTP 200 with status REQUEST_NOT_PROCESSED and its message. */
  blsRefuse(message: string, times = 1): void {
    this.push(
      "bls",
      {
        kind: "reply",
        status: 200,
        body: JSON.stringify({ status: "REQUEST_NOT_PROCESSED", responseTime: 12, message: [message], Results: {} }),
      },
      times,
    );
  }

  /** The World Bank's error envelope (HTTP 200). */
  worldBankMessage(id: string, key: string, value: string, times = 1): void {
    this.push(
      "worldbank",
      { kind: "reply", status: 200, body: JSON.stringify([{ message: [{ id, key, value }] }]) },
      times,
    );
  }

  /** Any answer, verbatim (a proxy's HTML page, a truncated body). */
  replyNext(provider: Provider, status: number, body: string, headers: Record<string, string> = {}, times = 1): void {
    this.push(provider, { kind: "reply", status, body, headers }, times);
  }

  /** The next `times` requests are accepted and never answered. */
  stallNext(provider: Provider, times = 1): void {
    this.push(provider, { kind: "stall" }, times);
  }

  private push(provider: Provider, s: Scripted, times = 1): void {
    const q = this.scripts.get(provider) ?? [];
    for (let i = 0; i < times; i++) q.push(s);
    this.scripts.set(provider, q);
  }

  /** Requests accepted by stallNext() and not yet answered. */
  get stalledCount(): number {
    return this.stalled.size;
  }

  /** Answers every stalled request now, with the 504 a gateway gives up with (a retryable failure). */
  releaseStalled(): void {
    for (const release of this.stalled) release();
    this.stalled.clear();
  }

  count(provider?: Provider): number {
    return provider ? this.requests.filter((r) => r.provider === provider).length : this.requests.length;
  }

  reset(): void {
    this.requests.length = 0;
    this.violations.length = 0;
    this.scripts.clear();
  }

  async close(): Promise<void> {
    this.releaseStalled();
    this.server?.stop(true);
  }

  // ------------------------------------------------------------------------------------------------ server

  private async handle(req: Request): Promise<Response> {
    const u = new URL(req.url);
    const provider = u.pathname.split("/")[1] as Provider;
    const query = Object.fromEntries(u.searchParams);
    let body: any = null;
    if (req.method === "POST") {
      const text = await req.text();
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    this.requests.push({ provider, method: req.method, path: u.pathname, query, body });
    const scripted = this.scripts.get(provider)?.shift();
    if (scripted?.kind === "stall") {
      return new Promise<Response>((resolve) => {
        const release = () => resolve(new Response("", { status: 504 }));
        this.stalled.add(release);
        req.signal.addEventListener("abort", () => this.stalled.delete(release));
      });
    }
    if (scripted) return new Response(scripted.body, { status: scripted.status, headers: scripted.headers });
    const rest = u.pathname.slice(provider.length + 1);
    switch (provider) {
      case "fred":
        return this.fredAnswer(rest, query);
      case "bls":
        return this.blsAnswer(rest, body);
      case "census":
        return this.censusAnswer(rest, query);
      case "worldbank":
        return this.worldBankAnswer(rest, query);
      default:
        return html(404, "Not Found");
    }
  }

  private fredAnswer(path: string, q: Record<string, string>): Response {
    const bad = (message: string, status = 400) => json({ error_code: status, error_message: message }, status);
    if (!q.api_key)
      return bad(
        "Bad Request.  Variable api_key is not set.  Read https://fred.stlouisfed.org/docs/api/api_key.html for more information.",
      );
    if (q.api_key !== this.keys.fred)
      return bad(
        "Bad Request.  The value for variable api_key is not registered.  Read https://fred.stlouisfed.org/docs/api/api_key.html for more information.",
      );
    if (q.file_type !== "json")
      return new Response('<?xml version="1.0"?><error/>', { status: 200, headers: { "content-type": "text/xml" } });
    const s = this.fred.get(q.series_id ?? "");
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

  private blsAnswer(path: string, body: any): Response {
    const m = /^\/(v1|v2)\/timeseries\/data\/?$/.exec(path);
    if (!m) return html(404, "Not Found");
    const v2 = m[1] === "v2";
    const refuse = (message: string) =>
      json({ status: "REQUEST_NOT_PROCESSED", responseTime: 3, message: [message], Results: {} });
    if (!body || typeof body !== "object" || !Array.isArray(body.seriesid))
      return refuse("Invalid Parameters: seriesid");
    if (v2 && body.registrationkey !== undefined && body.registrationkey !== this.keys.bls) {
      return refuse(`The key:${body.registrationkey} provided by the User is invalid.`);
    }
    const keyed = v2 && body.registrationkey === this.keys.bls;
    const maxSeries = keyed ? 50 : 25;
    const maxYears = keyed ? 20 : 10;
    const start = Number(body.startyear);
    const end = Number(body.endyear);
    if (body.seriesid.length > maxSeries)
      this.violations.push(`${body.seriesid.length} series in one query (limit ${maxSeries})`);
    if (end - start + 1 > maxYears) this.violations.push(`${end - start + 1} years in one query (limit ${maxYears})`);
    if (!keyed && body.annualaverage) this.violations.push("annualaverage without a registration key");
    const messages: string[] = [];
    const series = body.seriesid.map((id: string) => {
      const all = this.bls.get(id);
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

  private censusAnswer(path: string, q: Record<string, string>): Response {
    const m = /^\/(\d{4})\/(.+)$/.exec(path);
    const byGeo = m ? this.census.get(Number(m[1]))?.get(m[2]) : undefined;
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

  private worldBankAnswer(path: string, q: Record<string, string>): Response {
    const invalid = () =>
      json([{ message: [{ id: "120", key: "Invalid value", value: "The provided parameter value is not valid" }] }]);
    const m = /^\/country\/([^/]+)\/indicator\/([^/]+)$/.exec(path);
    if (!m || q.format !== "json") return html(404, "Not Found");
    const ind = this.worldbank.get(decodeURIComponent(m[2]));
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
}
