// A hostile client against every operation of the app's own /openapi.json (new routes are covered as they appear):
// malformed query values, repeated and unknown parameters, path tricks, malformed and oversized bodies, wrong content
// types, wrong methods, bad credentials and payment headers. Every answer must be below 500, carry X-Request-Id, show
// no stack trace, and (when not 2xx/3xx) be the spec's error envelope with the status of its code. The protocol
// endpoint /api/mcp answers transport errors as JSON-RPC errors (MCP spec) and is held to that instead.
// Each test collects every violation and asserts the list is empty, so a failure names all offending requests.
// Here: malformed query values, unknown and repeated parameters, path tricks (test/e2e/hostile-walk.ts); wrong
// methods, bodies, credentials and payment headers are bad-input-requests.test.ts.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { testKey } from "../support/keys";
import { hostileWalk } from "./hostile-walk";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

// Built at load time: tests are generated per operation from the document the app serves.
const {
  t,
  ops,
  GOOD,
  goodPath,
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
} = await hostileWalk();
afterAll(() => t.close());

test("the document lists the operations this walk depends on", () => {
  const names = ops.map((o) => `${o.method} ${o.path}`);
  for (const must of [
    "GET /v1/indicators",
    "GET /v1/indicators/{code}",
    "GET /v1/regions/{code}",
    "GET /v1/observations",
    "POST /v1/signup",
    "POST /v1/keys/revoke",
  ]) {
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
          const r = await sendQuery(v, o, `${p.name}=${JSON.stringify(value.slice(0, 30))}`, [
            ...rest,
            [p.name, value],
          ]);
          if (bad) v.expectStatus(r, 400, "400");
        }
        if (s.type === "integer") {
          for (const value of INTEGER_BAD)
            v.expectStatus(
              await sendQuery(v, o, `${p.name}=${JSON.stringify(value)}`, [...rest, [p.name, value]]),
              400,
              "400 for a non-integer",
            );
          if (typeof s.minimum === "number") {
            v.expectStatus(
              await sendQuery(v, o, `${p.name}=min`, [...rest, [p.name, String(s.minimum)]]),
              (x) => x < 400,
              "the minimum to pass",
            );
            v.expectStatus(
              await sendQuery(v, o, `${p.name}=min-1`, [...rest, [p.name, String(s.minimum - 1)]]),
              400,
              "400 below the minimum",
            );
          }
          if (typeof s.maximum === "number") {
            v.expectStatus(
              await sendQuery(v, o, `${p.name}=max`, [...rest, [p.name, String(s.maximum)]]),
              (x) => x < 400,
              "the maximum to pass",
            );
            v.expectStatus(
              await sendQuery(v, o, `${p.name}=max+1`, [...rest, [p.name, String(s.maximum + 1)]]),
              400,
              "400 above the maximum",
            );
          }
        }
        if (s.type === "boolean") {
          for (const value of BOOLEAN_BAD)
            v.expectStatus(
              await sendQuery(v, o, `${p.name}=${JSON.stringify(value)}`, [...rest, [p.name, value]]),
              400,
              "400 for a non-boolean",
            );
          for (const value of ["true", "false"])
            v.expectStatus(
              await sendQuery(v, o, `${p.name}=${value}`, [...rest, [p.name, value]]),
              (x) => x < 400,
              "a boolean to pass",
            );
        }
        if (s.format === "date") {
          for (const value of DATE_BAD)
            v.expectStatus(
              await sendQuery(v, o, `${p.name}=${value}`, [...rest, [p.name, value]]),
              400,
              "400 for an invalid date",
            );
          v.expectStatus(
            await sendQuery(v, o, `${p.name}=2024-02-29`, [...rest, [p.name, "2024-02-29"]]),
            (x) => x < 400,
            "a leap day to pass",
          );
        }
        if (Array.isArray(s.enum)) {
          const first = String(s.enum[0]);
          for (const value of [first.toUpperCase(), ` ${first}`, `${first},${first}`, "bogus"]) {
            if (s.enum.includes(value)) continue;
            v.expectStatus(
              await sendQuery(v, o, `${p.name}=${JSON.stringify(value)}`, [...rest, [p.name, value]]),
              400,
              "400 for a value outside the enum",
            );
          }
        }
        if (typeof s.maxLength === "number") {
          const at = ofLength(s.example, s.maxLength);
          v.expectStatus(
            await sendQuery(v, o, `${p.name} one past maxLength`, [...rest, [p.name, at + "x"]]),
            400,
            "400 one past maxLength",
          );
        }
        for (const raw of RAW_VALUES)
          await sendQuery(v, o, `${p.name}=<raw ${raw}>`, rest, `${encodeURIComponent(p.name)}=${raw}`);
        // Repeated: a single-valued parameter given twice is a 400 naming it.
        const good = GOOD[p.name] ?? String(s.example ?? s.default ?? s.enum?.[0] ?? "1");
        const twice = await sendQuery(v, o, `${p.name} repeated`, [...rest, [p.name, good], [p.name, good]]);
        if (!isArrayParam(p)) {
          v.expectStatus(twice, 400, "400 for a repeated parameter");
          if (twice.json?.error?.details?.parameter !== p.name)
            v.add(twice.label, `the 400 does not name ${p.name}: ${twice.body.slice(0, 200)}`);
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
        const r = await v.send(
          label(o, `unknown ${JSON.stringify(name.slice(0, 20))}`),
          url(goodPath(o), [...good, [name, "1"]]),
          await init(),
        );
        if (o.path.startsWith("/v1/")) {
          // The spec lists every parameter of the API; an unlisted one is a mistake the caller should hear about.
          v.expectStatus(r, 400, "400 for an unknown parameter");
          v.expectCode(r, "INVALID_PARAMETER");
          if (r.json?.error?.details?.parameter !== name)
            v.add(r.label, `the 400 does not name the parameter: ${r.body.slice(0, 200)}`);
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
    const signup = await v.send("POST /v1/signup?bogus=1", "/v1/signup?bogus=1", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "q@example.com" }),
    });
    v.expectStatus(signup, 400, "400");
    v.expectCode(signup, "INVALID_PARAMETER");
    const key = await testKey(t);
    const rotate = await v.send("POST /v1/keys/rotate?dry_run=true", "/v1/keys/rotate?dry_run=true", {
      method: "POST",
      headers: key.headers,
    });
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
        const r = await v.send(label(o, `path ${value.slice(0, 30)}`), url(path, requiredQuery(o)), {
          method: o.method,
          headers: await headersFor(o),
          op: o,
        });
        if (bad) v.expectStatus(r, 400, "400");
        // Whatever the code names, it never escapes its route: a decoded "/" or ".." is part of the value.
        else if (r.status < 400 && !o.path.startsWith("/checkout"))
          v.add(r.label, `a path trick was served: ${r.status} ${r.body.slice(0, 120)}`);
      }
      // Plain ".." segments are resolved by the URL itself (RFC 3986), before any route sees them: never a 5xx.
      for (const raw of ["..", "../..", ".", "...", "..;"]) {
        await v.send(label(o, `raw path ${raw}`), o.path.replace(/\{[^}]+\}/, raw), {
          method: o.method,
          headers: await headersFor(o),
          op: o,
        });
      }
      expect(v.list).toEqual([]);
    });
  }
});
