// A hostile client against every operation of the app's own /openapi.json (test/e2e/hostile-walk.ts): wrong methods,
// malformed and oversized bodies, wrong content types, bad credentials and request ids, and payment headers. Every
// answer must be below 500, carry X-Request-Id, show no stack trace, and (when not 2xx/3xx) be the spec's error
// envelope with the status of its code. Each test collects every violation and asserts the list is empty.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { seedFlows } from "../../db/seed/flows";
import { makePaymentsApp } from "../support/payments";
import { hostileWalk, type Json } from "./hostile-walk";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

// Built at load time: tests are generated per operation from the document the app serves.
const { t, ops, deref, goodPath, templateOf, requiredQuery, url, headersFor, Violations, LONG, UNICODE, label } =
  await hostileWalk();
afterAll(() => t.close());

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
        if (
          ops.some(
            (x) =>
              x.path !== path &&
              (x.method === method || (method === "HEAD" && x.method === "GET")) &&
              templateOf(x.path).test(concrete),
          )
        )
          continue;
        const r = await v.send(`${method} ${path}`, concrete, { method, op: o });
        v.expectStatus(r, 405, "405");
        const allow = (r.res.headers.get("allow") ?? "").split(/,\s*/);
        for (const m of declared) if (!allow.includes(m)) v.add(r.label, `Allow (${allow.join(", ")}) lacks ${m}`);
        if (!o.protocol && method !== "HEAD") v.expectCode(r, "METHOD_NOT_ALLOWED");
      }
      for (const method of declared.filter((m) => m === "GET")) {
        const head = await v.send(`HEAD ${path}`, url(concrete, requiredQuery(o)), {
          method: "HEAD",
          headers: await headersFor(o),
          op: o,
        });
        if (head.body !== "") v.add(head.label, "HEAD answered with a body");
      }
      expect(v.list).toEqual([]);
    });
  }

  test("an unknown path is a 404 envelope, whatever the method", async () => {
    const v = new Violations();
    for (const method of ["GET", "POST", "PUT", "DELETE"]) {
      for (const path of [
        "/v1/nope",
        "/v2/observations",
        "/v1/sources/",
        "//v1/sources",
        "/v1/indicators/PAYEMS/extra",
        "/.env",
        "/%2e%2e/%2e%2e/etc/passwd",
      ]) {
        const r = await v.send(`${method} ${path}`, path, { method });
        v.expectStatus(r, 404, "404");
        v.expectCode(r, "RESOURCE_NOT_FOUND");
      }
    }
    expect(v.list).toEqual([]);
  });
});

