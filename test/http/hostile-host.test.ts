// One base-URL source (src/contract/base-url.ts publicBaseUrl) for every link and message: a hostile Host reached 402
// bodies when PUBLIC_BASE_URL was unset ("Free API keys: POST http://evil.example.com/v1/signup", details.api_key),
// because the admission core fell back to the request's origin. Every route of the app, every method it answers,
// anonymous, with a key and with a bad key, is sent Host: evil.example.com (and the forwarding headers a proxy might
// pass on), and no body or header of any answer names it.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { testKey } from "../support/keys";
import { makePaymentsApp } from "../support/payments";

setDefaultTimeout(120_000);

const EVIL = "evil.example.com";
let t: Awaited<ReturnType<typeof makePaymentsApp>>;
let key: string;
beforeAll(async () => {
  t = await makePaymentsApp({
    testRoute: false,
    publicBaseUrl: null,
    config: { publicBaseUrl: null },
    x402: {
      networks: [{ network: "eip155:84532", payTo: "0x4374713F62239c69e6912a4D7235B2a365397004", rpcUrl: null }],
      settlement: { mode: "facilitator", url: "http://127.0.0.1:9" },
    },
  });
  ({ key } = await testKey(t, { plan: "professional" }));
});
afterAll(() => t?.close());

/** Every (method, path) the app routes, path parameters filled in; paid routes by their priced example. */
function targets(): { method: string; path: string }[] {
  const examples = new Map(t.app.registry.paidRoutes().map((r) => [`${r.method} ${r.path}`, r.example!]));
  const seen = new Set<string>();
  const out: { method: string; path: string }[] = [];
  for (const r of t.app.routes) {
    if (r.method === "ALL" || r.path.includes("*")) continue;
    const id = `${r.method} ${r.path}`;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push({
      method: r.method,
      path:
        examples.get(id) ??
        r.path.replace(/:([A-Za-z0-9_]+)/g, (_, name) =>
          name === "slug" ? "us-labor-market" : name === "plan" ? "developer" : "US",
        ),
    });
  }
  return out;
}

describe(`Host: ${EVIL}, PUBLIC_BASE_URL unset`, () => {
  test("no answer of any route names the request's host, in its body or any header", async () => {
    const all = targets();
    expect(all.length).toBeGreaterThan(30);
    const credentials: Record<string, string>[] = [
      {},
      { "x-api-key": key },
      { authorization: "Bearer svc_live_not-a-real-key" },
      { authorization: `Token ${key}` },
    ];
    const leaks: string[] = [];
    let answers = 0;
    for (const { method, path } of [...all, { method: "GET", path: "/no/such/route" }]) {
      for (const credential of credentials) {
        const headers = {
          host: EVIL,
          "x-forwarded-host": EVIL,
          forwarded: `host=${EVIL};proto=https`,
          origin: `https://${EVIL}`,
          accept: "*/*",
          ...credential,
        };
        const body = method === "GET" || method === "HEAD" ? undefined : JSON.stringify({ email: "ada@example.com" });
        const res = await t.app.request(`http://${EVIL}${path}`, {
          method,
          headers: body ? { ...headers, "content-type": "application/json" } : headers,
          body,
        });
        answers++;
        const text = await res.text();
        if (text.includes("evil.example"))
          leaks.push(
            `${method} ${path} ${res.status} body: ${text.slice(Math.max(0, text.indexOf("evil.example") - 80), text.indexOf("evil.example") + 40)}`,
          );
        for (const [name, value] of res.headers)
          if (value.includes("evil.example"))
            leaks.push(`${method} ${path} ${res.status} header ${name}: ${value.slice(0, 200)}`);
      }
    }
    expect(leaks).toEqual([]);
    expect(answers).toBeGreaterThan(120);
  });

  test("the 402 names the local base instead: its sign-up hint and the payment resource", async () => {
    const res = await t.app.request(`http://${EVIL}/v1/observations?indicator=PAYEMS&region=US`, {
      headers: { host: EVIL },
    });
    expect(res.status).toBe(402);
    const body = (await res.json()) as any;
    expect(body.error.message).toContain("http://localhost/v1/signup");
    expect(body.resource.url).toBe("http://localhost/v1/observations?indicator=PAYEMS&region=US");
  });
});
