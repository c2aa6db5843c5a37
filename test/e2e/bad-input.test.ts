// A hostile client against every operation of the app's own /openapi.json (new routes are covered as they appear):
// malformed query values, repeated and unknown parameters, path tricks, malformed and oversized bodies, wrong content
// types, wrong methods, bad credentials and payment headers. Every answer must be below 500, carry X-Request-Id, show
// no stack trace, and (when not 2xx/3xx) be the spec's error envelope with the status of its code. The protocol
// endpoint /api/mcp answers transport errors as JSON-RPC errors (MCP spec) and is held to that instead.
// Each test collects every violation and asserts the list is empty, so a failure names all offending requests.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { z } from "zod";
import { ERROR_STATUS } from "../../src/errors";
import { PAYMENT_SCHEMES } from "../../src/docs/openapi-access";
import { seedFlows } from "../../db/seed/flows";
import { makeTestApp, type TestApp } from "../support/app";
import { jsonBody, testKey } from "../support/keys";
import { makePaymentsApp } from "../support/payments";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

type Json = Record<string, any>;
type Param = { name: string; in: "query" | "path" | "header" | "cookie"; required?: boolean; schema?: Json };
type Op = { method: string; path: string; op: Json; params: Param[]; body: Json | null; keyed: boolean; protocol: boolean };

// Built at load time: tests are generated per operation from the document the app serves.
const t: TestApp = await makeTestApp();
// GET /v1/flows's baseline reads the seeded flows (idempotent; a no-op once db/seed/index.ts seeds them too).
await seedFlows(t.database);
const doc = (await (await t.request("/openapi.json")).json()) as Json;
afterAll(() => t.close());

const METHODS = ["get", "post", "put", "patch", "delete"] as const;
const ops: Op[] = [];
for (const [path, item] of Object.entries<Json>(doc.paths)) {
  // The FRED-compatible surface answers FRED's error document, not the envelope: test/routes/fred-hostile.test.ts
  // holds it to that, with the same hostile values.
  if (path.startsWith("/fred/")) continue;
  for (const method of METHODS) {
    const op = item[method];
    if (!op) continue;
    const security: Json[] | undefined = op.security;
    ops.push({
      method: method.toUpperCase(),
      path,
      op,
      params: (op.parameters ?? []) as Param[],
      body: op.requestBody ?? null,
      // Key-only operations (no `{}` or payment alternative) get a fresh key per request: rotate and revoke consume it.
      keyed: !!security?.length && !security.some((s) => Object.keys(s).length === 0 || Object.keys(s).some((n) => PAYMENT_SCHEMES.includes(n as never))),
      protocol: path === "/api/mcp",
    });
  }
}

function deref(schema: Json | undefined): Json {
  if (schema?.$ref) return doc.components.schemas[String(schema.$ref).replace("#/components/schemas/", "")];
  return schema ?? {};
}

// A saved briefing is reached only by the key that saved it: its operations are called with that key, on briefings it
// saved (DELETE on one of its own, so the one the other operations read stays).
const briefingOwner = await testKey(t, { plan: "professional" });
const saveBriefing = async (): Promise<string> =>
  ((await (await t.request("/v1/briefings", jsonBody({ name: "walk", question: "How is the unemployment rate in Texas moving?", cadence: "weekly" }, briefingOwner.headers))).json()) as Json).data.id;
const OWNED_BRIEFINGS = { read: await saveBriefing(), deleted: await saveBriefing() };
const ownedBriefing = (o: Op) => o.path.startsWith("/v1/briefings/{id}");

