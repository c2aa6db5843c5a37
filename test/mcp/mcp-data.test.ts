// MCP data tools through the official SDK client (test/mcp/mcp-apps.ts): with an API key through the REST pipeline
// (metered and rate limited like REST, entitlement refusals), and without one a payment request, paid over L402 on
// the REST URL to prove it.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { keyUsage } from "../../src/services/keys";
import { MCP_TOOL_NAMES } from "../../src/contract/mcp";
import { mcpPaymentRequestSchema } from "../../src/schemas/mcp";
import { testKey, testSubscription } from "../support/keys";
import { APERTURE_CHALLENGE } from "../support/payments";
import {
  call,
  connect,
  HELD,
  JUNE_VINTAGE,
  keysBase,
  MONTH,
  pay,
  payBase,
  rest,
  SAHM,
  structured,
  text,
  textJson,
  UNRATE,
  UNRATE_LATEST,
  UNRATE_ROWS,
  useMcpApps,
} from "./mcp-apps";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);
useMcpApps();

describe("data tools with an API key: the REST pipeline", () => {
  test("get_observations: the REST body; metered as one request, the MCP messages and catalog calls not at all", async () => {
    const { key, row, headers } = await testKey(pay);
    const client = await connect(payBase, { authorization: `Bearer ${key}` });
    await client.listTools();
    await call(client, "list_sources");
    expect(await keyUsage(pay.deps, row.id, MONTH)).toBe(0);

    // The five newest months (2026-01 .. 2026-05): 4.3 but for February's 4.4.
    const r = await call(client, "get_observations", { ...HELD, limit: 5 });
    expect(r.isError).toBeUndefined();
    expect(structured(r).data).toEqual(
      UNRATE.slice(-5)
        .reverse()
        .map(({ date, value }) => ({
          date,
          value,
          indicator: "UNRATE",
          region: "US",
          unit: "percent",
          source: "fred",
          source_updated_at: JUNE_VINTAGE,
          is_preliminary: false,
          revision: 1,
        })),
    );
    expect(structured(r).meta).toMatchObject({
      indicator: "UNRATE",
      region: "US",
      total: UNRATE_ROWS,
      limit: 5,
      offset: 0,
      truncated: true,
    });
    expect(await keyUsage(pay.deps, row.id, MONTH)).toBe(1);
    const url = `/v1/observations?indicator=UNRATE&region=US&limit=5`;
    expect(r._meta).toMatchObject({ http_status: 200, rest_url: `${payBase}${url}` });
    // The REST twin with the same key answers the same body (and MCP's truncated flag) and is metered the same way.
    const twin = (await rest(payBase, url, headers)).body;
    expect(structured(r)).toEqual({ ...twin, meta: { ...twin.meta, truncated: true } });
    expect(await keyUsage(pay.deps, row.id, MONTH)).toBe(2);
    // The text: what the rows share once, then date and value.
    expect(text(r).split("\n").slice(0, 10)).toEqual([
      `get_observations: rows 1 to 5 of ${UNRATE_ROWS}; more match: call again with offset=5.`,
      "data: 5 rows",
      `(every row) indicator: UNRATE; region: US; unit: percent; source: fred; source_updated_at: ${JUNE_VINTAGE}; is_preliminary: false; revision: 1`,
      "| date | value |",
      "|---|---|",
      "| 2026-05-01 | 4.3 |",
      "| 2026-04-01 | 4.3 |",
      "| 2026-03-01 | 4.3 |",
      "| 2026-02-01 | 4.4 |",
      "| 2026-01-01 | 4.3 |",
    ]);
    // The last page is not truncated.
    const end = await call(client, "get_observations", { ...HELD, limit: 2, offset: UNRATE_ROWS - 1 });
    expect([structured(end).data.length, structured(end).meta.truncated]).toEqual([1, false]);
    // A missing value is written null: October 2025 (no release) beside September, both the January vintage's rows
    // (the June vintage has no October row and September's value unchanged).
    const gap = await call(client, "get_observations", { ...HELD, start_date: "2025-09-01", end_date: "2025-10-31" });
    expect(structured(gap).data.map((o: any) => [o.date, o.value, o.source_updated_at, o.revision])).toEqual([
      ["2025-10-01", null, "2026-01-02T00:00:00.000Z", 1],
      ["2025-09-01", 4.4, "2026-01-02T00:00:00.000Z", 1],
    ]);
    expect(text(gap).split("\n").slice(3, 7)).toEqual([
      "| date | value |",
      "|---|---|",
      "| 2025-10-01 | null |",
      "| 2025-09-01 | 4.4 |",
    ]);
  });

  test("the key may come as X-API-Key; get_latest single and batch (207 with per-indicator errors is a result, not an error)", async () => {
    const { key, row } = await testKey(pay);
    const client = await connect(payBase, { "x-api-key": key });
    const single = await call(client, "get_latest", HELD);
    expect(structured(single)).toEqual({
      data: {
        indicator: "UNRATE",
        region: "US",
        period_start: UNRATE_LATEST.date,
        period_end: "2026-05-31",
        period_type: "monthly",
        value: UNRATE_LATEST.value,
        revision: 1,
        is_preliminary: false,
        source_updated_at: JUNE_VINTAGE,
        unit: "percent",
      },
      meta: {
        indicator: "UNRATE",
        region: "US",
        resolved_region: { code: "US", name: "United States", type: "country" },
        unit: "percent",
        total: 1,
        limit: 1,
        offset: 0,
        // May 2026 as of the test clock (2026-11-22): 6 months behind, stale since September 2026.
        freshness: {
          newest_period: "2026-05-01",
          cadence: "monthly",
          periods_behind: 6,
          max_periods_behind: 3,
          stale: true,
          stale_from: "2026-09-01",
        },
      },
    });
    const batch = await call(client, "get_latest", { indicators: "UNRATE,svc:sahm_rule", region: "US" });
    expect(batch.isError).toBeUndefined();
    expect(batch._meta).toMatchObject({ http_status: 207 });
    expect(structured(batch).data.map((d: any) => [d.indicator, d.value])).toEqual([["UNRATE", UNRATE_LATEST.value]]);
    expect(structured(batch).errors.map((e: any) => [e.indicator, e.code])).toEqual([
      ["svc:sahm_rule", "CATEGORY_NOT_ALLOWED"],
    ]);
    expect(await keyUsage(pay.deps, row.id, MONTH)).toBe(2);
  });

  test("premium series without entitlement: CATEGORY_NOT_ALLOWED with the envelope's details, not metered", async () => {
    const { key, row } = await testKey(pay);
    const r = await call(await connect(payBase, { authorization: `Bearer ${key}` }), "get_observations", {
      indicator: "svc:sahm_rule",
      region: "US",
    });
    expect(r.isError).toBe(true);
    const e = structured(r).error;
    expect([e.code, e.details]).toEqual(["CATEGORY_NOT_ALLOWED", { key_hint: row.hint, indicator: "svc:sahm_rule" }]);
    expect(textJson(r)).toEqual(structured(r));
    expect(structured(r)).toEqual(
      (await rest(payBase, "/v1/observations?indicator=svc%3Asahm_rule&region=US", { authorization: `Bearer ${key}` }))
        .body,
    );
    expect(await keyUsage(pay.deps, row.id, MONTH)).toBe(0);
  });

  test("premium series with the svc-premium scope, and with a Developer subscription: served", async () => {
    const scoped = await testKey(pay, { scopes: ["svc-premium"] });
    const r = await call(await connect(payBase, { authorization: `Bearer ${scoped.key}` }), "get_latest", {
      indicator: "svc:sahm_rule",
    });
    expect(structured(r).data).toMatchObject({
      indicator: "svc:sahm_rule",
      region: "US",
      period_start: SAHM.date,
      value: SAHM.value,
    });
    const sub = await testSubscription(pay);
    const r2 = await call(await connect(payBase, { authorization: `Bearer ${sub.key}` }), "get_latest", {
      indicator: "svc:sahm_rule",
    });
    expect(structured(r2).data.value).toBe(SAHM.value);
  });

  test("REGION_NOT_ALLOWED for a region-restricted key, on every data tool (signals without a region read every region)", async () => {
    const { key } = await testKey(pay, { plan: "professional", allowedRegions: ["06"] });
    const client = await connect(payBase, { authorization: `Bearer ${key}` });
    const calls: [string, Record<string, unknown>][] = [
      ["get_observations", HELD],
      ["get_latest", HELD],
      ["get_insights", HELD],
      ["get_active_signals", { region: "US" }],
      ["get_active_signals", {}],
      ["ask", { q: "What is the unemployment rate in Texas?" }],
    ];
    for (const [tool, args] of calls) {
      const r = await call(client, tool, args);
      expect([tool, r.isError, structured(r).error?.code]).toEqual([tool, true, "REGION_NOT_ALLOWED"]);
    }
  });

  test("rate limit as REST: each tool call counts once (catalog calls too), MCP messages not at all; one past the limit is refused", async () => {
    const { key } = await testKey(pay, { rateLimitPerMinute: 3 });
    const client = await connect(payBase, { authorization: `Bearer ${key}` });
    await client.listTools();
    await client.listTools();
    const reset = Date.UTC(2026, 10, 22, 12, 1, 0) / 1000;
    const seen = [];
    for (let i = 0; i < 3; i++)
      seen.push((await call(client, i === 0 ? "list_sources" : "get_latest", i === 0 ? {} : HELD))._meta!.rate_limit);
    expect(seen).toEqual([0, 1, 2].map((k) => ({ limit: 3, remaining: 2 - k, reset })));
    const refused = await call(client, "get_latest", HELD);
    expect(refused.isError).toBe(true);
    expect(structured(refused).error).toMatchObject({
      code: "RATE_LIMIT_EXCEEDED",
      details: { limit: 3, reset, retry_after_seconds: 60 },
    });
    expect(refused._meta).toMatchObject({ http_status: 429, rate_limit: { limit: 3, remaining: 0, reset } });
  });

  test("a bad key is each tool call's REST 401 (INVALID_API_KEY), never a payment request; the MCP session itself works", async () => {
    for (const headers of [
      { authorization: "Bearer svc_live_notakey" },
      { "x-api-key": "nonsense" },
      { authorization: "Bearer" },
    ] as Record<string, string>[]) {
      const client = await connect(payBase, headers);
      expect((await client.listTools()).tools.length).toBe(MCP_TOOL_NAMES.length);
      for (const [name, args] of [
        ["list_sources", {}],
        ["get_latest", HELD],
      ] as const) {
        const r = await call(client, name, args);
        expect({ name, isError: r.isError, code: structured(r).error.code, status: r._meta!.http_status }).toEqual({
          name,
          isError: true,
          code: "INVALID_API_KEY",
          status: 401,
        });
      }
    }
    // A revoked key: the REST answer, word for word.
    const { key } = await testKey(pay);
    expect(
      (await fetch(`${payBase}/v1/keys/revoke`, { method: "POST", headers: { authorization: `Bearer ${key}` } }))
        .status,
    ).toBe(200);
    const r = await call(await connect(payBase, { authorization: `Bearer ${key}` }), "get_latest", HELD);
    expect(structured(r)).toEqual(
      (await rest(payBase, "/v1/observations/latest?indicator=UNRATE&region=US", { authorization: `Bearer ${key}` }))
        .body,
    );
  });
});