describe("request bodies", () => {
  const MALFORMED = [
    "{",
    '{"email":',
    "nul",
    "[",
    '"unterminated',
    "{'email':'a@b.co'}",
    '{"email":"a@b.co",}',
    "\u0000",
    '{"a":1}{"b":2}',
  ];
  const NON_OBJECT = ["null", "[]", "42", '"text"', "true", '[{"email":"a@b.co"}]'];
  const bodyOps = ops.filter((o) => o.method !== "GET" && o.method !== "DELETE");
  for (const o of bodyOps) {
    test(`${o.method} ${o.path}`, async () => {
      const v = new Violations();
      const json =
        (body: string, contentType: string | null = "application/json", extra: Record<string, string> = {}) =>
        async () => ({
          method: o.method,
          headers: await headersFor(o, {
            ...(contentType ? { "content-type": contentType } : {}),
            ...(o.protocol ? { accept: "application/json, text/event-stream" } : {}),
            ...extra,
          }),
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
      for (const ct of [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/xml",
        "application/jsonx",
        null,
      ]) {
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
      const r2 = await v.send(label(o, "2 MiB streamed body"), at, {
        method: o.method,
        headers: await headersFor(o, { "content-type": "application/json" }),
        body: stream,
        op: o,
      });
      v.expectStatus(r2, 413, "413");
      // Deeply nested JSON: parsed or refused, never a crash.
      await v.send(label(o, "nested 100k"), at, await json("[".repeat(100_000) + "]".repeat(100_000))());
      await v.send(
        label(o, "prototype keys"),
        at,
        await json(
          JSON.stringify({
            ...validBody(schema),
            __proto__: { admin: true },
            constructor: { prototype: { admin: true } },
          }),
        )(),
      );

      // Each declared property with the wrong JSON type, too long, or carrying NUL.
      for (const [name, prop] of Object.entries<Json>(schema.properties ?? {})) {
        const p = deref(prop);
        const wrong: unknown[] =
          p.type === "string"
            ? [42, true, [], {}, null]
            : p.type === "boolean"
              ? ["true", 1, [], {}, null]
              : p.type === "integer" || p.type === "number"
                ? ["1", true, [], {}, 1.5e308 * 10]
                : [];
        for (const w of wrong) {
          const r = await v.send(
            label(o, `${name}=${JSON.stringify(w)}`),
            at,
            await json(JSON.stringify({ ...validBody(schema), [name]: w }))(),
          );
          if (!o.protocol) v.expectStatus(r, 400, `400 for ${name} of the wrong type`);
        }
        if (p.type === "string") {
          for (const s of [LONG, "\u0000", "a\u0000b", UNICODE, "", " "]) {
            const r = await v.send(
              label(o, `${name}=${JSON.stringify(s.slice(0, 20))}`),
              at,
              await json(JSON.stringify({ ...validBody(schema), [name]: s }))(),
            );
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
    out[name] =
      p.format === "email"
        ? "walker@example.com"
        : name === "token"
          ? "svcr_notarealtoken"
          : name === "jsonrpc"
            ? "2.0"
            : name === "method"
              ? "tools/list"
              : p.type === "boolean"
                ? false
                : p.type === "integer"
                  ? 1
                  : (p.example ?? "x");
  }
  return out;
}

describe("credentials and request ids on every operation", () => {
  for (const o of ops) {
    test(`${o.method} ${o.path}`, async () => {
      const v = new Violations();
      const at = url(goodPath(o), requiredQuery(o));
      const body: Record<string, string> = o.body ? { "content-type": "application/json" } : {};
      const payload = o.body
        ? JSON.stringify(validBody(deref(o.body.content?.["application/json"]?.schema)))
        : undefined;
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
          const call = JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "tools/call",
            params: { name: "list_sources", arguments: {} },
          });
          const mcp = { ...body, accept: "application/json, text/event-stream", ...headers };
          const r = await v.send(label(o, JSON.stringify(headers).slice(0, 60)), at, {
            method: o.method,
            headers: mcp,
            body: call,
            op: o,
          });
          v.expectStatus(r, 200, "200");
          if (r.json?.result?.isError !== true || r.json.result.structuredContent?.error?.code !== "INVALID_API_KEY")
            v.add(r.label, `expected the tool error INVALID_API_KEY, got ${r.body.slice(0, 200)}`);
          continue;
        }
        const r = await v.send(label(o, JSON.stringify(headers).slice(0, 60)), at, {
          method: o.method,
          headers: { ...body, ...headers },
          body: payload,
          op: o,
        });
        v.expectStatus(r, 401, "401");
      }
      for (const id of ["<script>alert(1)</script>", "a".repeat(10_000), "short", "ok-request-id-1234"]) {
        const r = await v.send(label(o, `x-request-id ${id.slice(0, 20)}`), at, {
          method: o.method,
          headers: { ...body, ...(await headersFor(o)), "x-request-id": id },
          body: payload,
          op: o,
        });
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
      x402: {
        networks: [{ network: "eip155:84532", payTo: "0x4374713F62239c69e6912a4D7235B2a365397004", rpcUrl: null }],
        settlement: { mode: "facilitator", url: "http://127.0.0.1:9" },
      },
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
        {
          "x-payment": b64({
            x402Version: 2,
            payload: { authorization: { from: "0x0", value: "-1" }, signature: "0x" },
            accepted: { scheme: "exact", network: "eip155:84532" },
          }),
        },
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