// Valid values for the seeded database (PAYEMS/US is held), so a mutation is the only thing wrong with a request.
const GOOD: Record<string, string> = { indicator: "PAYEMS", indicators: "PAYEMS", region: "US", code: "PAYEMS", plan: "developer" };
const goodValue = (o: Op, name: string) => {
  if (ownedBriefing(o) && name === "id") return o.method === "DELETE" ? OWNED_BRIEFINGS.deleted : OWNED_BRIEFINGS.read;
  return o.path.startsWith("/v1/regions/") ? "06" : (GOOD[name] ?? String(o.params.find((p) => p.name === name)?.schema?.example ?? "x"));
};
const goodPath = (o: Op) => o.path.replace(/\{([^}]+)\}/g, (_, name: string) => goodValue(o, name));
/** Whether `method` on the concrete `path` is a request to another operation (`/v1/briefings/public` is an `{id}`). */
const templateOf = (path: string) => new RegExp(`^${path.replace(/\{[^}]+\}/g, "[^/]+")}$`);
// Operations whose parameters are all optional but that need one to succeed; and parameters that exclude others.
const BASELINE: Record<string, [string, string][]> = { "GET /v1/observations/latest": [["indicator", "PAYEMS"]], "GET /v1/flows": [["origin", "06075"]] };
const EXCLUDES: Record<string, string[]> = { indicators: ["indicator"] };
const requiredQuery = (o: Op): [string, string][] => [
  ...o.params.filter((p) => p.in === "query" && p.required).map((p): [string, string] => [p.name, GOOD[p.name] ?? String(p.schema?.example ?? "x")]),
  ...(BASELINE[`${o.method} ${o.path}`] ?? []),
];

function url(path: string, pairs: [string, string][], rawTail = ""): string {
  const qs = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
  const all = [qs, rawTail].filter(Boolean).join("&");
  return all ? `${path}?${all}` : path;
}

async function headersFor(o: Op, extra: Record<string, string> = {}): Promise<Record<string, string>> {
  if (ownedBriefing(o)) return { ...briefingOwner.headers, ...extra };
  return o.keyed ? { ...(await testKey(t)).headers, ...extra } : extra;
}

// ---- the invariants every answer must hold -------------------------------------------------------------------------

const envelopeSchema = z
  .object({
    error: z
      .object({
        code: z.enum(Object.keys(ERROR_STATUS) as [keyof typeof ERROR_STATUS]),
        message: z.string().min(1),
        details: z.record(z.string(), z.unknown()).optional(),
      })
      .strict(),
  })
  .strict();
const jsonRpcErrorSchema = z.object({ jsonrpc: z.literal("2.0"), error: z.object({ code: z.number().int(), message: z.string().min(1) }), id: z.unknown() });

// Stack frames ("    at fn (file.ts:1:2)"), source positions and runtime error names never leave the process.
const STACK = [/\n\s*at\s/, /\bat\s+\S+\s+\([^)]*:\d+:\d+\)/, /\.tsx?:\d+/, /\.js:\d+:\d+/, /node_modules/, /\b(TypeError|ReferenceError|SyntaxError|RangeError)\b/];

type Probe = { label: string; status: number; body: string; json: any; res: Response };

class Violations {
  readonly list: string[] = [];
  add(label: string, why: string) {
    this.list.push(`${label}: ${why}`);
  }
  /** Sends the request and records every broken invariant. */
  async send(label: string, path: string, init: RequestInit & { op?: Op } = {}): Promise<Probe> {
    const res = await t.app.request(path, init);
    return this.check(label, res, init.op ?? null, init.method ?? "GET");
  }
  /** `op`: the operation the request was meant for (its documented statuses and whether it is the protocol endpoint). */
  async check(label: string, res: Response, op: Op | null, method: string): Promise<Probe> {
    const protocol = op?.protocol ?? false;
    const body = await res.text();
    let json: any = undefined;
    const type = res.headers.get("content-type") ?? "";
    if (type.includes("json") && body !== "") {
      try {
        json = JSON.parse(body);
      } catch {
        this.add(label, `content-type ${type} but the body is not JSON`);
      }
    }
    // The one 5xx allowed: 503 SERVICE_UNAVAILABLE from an operation that documents it (a provider this server was
    // not configured with); anything else at or above 500 is a server fault.
    if (res.status >= 500 && !(res.status === 503 && (json?.error?.code === "SERVICE_UNAVAILABLE" || method === "HEAD") && op?.op.responses?.["503"])) {
      this.add(label, `status ${res.status} ${body.slice(0, 200)}`);
    }
    // A new UUID, or the client's own id as hono/request-id keeps it (word characters, '-' and '=', up to 128).
    if (!/^[0-9a-f-]{36}$|^[\w=-]{1,128}$/.test(res.headers.get("x-request-id") ?? "")) this.add(label, "no X-Request-Id");
    if (STACK.some((re) => re.test(body))) this.add(label, `stack trace text in body: ${body.slice(0, 300)}`);
    if (res.status >= 400 && method !== "HEAD") {
      if (!type.startsWith("application/json")) this.add(label, `error ${res.status} with content-type ${type}`);
      const env = envelopeSchema.safeParse(json);
      if (env.success) {
        if (ERROR_STATUS[env.data.error.code] !== res.status) this.add(label, `code ${env.data.error.code} with status ${res.status}`);
      } else if (!(protocol && jsonRpcErrorSchema.safeParse(json).success)) {
        this.add(label, `error ${res.status} is not the error envelope: ${body.slice(0, 200)}`);
      }
    }
    return { label, status: res.status, body, json, res };
  }
  expectStatus(p: Probe, want: number | ((s: number) => boolean), what: string) {
    const ok = typeof want === "number" ? p.status === want : want(p.status);
    if (!ok) this.add(p.label, `expected ${what}, got ${p.status} ${p.body.slice(0, 200)}`);
  }
  expectCode(p: Probe, code: keyof typeof ERROR_STATUS) {
    if (p.json?.error?.code !== code) this.add(p.label, `expected ${code}, got ${p.status} ${p.body.slice(0, 200)}`);
  }
}

