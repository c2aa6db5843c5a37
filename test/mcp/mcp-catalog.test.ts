// MCP catalog tools against their REST twins through the official SDK client (test/mcp/mcp-apps.ts): free and
// anonymous, the REST body as structuredContent with MCP's page sizes and truncated flags, and ask; every result,
// errors included, matches its tool's outputSchema.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { keyUsage } from "../../src/services/keys";
import { errorEnvelopeSchema } from "../../src/schemas/errors";
import { mcpPaymentRequestSchema } from "../../src/schemas/mcp";
import { testKey } from "../support/keys";
import { snapshotText } from "../support/snapshot";
import {
  call,
  connect,
  HELD,
  MONTH,
  pay,
  payBase,
  rest,
  structured,
  text,
  textJson,
  UNRATE,
  UNRATE_FIRST,
  UNRATE_LATEST,
  useMcpApps,
} from "./mcp-apps";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);
useMcpApps();

describe("catalog tools: free, anonymous, the REST body", () => {
  test("search_indicators: the REST body with has_data on each item and meta.truncated; MCP's page of 20 by default", async () => {
    const client = await connect(payBase);
    // BLS's unemployment series, second page: the monthly state rates (held for every state, after the annual averages,
    // which are current) and the government workers' rate (CPS, not held).
    const r = await call(client, "search_indicators", { search: "unemployment", source: "bls", limit: 2, offset: 2 });
    expect(r.isError).toBeUndefined();
    const twin = await rest(payBase, "/v1/indicators?source=bls&search=unemployment&limit=2&offset=2");
    const { data, meta } = structured(r);
    expect(data.map((i: any) => [i.code, i.has_data])).toEqual([
      ["LASST03", true],
      ["LNU04028615", false],
    ]);
    expect(data.map(({ has_data: _h, ...i }: any) => i)).toEqual(twin.body.data);
    expect(meta).toEqual({ ...twin.body.meta, truncated: true });
    expect(r._meta).toMatchObject({
      http_status: 200,
      rest_url: `${payBase}/v1/indicators?source=bls&search=unemployment&limit=2&offset=2`,
    });
    // The text: a summary saying how to get more, the columns every row shares written once, then a table.
    const lines = text(r).split("\n");
    expect(lines[0]).toBe("search_indicators: rows 3 to 4 of 46; more match: call again with offset=4.");
    expect(lines[1]).toBe("data: 2 rows");
    expect(lines[2]).toBe(
      "(every row) source: bls; category: labor; access_tier: free; unit: percent; frequency: monthly; is_active: true",
    );
    expect(lines[3]).toBe("| id | code | name | description | subcategory | coverage | has_data |");
    expect(lines.slice(-4)).toEqual(["meta.total: 46", "meta.limit: 2", "meta.offset: 2", "meta.truncated: true"]);

    // Left out, limit is 20 over MCP: the REST twin asked for is the one with limit=20.
    const page = await call(client, "search_indicators", {});
    expect([structured(page).data.length, structured(page).meta.limit, structured(page).meta.truncated]).toEqual([
      20,
      20,
      true,
    ]);
    expect(page._meta!.rest_url).toBe(`${payBase}/v1/indicators?limit=20`);
    // has_data follows coverage, and has_data=true (a REST filter) keeps only held indicators.
    const held = await call(client, "search_indicators", { has_data: true, limit: 100 });
    expect(structured(held).data.every((i: any) => i.has_data === true && i.coverage.regions_held > 0)).toBe(true);
    expect(structured(held).meta.truncated).toBe(false);
  });

  test("get_indicator: IndicatorDetail with its coverage, the code in the path (svc: codes escaped)", async () => {
    const client = await connect(payBase);
    const r = await call(client, "get_indicator", { code: "UNRATE" });
    expect(structured(r)).toEqual((await rest(payBase, "/v1/indicators/UNRATE")).body);
    expect(structured(r).data).toMatchObject({
      code: "UNRATE",
      available_regions: ["US"],
      date_range: { start: UNRATE_FIRST.date, end: UNRATE_LATEST.date },
      coverage: { regions_held: 1 },
    });
    expect(text(r).split("\n").slice(0, 3)).toEqual([
      "get_indicator: one record.",
      "data.id: bd518a9e-6a5c-5131-b1be-464adfb9872a",
      "data.code: UNRATE",
    ]);
    expect(text(r)).toContain("data.coverage.note: Held for US, 1948-01-01 to 2026-05-01.");
    const svc = await call(client, "get_indicator", { code: "svc:sahm_rule", include_inactive: false });
    expect(svc._meta!.rest_url).toBe(`${payBase}/v1/indicators/svc%3Asahm_rule?include_inactive=false`);
    expect(structured(svc).data.code).toBe("svc:sahm_rule");
    // Unknown: the REST 404; no code or an empty one: the argument named, nothing sent.
    const missing = await call(client, "get_indicator", { code: "NOPE_NOT_A_CODE" });
    expect(structured(missing)).toEqual((await rest(payBase, "/v1/indicators/NOPE_NOT_A_CODE")).body);
    expect(structured(missing).error.code).toBe("RESOURCE_NOT_FOUND");
    for (const [args, message] of [
      [{}, "Invalid parameter code: required"],
      [{ code: "" }, "Invalid parameter code: must not be empty"],
      [{ code: 7 }, "Invalid parameter code: must be a string"],
    ] as const) {
      const e = await call(client, "get_indicator", args);
      expect([e.isError, structured(e)]).toEqual([
        true,
        {
          error: {
            code: "INVALID_PARAMETER",
            message,
            details: { parameter: "code", parameters: ["code"], in: "arguments" },
          },
        },
      ]);
    }
    const long = await call(client, "get_indicator", { code: "x".repeat(201) });
    expect(structured(long).error).toMatchObject({
      code: "INVALID_PARAMETER",
      details: { parameter: "code", in: "arguments" },
    });
  });

  test("list_sources", async () => {
    const r = await call(await connect(payBase), "list_sources");
    expect(structured(r).data.map((s: any) => s.slug)).toEqual([
      "bls",
      "cdc",
      "census",
      "eia",
      "fred",
      "gapminder",
      "scripps",
      "svc",
      "worldbank",
    ]);
    expect(structured(r)).toEqual((await rest(payBase, "/v1/sources")).body);
    expect(text(r).split("\n").slice(0, 3)).toEqual([
      "list_sources: 9 rows.",
      "data: 9 rows",
      "| slug | name | provider | category | indicator_count | docs_url | attribution | license |",
    ]);
  });

  test("list_regions: type and parent, search, pages of 100 by default with meta.truncated", async () => {
    const client = await connect(payBase);
    const r = await call(client, "list_regions", { parent: "CA", type: "county" });
    const data = structured(r).data;
    expect([data.length, data[0], data.at(-1).code, structured(r).meta]).toEqual([
      58,
      {
        code: "06001",
        type: "county",
        name: "Alameda County",
        slug: "alameda-county-ca",
        parent_code: "06",
        fips_state: "06",
        fips_county: "001",
      },
      "06115",
      { total: 58, limit: 100, offset: 0, truncated: false },
    ]);
    const twin = (await rest(payBase, "/v1/regions?type=county&parent=CA&limit=100")).body;
    expect(structured(r)).toEqual({ ...twin, meta: { ...twin.meta, truncated: false } });
    expect(text(r).split("\n").slice(0, 6)).toEqual([
      "list_regions: rows 1 to 58 of 58.",
      "data: 58 rows",
      "(every row) type: county; parent_code: 06; fips_state: 06",
      "| code | name | slug | fips_county |",
      "|---|---|---|---|",
      "| 06001 | Alameda County | alameda-county-ca | 001 |",
    ]);

    // Everything: 3,445 regions, 100 at a time; the last page is not truncated.
    const first = await call(client, "list_regions", {});
    expect([structured(first).data.length, structured(first).meta]).toEqual([
      100,
      { total: 3445, limit: 100, offset: 0, truncated: true },
    ]);
    expect(text(first).split("\n")[0]).toBe(
      "list_regions: rows 1 to 100 of 3445; more match: call again with offset=100.",
    );
    const last = await call(client, "list_regions", { offset: 3400 });
    expect([structured(last).data.length, structured(last).meta.truncated, structured(last).data.at(-1).code]).toEqual([
      45,
      false,
      "ZW",
    ]);
    const all = await call(client, "list_regions", { type: "county", limit: 1000, offset: 3000 });
    expect([structured(all).data.length, structured(all).meta]).toEqual([
      144,
      { total: 3144, limit: 1000, offset: 3000, truncated: false },
    ]);

    const travis = await call(client, "list_regions", { search: "travis" });
    expect(structured(travis).data.map((x: any) => x.code)).toEqual(["48453"]);
    expect((await call(client, "list_regions", { limit: 1001 })).isError).toBe(true);
    expect(structured(await call(client, "list_regions", { search: "" })).error.details).toMatchObject({
      parameter: "search",
      in: "arguments",
    });
  });

  test("a REST refusal of a catalog call is the REST envelope (unknown parent: 404)", async () => {
    const r = await call(await connect(payBase), "list_regions", { parent: "atlantis" });
    const twin = await rest(payBase, "/v1/regions?parent=atlantis&limit=100");
    expect(twin.status).toBe(404);
    expect(r.isError).toBe(true);
    expect(structured(r)).toEqual(twin.body);
    expect(textJson(r)).toEqual(twin.body);
  });
});

