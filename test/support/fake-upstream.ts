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
// Every request is recorded. The answers in each wire format are fake-upstream-answers.ts.
import type { UpstreamConfig } from "../../src/config";
import { registerCleanup } from "./cleanup";
import {
  blsAnswer,
  censusAnswer,
  fredAnswer,
  html,
  worldBankAnswer,
  type BlsDatum,
  type ProviderData,
  type WbRow,
} from "./fake-upstream-answers";

export type Provider = "fred" | "bls" | "census" | "worldbank";

export type RecordedRequest = {
  provider: Provider;
  method: string;
  path: string;
  query: Record<string, string | undefined>;
  body: any;
};

type Scripted = { kind: "reply"; status: number; body: string; headers?: Record<string, string> } | { kind: "stall" };

export type { BlsDatum, WbRow };

export class FakeUpstream implements ProviderData {
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
        return fredAnswer(this, rest, query);
      case "bls":
        return blsAnswer(this, rest, body);
      case "census":
        return censusAnswer(this, rest, query);
      case "worldbank":
        return worldBankAnswer(this, rest, query);
      default:
        return html(404, "Not Found");
    }
  }
}