// ---- malformed values ----------------------------------------------------------------------------------------------

const LONG = "x".repeat(10_000);
const UNICODE = "𝔘ñí©ødé ✓ 中文 🇺🇸 ‮rtl";

/** Values any parameter may receive; `bad` ones must be a 400 whatever the parameter's type. */
const ANY_VALUES: { v: string; bad?: boolean }[] = [
  { v: "", bad: true },
  { v: LONG, bad: true },
  { v: "\u0000", bad: true },
  { v: "a\u0000b", bad: true },
  { v: " " },
  { v: UNICODE },
  { v: "\uFFFD\uFFFF" },
  { v: "../../etc/passwd" },
  { v: "a/b" },
  { v: "%2F" },
  { v: "'; DROP TABLE indicators; --" },
  { v: "<script>alert(1)</script>" },
  { v: "%" },
  { v: "_" },
  { v: "\\" },
  { v: "null" },
  { v: "undefined" },
  { v: "[]" },
  { v: "{}" },
  { v: "a,b,,c" },
  { v: "," },
  { v: "__proto__" },
];
const INTEGER_BAD = ["1e3", "1E2", "0x10", " 5", "5 ", "+5", "1.5", "1.0", "-1", "NaN", "Infinity", "-0x1", "99999999999999999999", "1_000", "٣"];
const BOOLEAN_BAD = ["yes", "no", "1", "0", "TRUE", "False", "on", " true"];
const DATE_BAD = ["2024-02-30", "2023-02-29", "2024-13-01", "2024-00-10", "2024-01-32", "24-01-01", "2024-1-1", "20240101", "2024-01-01T00:00:00Z", "2024/01/01", "+2024-01-01", "99999-01-01"];
/** Raw (unencoded) query tails: malformed percent escapes and encodings a URL parser must survive. */
const RAW_VALUES = ["%", "%FF", "%E0%A4%A", "%ED%A0%80", "%C0%AF", "%2500", "%u0041", "%%32%65"];

const queryParamsOf = (o: Op) => o.params.filter((p) => p.in === "query");
const pathParamsOf = (o: Op) => o.params.filter((p) => p.in === "path");
const isArrayParam = (p: Param) => p.schema?.type === "array";
const label = (o: Op, what: string) => `${o.method} ${o.path} ${what}`;

function baseQuery(o: Op, without: string): [string, string][] {
  return requiredQuery(o).filter(([k]) => k !== without && !(EXCLUDES[without] ?? []).includes(k));
}

async function sendQuery(v: Violations, o: Op, what: string, pairs: [string, string][], rawTail = "") {
  return v.send(label(o, what), url(goodPath(o), pairs, rawTail), { method: o.method, headers: await headersFor(o), op: o });
}

// ---- the walk ------------------------------------------------------------------------------------------------------

