// Provisioning end to end with the server's own SeriesFetcher (src/services/upstream-fetcher.ts: the upstream
// connectors) against the fake upstream (a real HTTP server on loopback speaking FRED's and BLS's wire formats,
// serving values those agencies published), with the real job engine on the run's database (PGlite, or PostgreSQL
// with TEST_DATABASE_URL):
// - coverage: LASST03 (no state held) is fetched on request from bls, for every state;
// - FRED UNRATE and BLS LASST04 for Texas, offered but not held: 202 with Retry-After and the provisioning body, the
//   same request_ref while the fetch is under way, then 200 with exactly the values the fake served;
// - BLS failing on every try: the clear 502 naming 'bls' with Retry-After, not an endless 202;
// - FRED not publishing a series: 502 naming 'fred' after one attempt; once it does and retry_at has passed, a new
//   request provisions it.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { regionList } from "../../db/seed/regions";
import { errorEnvelopeSchema } from "../../src/schemas/errors";
import { indicatorDetailResponseSchema } from "../../src/schemas/catalog";
import { observationsResponseSchema } from "../../src/schemas/observations";
import { provisioningBodySchema } from "../../src/schemas/provisioning";
import { FakeUpstream, type BlsDatum } from "../support/fake-upstream";
import { fredUs, makeUpstreamJobsTestApp, waitFor, type SeriesAddress } from "../support/jobs";
import { blsStateMonthly, fredCsv } from "../support/upstream-data";

setDefaultTimeout(120_000);

const UNRATE = fredCsv("UNRATE");
const GDP = fredCsv("GDP");
const TX_UNEMPLOYED_ID = "LASST480000000000004";
const TX_UNEMPLOYED: BlsDatum[] | null = (() => {
  const data = blsStateMonthly()?.get(TX_UNEMPLOYED_ID);
  if (!data) return null;
  // BLS marks its newest month preliminary (footnote P); the file's last month stands in for it.
  return data.map((d, i) => (i === data.length - 1 ? { ...d, footnotes: [{ code: "P", text: "Preliminary." }] } : d));
})();
const STATES = regionList().filter((x) => x.type === "state").map((x) => x.code);
const haveData = UNRATE !== null && GDP !== null && TX_UNEMPLOYED !== null;
if (!haveData) console.warn("skipped: ../shared/data (fred-macro-us, bls-state-unemployment-monthly) is not here");
const d = haveData ? describe : describe.skip;