describe("ask", () => {
  test("a keyed question: the REST answer with its citations; uncovered is free without a key, covered asks 0.25", async () => {
    const { key, row } = await testKey(pay);
    const keyed = await connect(payBase, { authorization: `Bearer ${key}` });
    const r = await call(keyed, "ask", { q: "What is the unemployment rate in Texas?" });
    expect(r.isError).toBeUndefined();
    const body = structured(r);
    expect(body).toEqual(
      (
        await rest(payBase, `/v1/ask?q=${encodeURIComponent("What is the unemployment rate in Texas?")}`, {
          authorization: `Bearer ${key}`,
        })
      ).body,
    );
    expect([body.status, body.grounded, body.citations.map((c: any) => c.tool)]).toEqual([
      "ok",
      true,
      ["get_latest", "get_insights"],
    ]);
    // Texas's rate resolves to the monthly state LAUS series: its newest month in the shipped stateUnemployment.csv
    // (newest month first per state: June 2026, 4.4).
    const texas = snapshotText("bls-laus-state-monthly/stateUnemployment.csv.gz")
      .split(/\r?\n/)
      .find((l) => l.startsWith("48,"))!
      .split(",");
    expect(texas.slice(3)).toEqual(["2026", "June", "4.4"]);
    expect(body.answer).toStartWith(`The unemployment rate in Texas was ${texas[5]}% in ${texas[4]} ${texas[3]}.`);
    // One request of the plan for the tool call, one for the REST twin above.
    expect(await keyUsage(pay.deps, row.id, MONTH)).toBe(2);
    const anonymous = await connect(payBase);
    const free = await call(anonymous, "ask", { q: "what is the crime rate in Chicago?" });
    expect([free.isError, structured(free).status, structured(free).answer]).toEqual([undefined, "no_coverage", null]);
    const priced = await call(anonymous, "ask", { q: "unemployment rate in Texas", depth: "briefing" });
    expect([priced.isError, structured(priced).code, structured(priced).details.price_usd]).toEqual([
      true,
      "PAYMENT_REQUIRED",
      "1.50",
    ]);
    const bad = await call(keyed, "ask", { q: "x".repeat(501) });
    expect([bad.isError, structured(bad).error.details.parameter, structured(bad).error.details.in]).toEqual([
      true,
      "q",
      "arguments",
    ]);
  });
});