test("the document lists the operations this walk depends on", () => {
  const names = ops.map((o) => `${o.method} ${o.path}`);
  for (const must of ["GET /v1/indicators", "GET /v1/indicators/{code}", "GET /v1/regions/{code}", "GET /v1/observations", "POST /v1/signup", "POST /v1/keys/revoke"]) {
    expect(names).toContain(must);
  }
});

describe("every operation, baseline and malformed query values", () => {
  for (const o of ops) {
    test(`${o.method} ${o.path}`, async () => {
      const v = new Violations();
      // The baseline request must be well-formed, so that each mutation below is the only fault.
      if (!o.body) {
        const base = await sendQuery(v, o, "baseline", requiredQuery(o));
        if (o.path.startsWith("/v1/")) v.expectStatus(base, (s) => s < 400, "the baseline to succeed");
      }
      for (const p of queryParamsOf(o)) {
        const rest = baseQuery(o, p.name);
        const s = p.schema ?? {};
        for (const { v: value, bad } of ANY_VALUES) {
          const r = await sendQuery(v, o, `${p.name}=${JSON.stringify(value.slice(0, 30))}`, [...rest, [p.name, value]]);
          if (bad) v.expectStatus(r, 400, "400");
        }
        if (s.type === "integer") {
          for (const value of INTEGER_BAD) v.expectStatus(await sendQuery(v, o, `${p.name}=${JSON.stringify(value)}`, [...rest, [p.name, value]]), 400, "400 for a non-integer");
          if (typeof s.minimum === "number") {
            v.expectStatus(await sendQuery(v, o, `${p.name}=min`, [...rest, [p.name, String(s.minimum)]]), (x) => x < 400, "the minimum to pass");
            v.expectStatus(await sendQuery(v, o, `${p.name}=min-1`, [...rest, [p.name, String(s.minimum - 1)]]), 400, "400 below the minimum");
          }
          if (typeof s.maximum === "number") {
            v.expectStatus(await sendQuery(v, o, `${p.name}=max`, [...rest, [p.name, String(s.maximum)]]), (x) => x < 400, "the maximum to pass");
            v.expectStatus(await sendQuery(v, o, `${p.name}=max+1`, [...rest, [p.name, String(s.maximum + 1)]]), 400, "400 above the maximum");
          }
        }
        if (s.type === "boolean") {
          for (const value of BOOLEAN_BAD) v.expectStatus(await sendQuery(v, o, `${p.name}=${JSON.stringify(value)}`, [...rest, [p.name, value]]), 400, "400 for a non-boolean");
          for (const value of ["true", "false"]) v.expectStatus(await sendQuery(v, o, `${p.name}=${value}`, [...rest, [p.name, value]]), (x) => x < 400, "a boolean to pass");
        }
        if (s.format === "date") {
          for (const value of DATE_BAD) v.expectStatus(await sendQuery(v, o, `${p.name}=${value}`, [...rest, [p.name, value]]), 400, "400 for an invalid date");
          v.expectStatus(await sendQuery(v, o, `${p.name}=2024-02-29`, [...rest, [p.name, "2024-02-29"]]), (x) => x < 400, "a leap day to pass");
        }
        if (Array.isArray(s.enum)) {
          const first = String(s.enum[0]);
          for (const value of [first.toUpperCase(), ` ${first}`, `${first},${first}`, "bogus"]) {
            if (s.enum.includes(value)) continue;
            v.expectStatus(await sendQuery(v, o, `${p.name}=${JSON.stringify(value)}`, [...rest, [p.name, value]]), 400, "400 for a value outside the enum");
          }
        }
        if (typeof s.maxLength === "number") {
          const at = ofLength(s.example, s.maxLength);
          v.expectStatus(await sendQuery(v, o, `${p.name} one past maxLength`, [...rest, [p.name, at + "x"]]), 400, "400 one past maxLength");
        }
        for (const raw of RAW_VALUES) await sendQuery(v, o, `${p.name}=<raw ${raw}>`, rest, `${encodeURIComponent(p.name)}=${raw}`);
        // Repeated: a single-valued parameter given twice is a 400 naming it.
        const good = GOOD[p.name] ?? String(s.example ?? s.default ?? s.enum?.[0] ?? "1");
        const twice = await sendQuery(v, o, `${p.name} repeated`, [...rest, [p.name, good], [p.name, good]]);
        if (!isArrayParam(p)) {
          v.expectStatus(twice, 400, "400 for a repeated parameter");
          if (twice.json?.error?.details?.parameter !== p.name) v.add(twice.label, `the 400 does not name ${p.name}: ${twice.body.slice(0, 200)}`);
        }
      }
      expect(v.list).toEqual([]);
    });
  }
});

