// A missing or malformed Host header (faults issue, item 5): Bun builds the request URL from the Host header and hands
// over a bare path ("/v1/sources") or an unparseable URL when it is missing or not a host. Every later step parses
// that URL; before the fix, app.onError did too, threw inside the error handler, and the runtime answered 500 with
// its development error page (working directory, file paths, source lines). Now such a request is a 400 envelope,
// before anything else runs. The server here runs with development mode ON, the worst case: the page must not
// appear even then (svc serve runs with it off).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { connect } from "node:net";
import { SERVE_LIMITS } from "../../src/http/request-guard";
import { makeTestApp, type TestApp } from "../support/app";

setDefaultTimeout(60_000);

let t: TestApp;
let server: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  t = await makeTestApp();
  server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: t.app.fetch, development: true, ...SERVE_LIMITS });
});
afterAll(async () => {
  server.stop(true);
  await t.close();
});

/** Sends `head` as the raw request head and returns the status and the body of the answer. */
function raw(head: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port!, "127.0.0.1", () => socket.write(`${head}\r\n\r\n`));
    let text = "";
    socket.on("data", (d) => (text += d));
    socket.on("error", reject);
    socket.on("close", () => {
      const [headers = "", body = ""] = text.split("\r\n\r\n");
      resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(headers)?.[1] ?? 0), headers, body });
    });
  });
}

describe("Host header", () => {
  const bad: [string, string][] = [
    ["a space in the host", "GET /v1/sources HTTP/1.1\r\nHost: a b\r\nConnection: close"],
    ["HTTP/1.0 with an empty Host", "GET /v1/sources HTTP/1.0\r\nHost:"],
    ["HTTP/1.0 without Host", "GET /v1/sources HTTP/1.0"],
    ["an unclosed IPv6 literal", "GET /v1/sources HTTP/1.1\r\nHost: [::1\r\nConnection: close"],
    ["a port out of range", "GET /v1/observations?indicator=PAYEMS&region=US HTTP/1.1\r\nHost: a:99999\r\nConnection: close"],
    ["a percent-escape in the host", "GET /api/health HTTP/1.1\r\nHost: a%20b\r\nConnection: close"],
  ];
  for (const [name, head] of bad) {
    test(`${name}: 400 with the envelope, no error page`, async () => {
      const res = await raw(head);
      expect(res.status).toBe(400);
      expect(res.headers.toLowerCase()).toContain("content-type: application/json");
      expect(res.headers.toLowerCase()).toMatch(/x-request-id: [0-9a-f-]{36}/);
      expect(JSON.parse(res.body)).toEqual({
        error: { code: "INVALID_PARAMETER", message: "The Host header is missing or is not a valid host name: send 'Host: <name>[:port]'.", details: { in: "header", parameter: "host" } },
      });
      expect(res.body).not.toContain(process.cwd());
    });
  }

  test("a valid Host, before and after bad ones, is served", async () => {
    expect((await raw("GET /v1/sources HTTP/1.1\r\nHost: example.org\r\nConnection: close")).status).toBe(200);
    expect((await raw("GET /v1/sources HTTP/1.1\r\nHost: a b\r\nConnection: close")).status).toBe(400);
    expect((await raw("GET /v1/sources HTTP/1.1\r\nHost: example.org\r\nConnection: close")).status).toBe(200);
    expect((await raw("GET /v1/sources HTTP/1.1\r\nHost: [::1]:8080\r\nConnection: close")).status).toBe(200);
  });
});

// Before the fix, a 10 KB Host was reflected in the index's links, and the runtime's own refusals came with empty bodies.
describe("long headers and bodies (with the server's runtime limits)", () => {
  test("a 10 KB Host is answered and never reflected", async () => {
    const host = `${"h".repeat(10_000)}.example`;
    for (const path of ["/", "/openapi.json"]) {
      const res = await raw(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close`);
      expect(res.status).toBe(200);
      expect(res.headers + res.body).not.toContain("hhhhhhhhhh");
    }
  });

  test("a declared 200 MB body: 413 with the envelope from the app (the runtime's own 413 had an empty body)", async () => {
    const res = await raw("POST /v1/signup HTTP/1.1\r\nHost: example.org\r\nContent-Type: application/json\r\nContent-Length: 200000000\r\nConnection: close");
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({ error: { code: "PAYLOAD_TOO_LARGE", message: "The request body exceeds 1048576 bytes.", details: { max_bytes: 1048576 } } });
  });

  test("headers over the runtime's 16 KB: its own 431 (empty body, README says so), and the server goes on", async () => {
    const res = await raw(`GET /v1/sources HTTP/1.1\r\nHost: example.org\r\nX-Big: ${"a".repeat(70_000)}\r\nConnection: close`);
    expect(res.status).toBe(431);
    expect((await raw("GET /v1/sources HTTP/1.1\r\nHost: example.org\r\nConnection: close")).status).toBe(200);
  });
});

// A lowercase method got no answer at all. Bun's HTTP parser takes only the methods of its table, in capitals
// (oven-sh/bun#6556): anything else never reaches the app, so the connection is closed at once with nothing sent
// (README "Faults and abuse" says so), and the server goes on. A method the runtime knows but the route does not serve
// is the app's 405 with Allow.
describe("methods", () => {
  test("lowercase or unknown: the runtime closes the connection at once, with no answer; the server goes on", async () => {
    for (const method of ["get", "Get", "BREW"]) {
      const t0 = performance.now();
      const res = await raw(`${method} /v1/sources HTTP/1.1\r\nHost: example.org\r\nConnection: close`);
      expect({ method, status: res.status, headers: res.headers }).toEqual({ method, status: 0, headers: "" });
      expect(performance.now() - t0).toBeLessThan(2_000);
    }
    expect((await raw("GET /v1/sources HTTP/1.1\r\nHost: example.org\r\nConnection: close")).status).toBe(200);
  });

  test("a known method the route does not serve: 405 with Allow and the envelope", async () => {
    for (const method of ["PATCH", "TRACE", "PUT"]) {
      const res = await raw(`${method} /v1/sources HTTP/1.1\r\nHost: example.org\r\nContent-Length: 0\r\nConnection: close`);
      expect({ method, status: res.status }).toEqual({ method, status: 405 });
      expect(res.headers).toContain("Allow: GET, HEAD, OPTIONS");
      expect(JSON.parse(res.body).error.code).toBe("METHOD_NOT_ALLOWED");
    }
  });
});
