// The smaller findings of the third abuse round, each with its answer:
// - a malformed percent-escape in a query (before: /v1/ask dropped the rest of the question and answered, and charged,
//   for the United States) is a 400 naming the parameter, before any price is asked;
// - every HTML page has a Content-Security-Policy with frame-ancestors 'none', nosniff and X-Frame-Options (before:
//   only /keys); every answer has nosniff;
// - a 404 or 405 repeats the request path percent-encoded past the characters of a plain path, at most 200 of them
//   (before: the path as sent, quotes and parentheses included, at any length);
// - a key sent under another Authorization scheme ("Token KEY") is a 401 naming the scheme (before: an anonymous 402).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { testKey } from "../support/keys";
import { makePaymentsApp } from "../support/payments";

setDefaultTimeout(120_000);

let t: Awaited<ReturnType<typeof makePaymentsApp>>;
let key: string;
beforeAll(async () => {
  t = await makePaymentsApp({ testRoute: false });
  ({ key } = await testKey(t, { plan: "professional" }));
});
afterAll(() => t?.close());

describe("a malformed percent-escape in the query", () => {
  test("/v1/ask: 400 naming q, not a 402 for a question cut short", async () => {
    for (const q of ["What%20is%20unemployment%in%20Texas%3F", "jobs%2", "jobs%E0%A4%A"]) {
      const res = await t.request(`/v1/ask?q=${q}`);
      expect(res.status).toBe(400);
      expect(res.headers.get("payment-required")).toBeNull();
      const error = ((await res.json()) as any).error;
      expect(error).toEqual({
        code: "INVALID_PARAMETER",
        message: `Invalid parameter "q": a malformed percent-escape (each '%' starts two hex digits of UTF-8; send '%25' for a literal '%').`,
        details: { parameter: "q", in: "query" },
      });
    }
  });
  test("any route, the parameter named (a malformed name is named as sent); a well-formed escape, '%25' included, passes", async () => {
    const bad = await t.request("/v1/observations?indicator=PAYEMS&region=US%G1");
    expect(((await bad.json()) as any).error.details).toEqual({ parameter: "region", in: "query" });
    const name = await t.request("/v1/indicators?sea%rch=gdp");
    expect(((await name.json()) as any).error.details).toEqual({ parameter: "sea%rch", in: "query" });
    expect((await t.request("/v1/indicators?search=gdp%25")).status).toBe(200);
    expect((await t.request("/v1/indicators?search=g%C3%A9")).status).toBe(200);
  });
});

describe("HTML pages", () => {
  const pages: [string, Record<string, string>][] = [
    ["/", { accept: "text/html" }],
    ["/keys", {}],
    ["/docs", {}],
    ["/checkout/developer", { accept: "text/html" }],
    ["/v1/briefings/public/us-labor-market", { accept: "text/html" }],
  ];
  test("each has a Content-Security-Policy with frame-ancestors 'none', nosniff and X-Frame-Options DENY", async () => {
    for (const [path, headers] of pages) {
      const res = await t.request(path, { headers: { ...headers, "x-api-key": key } });
      await res.arrayBuffer();
      const seen = {
        path,
        type: res.headers.get("content-type")?.split(";")[0],
        nosniff: res.headers.get("x-content-type-options"),
        frames: /frame-ancestors 'none'/.test(res.headers.get("content-security-policy") ?? ""),
      };
      expect(seen).toEqual({ path, type: "text/html", nosniff: "nosniff", frames: true });
      if (path !== "/keys") expect(res.headers.get("x-frame-options")).toBe("DENY");
    }
  });
  test("pages other than /docs and /keys run no script at all: script-src is none (default-src 'none')", async () => {
    const csp = (await t.request("/", { headers: { accept: "text/html" } })).headers.get("content-security-policy")!;
    expect(csp).toStartWith("default-src 'none';");
    expect(csp).not.toContain("script-src");
  });
  test("a JSON answer has nosniff too", async () => {
    expect((await t.request("/v1/sources")).headers.get("x-content-type-options")).toBe("nosniff");
  });
});

describe("404 and 405 repeat the path escaped and bounded", () => {
  test("quotes, parentheses and markup come back percent-encoded", async () => {
    const res = await t.request(`/nope/'"<svg onload=alert(1)>`);
    expect(res.status).toBe(404);
    const text = await res.text();
    expect(text).not.toMatch(/[<>'()]/);
    expect(JSON.parse(text).error.message).toBe("No route for GET /nope/%27%22%3Csvg%20onload%3Dalert%281%29%3E");
  });
  test("a 10,000-character path is cut at 200 characters", async () => {
    const res = await t.request(`/${"a".repeat(10_000)}`);
    expect(((await res.json()) as any).error.message).toBe(`No route for GET /${"a".repeat(199)}…`);
  });
  test("405 likewise", async () => {
    const res = await t.request("/v1/sources", { method: "DELETE" });
    expect(res.status).toBe(405);
    expect(((await res.json()) as any).error.message).toBe("DELETE is not allowed on /v1/sources; use GET, HEAD.");
  });
});

describe("a key under another Authorization scheme", () => {
  test("'Token KEY' is a 401 naming the scheme, on a paid route and on ping, not a 402", async () => {
    for (const path of ["/v1/observations?indicator=PAYEMS&region=US", "/v1/ping"]) {
      const res = await t.request(path, { headers: { authorization: `Token ${key}` } });
      expect(res.status).toBe(401);
      const error = ((await res.json()) as any).error;
      expect(error.code).toBe("INVALID_API_KEY");
      expect(error.message).toStartWith(
        "Malformed API key: the Authorization scheme is 'Token', not 'Bearer'. Send 'Authorization: Bearer <key>' or 'X-API-Key: <key>'",
      );
    }
  });
});