describe("every result matches its tool's outputSchema, errors included", () => {
  test("successes, REST refusals, argument errors and payment requests of every tool, checked with the SDK's validator", async () => {
    const { key } = await testKey(pay, { scopes: ["svc-premium"] });
    const keyed = await connect(payBase, { authorization: `Bearer ${key}` });
    const anonymous = await connect(payBase);
    const { tools } = await keyed.listTools();
    const validator = new AjvJsonSchemaValidator();
    const check = Object.fromEntries(tools.map((t) => [t.name, validator.getValidator(t.outputSchema as any)]));
    const calls: [Client, string, Record<string, unknown>][] = [
      [keyed, "search_indicators", { search: "rate" }],
      [keyed, "search_indicators", { category: "nope" }],
      [keyed, "get_indicator", { code: "PAYEMS" }],
      [keyed, "get_indicator", { code: "NOPE" }],
      [keyed, "list_sources", {}],
      [keyed, "list_sources", { include_inactive: "maybe" }],
      [keyed, "list_regions", { type: "state" }],
      [keyed, "list_regions", { parent: "atlantis" }],
      [keyed, "get_observations", { ...HELD, transform: "yoy", limit: 3 }],
      [keyed, "get_observations", { ...HELD, frequency: "annual", limit: 2 }],
      [keyed, "get_observations", { indicator: "population", region: "06" }],
      [keyed, "get_observations", { ...HELD, start_date: "x" }],
      [keyed, "get_latest", HELD],
      [keyed, "get_latest", { indicators: "UNRATE,NOPE" }],
      [keyed, "get_latest", { indicator: "NOPE" }],
      [keyed, "get_insights", HELD],
      [keyed, "get_insights", { ...HELD, window: "bad" }],
      [keyed, "get_active_signals", {}],
      [keyed, "get_active_signals", { strength: "huge" }],
      [anonymous, "get_latest", HELD],
      [anonymous, "get_insights", HELD],
      [anonymous, "get_active_signals", {}],
      [anonymous, "get_observations", HELD],
      [keyed, "ask", { q: "unemployment rate in Texas" }],
      [anonymous, "ask", { q: "crime rate in Chicago" }],
      [anonymous, "ask", { q: "unemployment rate in Texas" }],
      [keyed, "ask", { q: "unemployment", depth: "deep" }],
    ];
    const seen: string[] = [];
    for (const [client, name, args] of calls) {
      // callTool throws when structuredContent does not match (the SDK validates every result once tools are listed).
      const r = await call(client, name, args);
      const v = check[name]!(r.structuredContent);
      expect({ name, args, valid: v.valid, error: v.errorMessage }).toEqual({
        name,
        args,
        valid: true,
        error: undefined,
      });
      if (r.isError)
        errorEnvelopeSchema.safeParse(r.structuredContent).success ||
          mcpPaymentRequestSchema.parse(r.structuredContent);
      // No HTTP status: refused before any REST request (a JSON shape the URL cannot carry).
      seen.push(`${name}:${r._meta?.http_status ?? "arguments"}`);
    }
    expect(seen).toEqual([
      "search_indicators:200",
      "search_indicators:400",
      "get_indicator:200",
      "get_indicator:404",
      "list_sources:200",
      "list_sources:arguments",
      "list_regions:200",
      "list_regions:404",
      "get_observations:200",
      "get_observations:200",
      "get_observations:200",
      "get_observations:400",
      "get_latest:200",
      "get_latest:207",
      "get_latest:404",
      "get_insights:200",
      "get_insights:400",
      "get_active_signals:200",
      "get_active_signals:400",
      "get_latest:402",
      "get_insights:402",
      "get_active_signals:402",
      "get_observations:402",
      "ask:200",
      "ask:200",
      "ask:402",
      "ask:400",
    ]);
  });

  test("the SDK client rejects a result that breaks the schema: the check is real", async () => {
    const { tools } = await (await connect(payBase)).listTools();
    const check = new AjvJsonSchemaValidator().getValidator(
      tools.find((t) => t.name === "list_regions")!.outputSchema as any,
    );
    const good = structured(await call(await connect(payBase), "list_regions", { type: "state", limit: 1 }));
    expect(check(good).valid).toBe(true);
    expect(check({ ...good, meta: { total: 51, limit: 1, offset: 0 } }).valid).toBe(false); // no truncated flag
    expect(check({ data: [{ code: "06" }], meta: good.meta }).valid).toBe(false);
    expect(check({ error: { code: "NOT_A_CODE", message: "x" } }).valid).toBe(false);
  });
});