/** A string of exactly `max` characters built from the parameter's example (so it stays plausible). */
function ofLength(example: unknown, max: number): string {
  const seed = typeof example === "string" && example.length > 0 ? example : "a";
  return seed.repeat(Math.ceil(max / seed.length)).slice(0, max);
}

describe("unknown query parameters", () => {
  for (const o of ops) {
    test(`${o.method} ${o.path}`, async () => {
      const v = new Violations();
      const good = requiredQuery(o);
      const init = async () => ({ method: o.method, headers: await headersFor(o), op: o });
      if (o.body) return; // operations with a body: see the POST test below
      const base = await v.send(label(o, "baseline"), url(goodPath(o), good), await init());
      for (const name of ["bogus", "start", "Limit", "limit[]", "_", "indicator ", UNICODE, LONG.slice(0, 2000)]) {
        if (o.params.some((p) => p.name === name)) continue;
        const r = await v.send(label(o, `unknown ${JSON.stringify(name.slice(0, 20))}`), url(goodPath(o), [...good, [name, "1"]]), await init());
        if (o.path.startsWith("/v1/")) {
          // The spec lists every parameter of the API; an unlisted one is a mistake the caller should hear about.
          v.expectStatus(r, 400, "400 for an unknown parameter");
          v.expectCode(r, "INVALID_PARAMETER");
          if (r.json?.error?.details?.parameter !== name) v.add(r.label, `the 400 does not name the parameter: ${r.body.slice(0, 200)}`);
        } else {
          // Pages people open from links (index, docs, checkout) ignore tracking and provider parameters.
          v.expectStatus(r, base.status, `the same status as without it (${base.status})`);
        }
      }
      expect(v.list).toEqual([]);
    });
  }

  test("POST operations on /v1 refuse unknown query parameters too", async () => {
    const v = new Violations();
    const signup = await v.send("POST /v1/signup?bogus=1", "/v1/signup?bogus=1", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "q@example.com" }) });
    v.expectStatus(signup, 400, "400");
    v.expectCode(signup, "INVALID_PARAMETER");
    const key = await testKey(t);
    const rotate = await v.send("POST /v1/keys/rotate?dry_run=true", "/v1/keys/rotate?dry_run=true", { method: "POST", headers: key.headers });
    v.expectStatus(rotate, 400, "400 (and the key not rotated)");
    const ping = await v.send("GET /v1/ping after the refused rotation", "/v1/ping", { headers: key.headers });
    v.expectStatus(ping, 200, "the key to still work");
    expect(v.list).toEqual([]);
  });
});

describe("path parameters", () => {
  const TRICKS: { v: string; bad?: boolean }[] = [
    { v: "%00", bad: true },
    { v: "a%00b", bad: true },
    { v: encodeURIComponent(LONG), bad: true },
    { v: "%2e%2e" },
    { v: "..%2F..%2Fetc%2Fpasswd" },
    { v: "a%2Fb" },
    { v: "%2F" },
    { v: "%5C..%5C" },
    { v: "a%3Fb%3Dc" },
    { v: "a%23b" },
    { v: "%20" },
    { v: "%FF" },
    { v: "%ED%A0%80" },
    { v: "%C0%AE%C0%AE" },
    { v: encodeURIComponent(UNICODE) },
    { v: "a;b" },
    { v: "CON" },
    { v: "%25" },
    { v: encodeURIComponent("'; DROP TABLE regions; --") },
  ];
  for (const o of ops.filter((x) => pathParamsOf(x).length > 0)) {
    test(`${o.method} ${o.path}`, async () => {
      const v = new Violations();
      for (const { v: value, bad } of TRICKS) {
        const path = o.path.replace(/\{[^}]+\}/, value);
        const r = await v.send(label(o, `path ${value.slice(0, 30)}`), url(path, requiredQuery(o)), { method: o.method, headers: await headersFor(o), op: o });
        if (bad) v.expectStatus(r, 400, "400");
        // Whatever the code names, it never escapes its route: a decoded "/" or ".." is part of the value.
        else if (r.status < 400 && !o.path.startsWith("/checkout")) v.add(r.label, `a path trick was served: ${r.status} ${r.body.slice(0, 120)}`);
      }
      // Plain ".." segments are resolved by the URL itself (RFC 3986), before any route sees them: never a 5xx.
      for (const raw of ["..", "../..", ".", "...", "..;"]) {
        await v.send(label(o, `raw path ${raw}`), o.path.replace(/\{[^}]+\}/, raw), { method: o.method, headers: await headersFor(o), op: o });
      }
      expect(v.list).toEqual([]);
    });
  }
});