let fake: FakeUpstream;
let t: Awaited<ReturnType<typeof makeUpstreamJobsTestApp>>;
beforeAll(async () => {
  if (!haveData) return;
  fake = await FakeUpstream.start();
  fake.setFredSeries("UNRATE", UNRATE!, "2025-12-05 07:44:02-06");
  fake.setBlsSeries(TX_UNEMPLOYED_ID, TX_UNEMPLOYED!);
  // One retry after the first attempt; requests are told to come back 10 minutes after the upstream gave up. A stalled
  // upstream request is released by the test, never by the connectors' timeout.
  t = await makeUpstreamJobsTestApp(fake, {
    env: { PROVISION_RETRY_LIMIT: "1", PROVISION_FAILURE_COOLDOWN_SECONDS: "600" },
    // The snapshot holds LASST03 and LASST04 for every state: removed here, each is what provisioning is for.
    unheld: [...fredUs("UNRATE", "GDP"), ["worldbank", "SL.UEM.TOTL.ZS", "US"], ["bls", "LASST04", "48"], ...STATES.map((code): SeriesAddress => ["bls", "LASST03", code])],
    timeoutMs: 60_000,
  });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const obs = (indicator: string, region: string) => `/v1/observations?indicator=${indicator}&region=${region}&order=asc&limit=1000`;

async function untilStatus(path: string, status: number) {
  return waitFor(`${path} to answer ${status}`, async () => {
    const r = await t.getJson(path);
    return r.status === status ? r : undefined;
  });
}

/** Polls until the series is served; every 202 on the way must carry `ref`. */
async function untilServed(path: string, ref: string) {
  return waitFor(`${path} to be served`, async () => {
    const r = await t.getJson(path);
    if (r.status === 202) expect(r.body.request_ref).toBe(ref);
    else expect(r.status).toBe(200);
    return r.status === 200 ? observationsResponseSchema.parse(r.body) : undefined;
  });
}

const rowsOf = (page: { data: unknown[] }) => page.data.map((r) => r as { date: string; value: number | null; is_preliminary: boolean; source_updated_at: string | null; revision: number });

d("coverage with the upstream connectors", () => {
  test("LASST03 holds no state: the rest are fetched on request from bls, and every state is available", async () => {
    const r = await t.getJson("/v1/indicators/LASST03");
    expect(r.status).toBe(200);
    const detail = indicatorDetailResponseSchema.parse(r.body).data;
    const states = regionList()
      .filter((x) => x.type === "state")
      .map((x) => x.code)
      .sort();
    expect(states.length).toBeGreaterThanOrEqual(51);
    expect(detail.coverage).toMatchObject({ regions_held: 0, regions_offered: states.length, other_regions: "fetch_on_request", fetch_via: "bls" });
    expect([...detail.available_regions].sort()).toEqual(states);
  });
});

d("202 -> retry -> 200 through the connectors", () => {
  test("FRED UNRATE: 202 with Retry-After and the provisioning body, the same request_ref while FRED is slow, then the values FRED served", async () => {
    const from = fake.requests.length;
    fake.stallNext("fred");
    const first = await t.getJson(obs("UNRATE", "US"));
    expect(first.status).toBe(202);
    expect(first.res.headers.get("retry-after")).toBe("5");
    expect(first.res.headers.get("cache-control")).toBe("no-store");
    const body = provisioningBodySchema.parse(first.body);
    expect(body).toEqual({ status: "provisioning", indicator: "UNRATE", region: "US", retry_after_seconds: 5, request_ref: body.request_ref });

    // The job's first request to FRED hangs: every read meanwhile is a 202 with the same ref.
    await waitFor("the fetch to reach FRED", () => fake.stalledCount === 1);
    for (const path of [obs("UNRATE", "US"), "/v1/observations/latest?indicator=UNRATE&region=US", "/v1/observations?indicator=unemployment_rate&region=US"]) {
      const again = await t.getJson(path);
      expect([again.status, again.body.request_ref, again.body.indicator]).toEqual([202, body.request_ref, "UNRATE"]);
    }

    // FRED's gateway gives up (504): the connector backs off and asks again, and the job completes.
    fake.releaseStalled();
    const page = await untilServed(obs("UNRATE", "US"), body.request_ref);
    const served = UNRATE!.map((o) => [o.date, o.value === "." ? null : Number(o.value)]);
    expect(page.meta.total).toBe(served.length);
    expect(rowsOf(page).map((r) => [r.date, r.value])).toEqual(served);
    // FRED's last_updated (US Central, -06) is each row's source update time; a first fetch is revision 1.
    expect(new Set(rowsOf(page).map((r) => `${r.source_updated_at} ${r.revision} ${r.is_preliminary}`))).toEqual(new Set(["2025-12-05T13:44:02.000Z 1 false"]));

    const asked = fake.requests.slice(from);
    expect(asked.map((q) => q.path)).toEqual(["/fred/series", "/fred/series", "/fred/series/observations"]);
    expect(asked.every((q) => q.query.series_id === "UNRATE" && q.query.api_key === fake.keys.fred && q.query.file_type === "json")).toBe(true);
    expect(t.upstream.slept).toContain(1000);
  });

  test("BLS LASST04 for Texas: 202, then the 1976-2020 months BLS served, the newest preliminary, in 20-year queries", async () => {
    const from = fake.requests.length;
    const first = await t.getJson(obs("LASST04", "48"));
    expect(first.status).toBe(202);
    const body = provisioningBodySchema.parse(first.body);
    expect(body).toMatchObject({ status: "provisioning", indicator: "LASST04", region: "48", retry_after_seconds: 5 });

    const page = await untilServed(obs("LASST04", "48"), body.request_ref);
    const served = TX_UNEMPLOYED!.map((x) => [`${x.year}-${x.period.slice(1)}-01`, Number(x.value)]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(page.meta.total).toBe(served.length);
    expect(rowsOf(page).map((r) => [r.date, r.value])).toEqual(served);
    expect(rowsOf(page).filter((r) => r.is_preliminary).map((r) => r.date)).toEqual(["2020-05-01"]);
    // BLS publishes no update time.
    expect(rowsOf(page).every((r) => r.source_updated_at === null)).toBe(true);

    // With a key: v2, at most 20 years a query, newest window first, back to 1976 when LAUS state series start.
    const asked = fake.requests.slice(from);
    expect(asked.map((q) => [q.path, q.body.seriesid, q.body.startyear, q.body.endyear, q.body.registrationkey])).toEqual([
      ["/bls/v2/timeseries/data/", [TX_UNEMPLOYED_ID], "2007", "2026", fake.keys.bls],
      ["/bls/v2/timeseries/data/", [TX_UNEMPLOYED_ID], "1987", "2006", fake.keys.bls],
      ["/bls/v2/timeseries/data/", [TX_UNEMPLOYED_ID], "1976", "1986", fake.keys.bls],
    ]);
    expect(fake.violations).toEqual([]);
  });
});

d("the upstream giving up, through the connectors", () => {
  test("BLS over capacity on every try: each attempt tries four times, then the 502 names bls with Retry-After, not an endless 202", async () => {
    const from = fake.requests.length;
    // Two job attempts (the first and its one retry), each sending its query four times.
    fake.failNext("bls", 503, { times: 8 });
    const first = await t.getJson(obs("LASST03", "48"));
    expect(first.status).toBe(202);
    const gaveUp = await untilStatus(obs("LASST03", "48"), 502);
    expect(fake.requests.length - from).toBe(8);
    expect(fake.requests.slice(from).every((q) => q.provider === "bls" && q.body.seriesid[0] === "LASST480000000000003")).toBe(true);
    expect(gaveUp.res.headers.get("retry-after")).toBe("600");
    const env = errorEnvelopeSchema.parse(gaveUp.body);
    expect(env.error.code).toBe("INTERNAL_ERROR");
    expect(env.error.message).toBe(
      "The upstream 'bls' could not provide 'LASST03' for Texas (48): POST v2/timeseries/data 1 series 2007-2026: HTTP 503. Try again after 2026-11-22T12:10:00.000Z (in 10 min).",
    );
    expect(env.error.details).toEqual({
      indicator: "LASST03", region: "48", held: false, upstream: "bls", retry_after_seconds: 600, retry_at: "2026-11-22T12:10:00.000Z", request_ref: first.body.request_ref,
    });
    // Asked again before retry_at: the same answer, nothing sent upstream.
    const again = await t.getJson(obs("LASST03", "48"));
    expect([again.status, again.body.error.details.request_ref]).toEqual([502, first.body.request_ref]);
    expect(fake.requests.length - from).toBe(8);
  });

  test("FRED not publishing a series: one attempt, 502 with FRED's own reason; once published and past retry_at, a new request provisions it", async () => {
    const from = fake.requests.length;
    const first = await t.getJson(obs("GDP", "US"));
    expect(first.status).toBe(202);
    const gaveUp = await untilStatus(obs("GDP", "US"), 502);
    // Not retryable: one /series request, no retry of the job.
    expect(fake.requests.slice(from).map((q) => q.path)).toEqual(["/fred/series"]);
    expect(gaveUp.body.error.message).toBe(
      "The upstream 'fred' could not provide 'GDP' for United States (US): GET series GDP: HTTP 400 (Bad Request.  The series does not exist.). Try again after 2026-11-22T12:10:00.000Z (in 10 min).",
    );
    expect(gaveUp.body.error.details).toMatchObject({ upstream: "fred", retry_after_seconds: 600 });

    fake.setFredSeries("GDP", GDP!);
    t.clock.advance(600_000);
    try {
      const retried = await t.getJson(obs("GDP", "US"));
      expect(retried.status).toBe(202);
      expect(retried.body.request_ref).not.toBe(first.body.request_ref);
      const page = await untilServed(obs("GDP", "US"), retried.body.request_ref);
      expect(rowsOf(page).map((r) => [r.date, r.value])).toEqual(GDP!.map((o) => [o.date, o.value === "." ? null : Number(o.value)]));
    } finally {
      t.clock.set("2026-11-22T12:00:00Z");
    }
  });
});
