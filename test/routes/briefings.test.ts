// The public briefing routes behind the real key and payment rails, grouped by status: the free public catalog; the
// paid public read (402 on both rails at 0.10, the latest good run served, free 404s for unknown, private and
// never-run slugs); their discovery. Saved briefings are briefings-saved.test.ts. Runs are made by the real runner
// (src/services/briefings.ts runBriefing) with test askers.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { decodeBase64Json } from "payments";
import { upsertPublicBriefings } from "../../db/repos/briefings";
import { PUBLIC_BRIEFINGS, publicBriefingId } from "../../db/seed/briefings";
import { regionsRead } from "../../src/services/briefings";
import { usageMonth } from "../../src/domain/access";
import { publicBriefingListResponseSchema, publicBriefingReadResponseSchema } from "../../src/schemas/briefings";
import { keyUsage } from "../../src/services/keys";
import { answeringAsker, BRIEFINGS_PAY_TO, briefingsApp, failingAsker, VALID_BRIEFING } from "../support/briefings";
import { testSeed } from "../support/db";
import { testKey } from "../support/keys";
import { APERTURE_CHALLENGE } from "../support/payments";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

const fx = briefingsApp();
const { get, post, runOnce } = fx;
const valid = VALID_BRIEFING;

describe("GET /v1/briefings/public: free", () => {
  test("the curated briefings in their order, each { slug, name, question, cadence, last_run_at }, without a credential", async () => {
    const { res, status, body } = await get("/v1/briefings/public", {});
    expect(status).toBe(200);
    expect(res.headers.get("payment-required")).toBeNull();
    const parsed = publicBriefingListResponseSchema.parse(body);
    expect(parsed.data.map((b) => b.slug)).toEqual(PUBLIC_BRIEFINGS.map((b) => b.slug));
    expect(parsed.data.map((b) => b.slug)).toEqual(
      expect.arrayContaining(["us-labor-market", "us-inflation", "us-housing", "california-economy", "texas-economy"]),
    );
    for (const [i, b] of body.data.entries()) {
      expect(Object.keys(b).sort()).toEqual(["cadence", "last_run_at", "name", "question", "slug"]);
      expect(b).toEqual({
        slug: PUBLIC_BRIEFINGS[i]!.slug,
        name: PUBLIC_BRIEFINGS[i]!.name,
        question: PUBLIC_BRIEFINGS[i]!.question,
        cadence: "weekly",
        last_run_at: testSeed.now.toISOString(),
      });
    }
    expect(body.meta).toEqual({ count: PUBLIC_BRIEFINGS.length });
  });
});