describe("wrong methods", () => {
  const paths = [...new Set(ops.map((o) => o.path))];
  for (const path of paths) {
    test(path, async () => {
      const v = new Violations();
      const declared = ops.filter((o) => o.path === path).map((o) => o.method);
      const o = ops.find((x) => x.path === path)!;
      const concrete = goodPath(o);
      for (const method of ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]) {
        if (declared.includes(method) || (method === "HEAD" && declared.includes("GET"))) continue;
        // The spec's paths overlap: DELETE /v1/briefings/public is DELETE /v1/briefings/{id} for the id "public".
        if (ops.some((x) => x.path !== path && (x.method === method || (method === "HEAD" && x.method === "GET")) && templateOf(x.path).test(concrete))) continue;
        const r = await v.send(`${method} ${path}`, concrete, { method, op: o });
        v.expectStatus(r, 405, "405");
        const allow = (r.res.headers.get("allow") ?? "").split(/,\s*/);
        for (const m of declared) if (!allow.includes(m)) v.add(r.label, `Allow (${allow.join(", ")}) lacks ${m}`);
        if (!o.protocol && method !== "HEAD") v.expectCode(r, "METHOD_NOT_ALLOWED");
      }
      for (const method of declared.filter((m) => m === "GET")) {
        const head = await v.send(`HEAD ${path}`, url(concrete, requiredQuery(o)), { method: "HEAD", headers: await headersFor(o), op: o });
        if (head.body !== "") v.add(head.label, "HEAD answered with a body");
      }
      expect(v.list).toEqual([]);
    });
  }

  test("an unknown path is a 404 envelope, whatever the method", async () => {
    const v = new Violations();
    for (const method of ["GET", "POST", "PUT", "DELETE"]) {
      for (const path of ["/v1/nope", "/v2/observations", "/v1/sources/", "//v1/sources", "/v1/indicators/PAYEMS/extra", "/.env", "/%2e%2e/%2e%2e/etc/passwd"]) {
        const r = await v.send(`${method} ${path}`, path, { method });
        v.expectStatus(r, 404, "404");
        v.expectCode(r, "RESOURCE_NOT_FOUND");
      }
    }
    expect(v.list).toEqual([]);
  });
});

