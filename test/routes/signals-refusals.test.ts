// GET /v1/signals/active and GET /v1/signals refused: limits, tampered and foreign cursors and other 400s, 401, 402 on
// both rails, 403 for keys without premium access, free 404s (the intervals of test/routes/signal-rows.ts). The 200s
// are signals.test.ts.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { decodeBase64Json } from "payments";
import { testKey } from "../support/keys";
import { APERTURE_CHALLENGE } from "../support/payments";
import { SIGNALS_PAY_TO, signalsApp } from "./signal-rows";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

const fx = signalsApp();
const { get } = fx;
const PAY_TO = SIGNALS_PAY_TO;

describe("400", () => {
  const expect400 = async (path: string, parameter: string) => {
    const { status, body } = await get(path);
    expect({ path, status, code: body.error?.code, parameter: body.error?.details?.parameter }).toEqual({
      path,
      status: 400,
      code: "INVALID_PARAMETER",
      parameter,
    });
  };
  test("limit past its bounds, and not a number", async () => {
    for (const v of ["0", "501", "-1", "abc", "", "1.5"]) {
      await expect400(`/v1/signals/active?limit=${v}`, "limit");
      await expect400(`/v1/signals?limit=${v}`, "limit");
    }
  });
  test("enums, dates, booleans, list sizes", async () => {
    await expect400("/v1/signals/active?strength=huge", "strength");
    await expect400("/v1/signals/active?type=bogus", "type");
    await expect400("/v1/signals/active?type=extreme,bogus", "type");
    await expect400("/v1/signals/active?type=,", "type");
    await expect400(`/v1/signals/active?region=${Array.from({ length: 101 }, (_, k) => `r${k}`).join(",")}`, "region");
    await expect400("/v1/signals?from=2024-02-30", "from");
    await expect400("/v1/signals?from=2025-01-02&to=2025-01-01", "from");
    await expect400("/v1/signals?active=yes", "active");
  });
  test("a tampered, foreign or made-up cursor", async () => {
    const cursor = (await get("/v1/signals?strength=weak&limit=1")).body.meta.next_cursor as string;
    const [payload, sum] = cursor.split(".");
    const altered = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, "base64url").toString()), f: "2030-01-01T00:00:00.000Z" }),
    ).toString("base64url");
    await expect400(`/v1/signals?strength=weak&cursor=${altered}.${sum}`, "cursor");
    await expect400(
      `/v1/signals?strength=weak&cursor=${payload}.${sum.slice(0, -1)}${sum.endsWith("A") ? "B" : "A"}`,
      "cursor",
    );
    // Foreign: another endpoint, or other filters.
    await expect400(`/v1/signals/active?strength=weak&cursor=${cursor}`, "cursor");
    await expect400(`/v1/signals?strength=strong&cursor=${cursor}`, "cursor");
    await expect400("/v1/signals?cursor=not-a-cursor", "cursor");
  });
});

describe("401, 402, 403", () => {
  test("a bad key is 401", async () => {
    const { status, body } = await get("/v1/signals/active", { "x-api-key": "svc_live_not-a-real-key" });
    expect([status, body.error.code]).toEqual([401, "INVALID_API_KEY"]);
  });
  test("no credential: 402 with both rails, 0.05 per request", async () => {
    for (const path of ["/v1/signals/active", "/v1/signals?strength=weak"]) {
      const { res, body } = await get(path, {});
      expect(res.status).toBe(402);
      expect(body.error.code).toBe("PAYMENT_REQUIRED");
      const required = decodeBase64Json(res.headers.get("payment-required")!) as any;
      expect(required.accepts[0]).toMatchObject({ scheme: "exact", amount: "50000", payTo: PAY_TO });
      expect(res.headers.get("www-authenticate")).toMatch(APERTURE_CHALLENGE);
    }
  });
  test("a key without premium access: 403 CATEGORY_NOT_ALLOWED on both endpoints", async () => {
    const free = (await testKey(fx.t)).headers;
    for (const path of ["/v1/signals/active", "/v1/signals"]) {
      const { status, body } = await get(path, free);
      expect([path, status, body.error.code]).toEqual([path, 403, "CATEGORY_NOT_ALLOWED"]);
    }
  });
  test("a key restricted to Texas: its own region listed; California, or every region (no filter), 403 REGION_NOT_ALLOWED", async () => {
    const texas = (await testKey(fx.t, { scopes: ["svc-premium"], allowedRegions: ["48"] })).headers;
    const own = await get("/v1/signals?region=48&strength=weak", texas);
    expect(own.status).toBe(200);
    expect(own.body.data.map((s: any) => s.region.code)).toEqual(["48"]);
    for (const path of [
      "/v1/signals?region=06",
      "/v1/signals/active?region=06",
      "/v1/signals?region=48,06",
      "/v1/signals",
      "/v1/signals/active?indicator=LASST03",
    ]) {
      const { status, body } = await get(path, texas);
      expect([path, status, body.error.code]).toEqual([path, 403, "REGION_NOT_ALLOWED"]);
      expect(body.data).toBeUndefined();
    }
    expect((await get("/v1/signals", texas)).body.error.message).toBe(
      "This key reads only regions 48: name them with 'region' (region=48) rather than asking for every region.",
    );
  });
});

describe("404, free", () => {
  test("an unknown indicator or region is not charged", async () => {
    for (const path of [
      "/v1/signals/active?indicator=NOPE_NOT_A_CODE",
      "/v1/signals?region=atlantis",
      "/v1/signals?indicator=PAYEMS,NOPE_NOT_A_CODE",
    ]) {
      const { res, body } = await get(path, {});
      expect({ path, status: res.status, code: body.error.code, paid: res.headers.get("payment-required") }).toEqual({
        path,
        status: 404,
        code: "RESOURCE_NOT_FOUND",
        paid: null,
      });
    }
  });
});