describe("data tools without a key", () => {
  test("a 402 on REST becomes a payment request: the price, the rails, the REST URL and the L402 challenge, which pays the REST URL", async () => {
    const r = await call(await connect(payBase), "get_observations", { ...HELD, limit: 2 });
    expect(r.isError).toBe(true);
    const e = structured(r);
    const url = `${payBase}/v1/observations?indicator=UNRATE&region=US&limit=2`;
    // This server's only per-request rail is L402: no x402 PaymentRequired, the request in the shape the contract names.
    expect(mcpPaymentRequestSchema.parse(e)).toEqual(e);
    expect(e.x402Version).toBeUndefined();
    expect(e.code).toBe("PAYMENT_REQUIRED");
    expect(e.error).toBe(
      "get_observations costs 0.01 USD for this call. Send an API key with the MCP request ('Authorization: Bearer <key>' or " +
        `'X-API-Key: <key>'; free keys: POST /v1/signup); or pay the equivalent REST request with L402: GET ${url}`,
    );
    expect(e.details).toMatchObject({
      price_usd: "0.01",
      rest_url: url,
      method: "GET",
      rails: ["l402"],
      l402: { amount_sats: "10" },
    });
    // The text is the same without the invoice and macaroon (paid on the REST URL, which gives them too): short.
    const { l402, ...rest402 } = e.details;
    expect(textJson(r)).toEqual({
      error: e.error,
      code: "PAYMENT_REQUIRED",
      details: { ...rest402, l402: { amount_sats: "10", valid_until: l402.valid_until } },
    });
    expect(text(r).length).toBeLessThan(600);

    // Paying the invoice and sending the macaroon to the REST URL buys exactly what a keyed tool call returns.
    const paid = pay.dev.pay(l402.invoice);
    if (!paid.ok) throw new Error(paid.message);
    const res = await fetch(url, { headers: { authorization: `L402 ${l402.macaroon}:${paid.preimage}` } });
    expect(res.status).toBe(200);
    const { key } = await testKey(pay);
    const keyed = await call(await connect(payBase, { authorization: `Bearer ${key}` }), "get_observations", {
      ...HELD,
      limit: 2,
    });
    const { truncated: _t, ...keyedMeta } = structured(keyed).meta;
    expect(await res.json()).toEqual({ ...structured(keyed), meta: keyedMeta });
  });

  test("the price follows the resolved series: svc: series cost 0.05", async () => {
    const r = await call(await connect(payBase), "get_latest", { indicator: "svc:sahm_rule" });
    expect(structured(r)).toMatchObject({
      code: "PAYMENT_REQUIRED",
      details: {
        price_usd: "0.05",
        rest_url: `${payBase}/v1/observations/latest?indicator=svc%3Asahm_rule`,
        l402: { amount_sats: "50" },
      },
    });
    const { l402 } = structured(r).details;
    expect(APERTURE_CHALLENGE.test(`L402 macaroon="${l402.macaroon}", invoice="${l402.invoice}"`)).toBe(true);
  });

  test("an x402 payment in the call when this server takes none: the same payment request, nothing charged", async () => {
    const client = await connect(payBase);
    const r = (await client.callTool({
      name: "get_latest",
      arguments: HELD,
      _meta: { "x402/payment": { x402Version: 2, accepted: {}, payload: {} } },
    })) as CallToolResult;
    expect(structured(r)).toMatchObject({ code: "PAYMENT_REQUIRED", details: { rails: ["l402"] } });
  });

  test("what does not exist costs nothing: the REST 404, no price", async () => {
    const r = await call(await connect(payBase), "get_observations", { indicator: "NOPE_NOT_A_CODE" });
    expect(structured(r)).toEqual((await rest(payBase, "/v1/observations?indicator=NOPE_NOT_A_CODE")).body);
    expect(structured(r).error.code).toBe("RESOURCE_NOT_FOUND");
  });

  test("a server without a payment rail: INVALID_API_KEY naming the price and the REST URL", async () => {
    const r = await call(await connect(keysBase), "get_latest", HELD);
    const url = `${keysBase}/v1/observations/latest?indicator=UNRATE&region=US`;
    expect(structured(r)).toEqual({
      error: {
        code: "INVALID_API_KEY",
        message:
          "get_latest costs 0.01 USD for this call. Send an API key with the MCP request ('Authorization: Bearer <key>' or " +
          `'X-API-Key: <key>'; free keys: POST /v1/signup); this server takes no per-request payment (the equivalent REST request is GET ${url}).`,
        details: { price_usd: "0.01", rest_url: url, method: "GET" },
      },
    });
    // The REST twin's 401 carries the same price.
    expect((await rest(keysBase, "/v1/observations/latest?indicator=UNRATE&region=US")).body.error.details).toEqual({
      price_usd: "0.01",
    });
  });
});