describe("GET /v1/briefings/public/{slug}: paid 0.10", () => {
  test("no credential: 402 with both rails at 0.10, bound to this briefing", async () => {
    const { res, body } = await get("/v1/briefings/public/us-inflation", {});
    expect(res.status).toBe(402);
    expect(body.error.code).toBe("PAYMENT_REQUIRED");
    expect(body.error.details.price_usd).toBe("0.10");
    const required = decodeBase64Json(res.headers.get("payment-required")!) as any;
    expect(required.accepts[0]).toMatchObject({ scheme: "exact", amount: "100000", payTo: BRIEFINGS_PAY_TO });
    expect(required.resource.url).toEndWith("/v1/briefings/public/us-inflation");
    expect(res.headers.get("www-authenticate")).toMatch(APERTURE_CHALLENGE);
  });

  test("a bad key is 401", async () => {
    const { status, body } = await get("/v1/briefings/public/us-inflation", { "x-api-key": "svc_live_not-a-real-key" });
    expect([status, body.error.code]).toEqual([401, "INVALID_API_KEY"]);
  });

  test("with a key: the latest good run with its stored answer and citations, metered once", async () => {
    const { key, row, headers } = await testKey(fx.t);
    const month = usageMonth(fx.t.clock.now());
    const { status, body, res } = await get("/v1/briefings/public/texas-economy", headers);
    expect(status).toBe(200);
    expect(res.headers.get("x-ratelimit-limit")).toBe("60");
    const parsed = publicBriefingReadResponseSchema.parse(body);
    const seed = PUBLIC_BRIEFINGS.find((b) => b.slug === "texas-economy")!;
    expect({
      slug: parsed.data.slug,
      name: parsed.data.name,
      question: parsed.data.question,
      cadence: parsed.data.cadence,
    }).toEqual({ slug: seed.slug, name: seed.name, question: seed.question, cadence: "weekly" });
    // The seed's first run (the test seed runs it through the ask service, as a fresh install's job engine does).
    expect(parsed.data.run.started_at).toBe(testSeed.now.toISOString());
    expect(parsed.data.run.error).toBeNull();
    expect(parsed.data.run.response).not.toBeNull();
    expect(new Date(body.meta.next_run_at).getTime()).toBeGreaterThan(fx.t.clock.now().getTime());
    expect(await keyUsage(fx.t.deps, row.id, month)).toBe(1);
    expect(key).toBeString();
  });

  // Before: a region-restricted key read other regions' data through a public briefing's stored answer. Every
  // region the answer read (its resolved regions, its tool calls' regions, the briefing's own) is entitled through
  // the admission core, as a single read of it would be; a refusal is not metered.
  test("a region-restricted key reads a public briefing only when every region its answer read is allowed (403 REGION_NOT_ALLOWED otherwise, not metered)", async () => {
    const full = await get("/v1/briefings/public/texas-economy", (await testKey(fx.t)).headers);
    const response = full.body.data.run.response;
    const regions = regionsRead(response, "48");
    expect(regions).toContain("48");
    const month = usageMonth(fx.t.clock.now());
    const elsewhere = await testKey(fx.t, { allowedRegions: ["06"] });
    const refused = await get("/v1/briefings/public/texas-economy", elsewhere.headers);
    expect([refused.status, refused.body.error.code]).toEqual([403, "REGION_NOT_ALLOWED"]);
    expect(refused.body.error.message).toBe(`This key does not permit region '${regions[0]}' (allowed: 06).`);
    expect(await keyUsage(fx.t.deps, elsewhere.row.id, month)).toBe(0);
    const all = await testKey(fx.t, { allowedRegions: regions });
    expect((await get("/v1/briefings/public/texas-economy", all.headers)).status).toBe(200);
    if (regions.length > 1) {
      const one = await testKey(fx.t, { allowedRegions: ["48"] });
      expect((await get("/v1/briefings/public/texas-economy", one.headers)).status).toBe(403);
    }
  });

  test("regionsRead: the briefing's region, the resolved regions and the tool calls' regions, once each", () => {
    const response = {
      resolved: { regions: [{ code: "48", name: "Texas", type: "state" }] },
      citations: [
        { tool: "get_latest", args: { indicator: "LASST03", region: "06" } },
        { tool: "search_indicators", args: { search: "jobs" } },
        { tool: "get_insights", args: { region: "48" } },
      ],
    };
    expect(regionsRead(response, "US")).toEqual(["06", "48", "US"]);
    expect(regionsRead(null, null)).toEqual([]);
  });

  test("a failed run never replaces the last good one; a later good run does", async () => {
    const id = publicBriefingId("us-housing");
    const good = await runOnce(id, answeringAsker("2025-08"));
    expect(good.kind).toBe("stored");
    const failed = await runOnce(id, failingAsker());
    expect(failed).toMatchObject({ kind: "stored", run: { status: "failed" } });
    const read = await get("/v1/briefings/public/us-housing");
    expect(read.status).toBe(200);
    expect(read.body.data.run.id).toBe((good as any).run.id);
    expect(read.body.data.run.response.answer).toBe("Texas unemployment rate, 2025-08: 4.1 percent.");
    expect(read.body.data.run.response.citations).toEqual([
      {
        tool: "get_latest",
        args: { indicator: "LASST48", region: "48" },
        summary: "Texas, unemployment rate 2025-08: 4.1 percent",
      },
    ]);
    // The catalog's last_run_at is the good run's.
    const listed = (await get("/v1/briefings/public", {})).body.data.find((b: any) => b.slug === "us-housing");
    expect(listed.last_run_at).toBe((good as any).run.finishedAt.toISOString());

    const later = await runOnce(id, answeringAsker("2025-09"));
    const again = await get("/v1/briefings/public/us-housing");
    expect(again.body.data.run.id).toBe((later as any).run.id);
    expect(again.body.data.run.response.answer).toBe("Texas unemployment rate, 2025-09: 4.1 percent.");
  });

  test("404, free: an unknown slug, a saved briefing's id, a path under it, and a public briefing that never ran", async () => {
    const saved = await post(valid);
    expect(saved.status).toBe(201);
    const month = usageMonth(fx.t.clock.now());
    const usage = await keyUsage(fx.t.deps, fx.premium.row.id, month);
    await upsertPublicBriefings(fx.t.database.db, [
      {
        slug: "us-trade",
        name: "US trade",
        question: "How large is the US trade deficit?",
        regionCode: "US",
        window: null,
        id: publicBriefingId("us-trade"),
        createdAt: fx.t.clock.now(),
      },
    ]);
    const cases: [string, string][] = [
      ["/v1/briefings/public/no-such-briefing", "Unknown public briefing 'no-such-briefing'"],
      [`/v1/briefings/public/${saved.body.data.id}`, "Unknown public briefing"],
      ["/v1/briefings/public/runs", "Unknown public briefing 'runs'"],
      [`/v1/briefings/public/${"x".repeat(200)}`, `Unknown public briefing '${"x".repeat(100)}…'`],
      ["/v1/briefings/public/us-trade", "The public briefing 'us-trade' has not run yet"],
    ];
    for (const [path, message] of cases) {
      for (const headers of [{}, fx.premium.headers]) {
        const { res, body } = await get(path, headers);
        expect({ path, status: res.status, code: body.error.code, paid: res.headers.get("payment-required") }).toEqual({
          path,
          status: 404,
          code: "RESOURCE_NOT_FOUND",
          paid: null,
        });
        expect(body.error.message).toStartWith(message);
      }
    }
    // Longer than any code: a bad parameter, free too.
    const long = await get(`/v1/briefings/public/${"x".repeat(201)}`, {});
    expect([long.status, long.body.error.code, long.res.headers.get("payment-required")]).toEqual([
      400,
      "INVALID_PARAMETER",
      null,
    ]);
    // A 404 costs the key nothing.
    expect(await keyUsage(fx.t.deps, fx.premium.row.id, month)).toBe(usage);
  });
});