describe("request bodies", () => {
  const MALFORMED = ["{", "{\"email\":", "nul", "[", "\"unterminated", "{'email':'a@b.co'}", "{\"email\":\"a@b.co\",}", "\u0000", "{\"a\":1}{\"b\":2}"];
  const NON_OBJECT = ["null", "[]", "42", "\"text\"", "true", "[{\"email\":\"a@b.co\"}]"];
  const bodyOps = ops.filter((o) => o.method !== "GET" && o.method !== "DELETE");
  for (const o of bodyOps) {
    test(`${o.method} ${o.path}`, async () => {
      const v = new Violations();
      const json = (body: string, contentType: string | null = "application/json", extra: Record<string, string> = {}) => async () => ({
        method: o.method,
        headers: await headersFor(o, { ...(contentType ? { "content-type": contentType } : {}), ...(o.protocol ? { accept: "application/json, text/event-stream" } : {}), ...extra }),
        body,
        op: o,
      });
      const at = url(goodPath(o), requiredQuery(o));
      const schema = deref(o.body?.content?.["application/json"]?.schema);
      const declaresJson = !!o.body;

      for (const body of MALFORMED) {
        const r = await v.send(label(o, `malformed ${JSON.stringify(body)}`), at, await json(body)());
        if (declaresJson) v.expectStatus(r, (s) => s === 400 || s === 401, "400");
      }
      for (const body of NON_OBJECT) {
        const r = await v.send(label(o, `JSON ${body}`), at, await json(body)());
        if (declaresJson && !o.protocol) v.expectStatus(r, 400, "400");
      }
      for (const ct of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/xml", "application/jsonx", null]) {
        const r = await v.send(label(o, `content-type ${ct}`), at, await json(JSON.stringify(validBody(schema)), ct)());
        if (declaresJson && !o.protocol) v.expectStatus(r, 400, "400 for a body that is not declared as JSON");
      }
      // Oversized: 2 MiB of valid JSON, with and without a Content-Length the server can trust.
      const big = JSON.stringify({ ...validBody(schema), pad: "x".repeat(2 * 1024 * 1024) });
      const r1 = await v.send(label(o, "2 MiB body"), at, await json(big)());
      v.expectStatus(r1, 413, "413");
      if (!o.protocol) v.expectCode(r1, "PAYLOAD_TOO_LARGE");
      const stream = new ReadableStream({
        start(c) {
          for (let i = 0; i < 32; i++) c.enqueue(new TextEncoder().encode("x".repeat(64 * 1024 + 1)));
          c.close();
        },
      });
      const r2 = await v.send(label(o, "2 MiB streamed body"), at, { method: o.method, headers: await headersFor(o, { "content-type": "application/json" }), body: stream, op: o });
      v.expectStatus(r2, 413, "413");
      // Deeply nested JSON: parsed or refused, never a crash.
      await v.send(label(o, "nested 100k"), at, await json("[".repeat(100_000) + "]".repeat(100_000))());
      await v.send(label(o, "prototype keys"), at, await json(JSON.stringify({ ...validBody(schema), __proto__: { admin: true }, constructor: { prototype: { admin: true } } }))());

      // Each declared property with the wrong JSON type, too long, or carrying NUL.
      for (const [name, prop] of Object.entries<Json>(schema.properties ?? {})) {
        const p = deref(prop);
        const wrong: unknown[] = p.type === "string" ? [42, true, [], {}, null] : p.type === "boolean" ? ["true", 1, [], {}, null] : p.type === "integer" || p.type === "number" ? ["1", true, [], {}, 1.5e308 * 10] : [];
        for (const w of wrong) {
          const r = await v.send(label(o, `${name}=${JSON.stringify(w)}`), at, await json(JSON.stringify({ ...validBody(schema), [name]: w }))());
          if (!o.protocol) v.expectStatus(r, 400, `400 for ${name} of the wrong type`);
        }
        if (p.type === "string") {
          for (const s of [LONG, "\u0000", "a\u0000b", UNICODE, "", " "]) {
            const r = await v.send(label(o, `${name}=${JSON.stringify(s.slice(0, 20))}`), at, await json(JSON.stringify({ ...validBody(schema), [name]: s }))());
            if (s === LONG && !o.protocol) v.expectStatus(r, 400, `400 for a 10 kB ${name}`);
          }
        }
      }
      expect(v.list).toEqual([]);
    });
  }
});

/** A body that satisfies the declared schema (required properties with plausible values). */
function validBody(schema: Json): Json {
  const out: Json = {};
  for (const name of schema.required ?? []) {
    const p = deref(schema.properties?.[name]);
    out[name] = p.format === "email" ? "walker@example.com" : name === "token" ? "svcr_notarealtoken" : name === "jsonrpc" ? "2.0" : name === "method" ? "tools/list" : p.type === "boolean" ? false : p.type === "integer" ? 1 : p.example ?? "x";
  }
  return out;
}

