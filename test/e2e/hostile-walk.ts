// The hostile client of test/e2e/bad-input*.test.ts: the real app and its own /openapi.json, walked operation by
// operation (new routes are covered as they appear); valid values for the seeded database, so a mutation is the only
// thing wrong with a request; the invariants every answer must hold (below 500, X-Request-Id, no stack trace, the
// spec's error envelope with the status of its code, JSON-RPC errors from /api/mcp), collected as Violations; and the
// malformed values sent. Each file builds its own walk (hostileWalk) and closes its app.
import { z } from "zod";
import { ERROR_STATUS } from "../../src/errors";
import { PAYMENT_SCHEMES } from "../../src/docs/openapi-access";
import { seedFlows } from "../../db/seed/flows";
import { makeTestApp, type TestApp } from "../support/app";
import { jsonBody, testKey } from "../support/keys";

export type Json = Record<string, any>;
export type Param = { name: string; in: "query" | "path" | "header" | "cookie"; required?: boolean; schema?: Json };
export type Op = {
  method: string;
  path: string;
  op: Json;
  params: Param[];
  body: Json | null;
  keyed: boolean;
  protocol: boolean;
};

/** The app, the operations its document lists and everything the walk sends and checks. Close `t` when done. */
export async function hostileWalk() {
  // Built at load time: tests are generated per operation from the document the app serves.
  const t: TestApp = await makeTestApp();
  // GET /v1/flows's baseline reads the seeded flows (idempotent; a no-op once db/seed/index.ts seeds them too).
  await seedFlows(t.database);
  const doc = (await (await t.request("/openapi.json")).json()) as Json;

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
        keyed:
          !!security?.length &&
          !security.some(
            (s) => Object.keys(s).length === 0 || Object.keys(s).some((n) => PAYMENT_SCHEMES.includes(n as never)),
          ),
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
    (
      (await (
        await t.request(
          "/v1/briefings",
          jsonBody(
            { name: "walk", question: "How is the unemployment rate in Texas moving?", cadence: "weekly" },
            briefingOwner.headers,
          ),
        )
      ).json()) as Json
    ).data.id;
  const OWNED_BRIEFINGS = { read: await saveBriefing(), deleted: await saveBriefing() };
  const ownedBriefing = (o: Op) => o.path.startsWith("/v1/briefings/{id}");

  // Valid values for the seeded database (PAYEMS/US is held), so a mutation is the only thing wrong with a request.
  const GOOD: Record<string, string> = {
    indicator: "PAYEMS",
    indicators: "PAYEMS",
    region: "US",
    code: "PAYEMS",
    plan: "developer",
  };
  const goodValue = (o: Op, name: string) => {
    if (ownedBriefing(o) && name === "id")
      return o.method === "DELETE" ? OWNED_BRIEFINGS.deleted : OWNED_BRIEFINGS.read;
    return o.path.startsWith("/v1/regions/")
      ? "06"
      : (GOOD[name] ?? String(o.params.find((p) => p.name === name)?.schema?.example ?? "x"));
  };
  const goodPath = (o: Op) => o.path.replace(/\{([^}]+)\}/g, (_, name: string) => goodValue(o, name));
  /** Whether `method` on the concrete `path` is a request to another operation (`/v1/briefings/public` is an `{id}`). */
  const templateOf = (path: string) => new RegExp(`^${path.replace(/\{[^}]+\}/g, "[^/]+")}$`);
  // Operations whose parameters are all optional but that need one to succeed; and parameters that exclude others.
  const BASELINE: Record<string, [string, string][]> = {
    "GET /v1/observations/latest": [["indicator", "PAYEMS"]],
    "GET /v1/flows": [["origin", "06075"]],
  };
  const EXCLUDES: Record<string, string[]> = { indicators: ["indicator"] };
  const requiredQuery = (o: Op): [string, string][] => [
    ...o.params
      .filter((p) => p.in === "query" && p.required)
      .map((p): [string, string] => [p.name, GOOD[p.name] ?? String(p.schema?.example ?? "x")]),
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
  const jsonRpcErrorSchema = z.object({
    jsonrpc: z.literal("2.0"),
    error: z.object({ code: z.number().int(), message: z.string().min(1) }),
    id: z.unknown(),
  });

  // Stack frames ("    at fn (file.ts:1:2)"), source positions and runtime error names never leave the process.
  const STACK = [
    /\n\s*at\s/,
    /\bat\s+\S+\s+\([^)]*:\d+:\d+\)/,
    /\.tsx?:\d+/,
    /\.js:\d+:\d+/,
    /node_modules/,
    /\b(TypeError|ReferenceError|SyntaxError|RangeError)\b/,
  ];

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
      if (
        res.status >= 500 &&
        !(
          res.status === 503 &&
          (json?.error?.code === "SERVICE_UNAVAILABLE" || method === "HEAD") &&
          op?.op.responses?.["503"]
        )
      ) {
        this.add(label, `status ${res.status} ${body.slice(0, 200)}`);
      }
      if (!/^[0-9a-f-]{36}$|^[\w=-]{1,128}$/.test(res.headers.get("x-request-id") ?? ""))
        this.add(label, "no X-Request-Id");
      if (STACK.some((re) => re.test(body))) this.add(label, `stack trace text in body: ${body.slice(0, 300)}`);
      if (res.status >= 400 && method !== "HEAD") {
        if (!type.startsWith("application/json")) this.add(label, `error ${res.status} with content-type ${type}`);
        const env = envelopeSchema.safeParse(json);
        if (env.success) {
          if (ERROR_STATUS[env.data.error.code] !== res.status)
            this.add(label, `code ${env.data.error.code} with status ${res.status}`);
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
  const INTEGER_BAD = [
    "1e3",
    "1E2",
    "0x10",
    " 5",
    "5 ",
    "+5",
    "1.5",
    "1.0",
    "-1",
    "NaN",
    "Infinity",
    "-0x1",
    "99999999999999999999",
    "1_000",
    "٣",
  ];
  const BOOLEAN_BAD = ["yes", "no", "1", "0", "TRUE", "False", "on", " true"];
  const DATE_BAD = [
    "2024-02-30",
    "2023-02-29",
    "2024-13-01",
    "2024-00-10",
    "2024-01-32",
    "24-01-01",
    "2024-1-1",
    "20240101",
    "2024-01-01T00:00:00Z",
    "2024/01/01",
    "+2024-01-01",
    "99999-01-01",
  ];
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
    return v.send(label(o, what), url(goodPath(o), pairs, rawTail), {
      method: o.method,
      headers: await headersFor(o),
      op: o,
    });
  }

  // ---- the walk ------------------------------------------------------------------------------------------------------

  return {
    t,
    ops,
    deref,
    GOOD,
    goodPath,
    templateOf,
    requiredQuery,
    url,
    headersFor,
    Violations,
    LONG,
    UNICODE,
    ANY_VALUES,
    INTEGER_BAD,
    BOOLEAN_BAD,
    DATE_BAD,
    RAW_VALUES,
    queryParamsOf,
    pathParamsOf,
    isArrayParam,
    label,
    baseQuery,
    sendQuery,
  };
}