describe("discovery", () => {
  test("/openapi.json, llms.txt and the / index list the briefing routes, the public read at 0.10", async () => {
    const doc = (await get("/openapi.json", {})).body;
    const ops = Object.entries<any>(doc.paths).flatMap(([path, item]) =>
      Object.entries<any>(item).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op]),
    );
    const briefingOps = Object.fromEntries(ops.filter(([route]) => route.includes("/v1/briefings")));
    expect(Object.keys(briefingOps).sort()).toEqual([
      "DELETE /v1/briefings/{id}",
      "GET /v1/briefings",
      "GET /v1/briefings/public",
      "GET /v1/briefings/public/{slug}",
      "GET /v1/briefings/{id}",
      "GET /v1/briefings/{id}/runs",
      "POST /v1/briefings",
    ]);
    expect(briefingOps["GET /v1/briefings/public/{slug}"]["x-price-usd"]).toBe("0.10");
    for (const [route, op] of Object.entries<any>(briefingOps))
      if (route !== "GET /v1/briefings/public/{slug}")
        expect({ route, price: op["x-price-usd"] }).toEqual({ route, price: undefined });
    const llms = await (await fx.t.request("/llms.txt")).text();
    expect(llms).toContain(
      "/v1/briefings/public/{slug}): Read a public briefing. Paid: 0.10 USD per request, or an API key.",
    );
    expect(llms).toContain("- Public briefing read: 0.10 USD");
    expect((await get("/", {})).body.pricing.per_request.briefing_read).toBe("0.10");
  });
});