describe("credentials and request ids on every operation", () => {
  for (const o of ops) {
    test(`${o.method} ${o.path}`, async () => {
      const v = new Violations();
      const at = url(goodPath(o), requiredQuery(o));
      const body: Record<string, string> = o.body ? { "content-type": "application/json" } : {};
      const payload = o.body ? JSON.stringify(validBody(deref(o.body.content?.["application/json"]?.schema))) : undefined;
      const bad: Record<string, string>[] = [
        { authorization: "Bearer" },
        { authorization: "Bearer " + LONG },
        { authorization: "Bearer svc_live_é" },
        { authorization: "Bearer svc_live_notarealkeynotarealkeynotareal" },
        { "x-api-key": "" },
        { "x-api-key": "svc_test_" + "A".repeat(32) },
        { authorization: "Bearer svc_live_a", "x-api-key": "svc_live_b" },
      ];
      for (const headers of bad) {
        if (o.protocol) {
          // The MCP endpoint takes the credential per tool call: a bad key is that call's INVALID_API_KEY, a tool result
          // in a 200 JSON-RPC answer (the session itself needs no key), never an HTTP 401 the client could not act on.
          const call = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_sources", arguments: {} } });
          const mcp = { ...body, accept: "application/json, text/event-stream", ...headers };
          const r = await v.send(label(o, JSON.stringify(headers).slice(0, 60)), at, { method: o.method, headers: mcp, body: call, op: o });
          v.expectStatus(r, 200, "200");
          if (r.json?.result?.isError !== true || r.json.result.structuredContent?.error?.code !== "INVALID_API_KEY") v.add(r.label, `expected the tool error INVALID_API_KEY, got ${r.body.slice(0, 200)}`);
          continue;
        }
        const r = await v.send(label(o, JSON.stringify(headers).slice(0, 60)), at, { method: o.method, headers: { ...body, ...headers }, body: payload, op: o });
        v.expectStatus(r, 401, "401");
      }
      for (const id of ["<script>alert(1)</script>", "a".repeat(10_000), "short", "ok-request-id-1234"]) {
        const r = await v.send(label(o, `x-request-id ${id.slice(0, 20)}`), at, { method: o.method, headers: { ...body, ...(await headersFor(o)), "x-request-id": id }, body: payload, op: o });
        const got = r.res.headers.get("x-request-id");
        const want = id === "ok-request-id-1234" || id === "short" ? id : null;
        if (want ? got !== want : got === id) v.add(r.label, `X-Request-Id ${got}`);
      }
      expect(v.list).toEqual([]);
    });
  }
});

describe("payment headers on paid operations", () => {
  test("garbage x402 and L402 proofs are 400 or 402 envelopes, never 5xx", async () => {
    const p = await makePaymentsApp({
      x402: { networks: [{ network: "eip155:84532", payTo: "0x4374713F62239c69e6912a4D7235B2a365397004", rpcUrl: null }], settlement: { mode: "facilitator", url: "http://127.0.0.1:9" } },
    });
    await seedFlows(p.database);
    try {
      const paidOps = ops.filter((o) => o.op["x-price-usd"] !== undefined);
      expect(paidOps.length).toBeGreaterThan(0);
      const v = new Violations();
      const b64 = (x: unknown) => Buffer.from(JSON.stringify(x)).toString("base64");
      const proofs: Record<string, string>[] = [
        { "x-payment": "garbage" },
        { "x-payment": "e30=" },
        { "x-payment": "x".repeat(10_000) },
        { "x-payment": b64({ x402Version: 2, payload: { authorization: { from: "0x0", value: "-1" }, signature: "0x" }, accepted: { scheme: "exact", network: "eip155:84532" } }) },
        { "x-payment": b64({ x402Version: 2, payload: null, accepted: null }) },
        { "x-payment": b64([1, 2, 3]) },
        { "payment-signature": "garbage" },
        { "payment-signature": b64({ x402Version: 99 }) },
        { authorization: "L402 garbage" },
        { authorization: "L402 :" },
        { authorization: "LSAT a:b" },
        { authorization: `L402 ${"A".repeat(10_000)}:${"0".repeat(64)}` },
        { authorization: `L402 ${Buffer.from("not a macaroon").toString("base64")}:${"0".repeat(64)}` },
      ];
      for (const o of paidOps) {
        for (const h of proofs) {
          const res = await p.app.request(url(goodPath(o), requiredQuery(o)), { method: o.method, headers: h });
          const r = await v.check(label(o, JSON.stringify(h).slice(0, 70)), res, o, o.method);
          v.expectStatus(r, (s) => s === 400 || s === 402, "400 or 402");
        }
      }
      expect(v.list).toEqual([]);
    } finally {
      await p.close();
    }
  });
});
