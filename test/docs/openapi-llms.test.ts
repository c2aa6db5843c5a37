// The llms renderers, plans and the base URL over a small app whose routes are fixed here (test/docs/openapi.test.ts
// covers the contract generator), so prices and plans can be asserted exactly.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { PLANS, checkoutPlanUrls, checkoutUrl, publicPlans } from "../../src/plans";
import { buildOpenApiDocument } from "../../src/docs/openapi";
import { listOperations } from "../../src/contract/operations";
import { renderLlmsFullTxt, renderLlmsTxt } from "../../src/docs/llms";
import { publicBaseUrl } from "../../src/contract/base-url";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

import { BASE, tinyApp } from "./tiny-app";

describe("llms files", () => {
  const doc = buildOpenApiDocument(tinyApp(), BASE, { get_panel: "panel" });
  const compact = renderLlmsTxt(doc, { baseUrl: BASE });
  const full = renderLlmsFullTxt(doc, { baseUrl: BASE });

  test("llms.txt: one line per operation with its summary, absolute URL and price", () => {
    expect(compact.startsWith("# Economic Time-Series API\n\n> ")).toBe(true);
    expect(compact).toContain(
      "- [GET /v1/things](https://api.example.com/v1/things): List things. Free, no credential.",
    );
    expect(compact).toContain(
      "- [GET /v1/things/{id}/observations](https://api.example.com/v1/things/{id}/observations): Thing observations. Paid: 0.01 USD per request (0.05 for derived series), or an API key.",
    );
    expect(compact).toContain(
      "- [GET /v1/ask](https://api.example.com/v1/ask): Ask a question. Paid: 0.25 USD per request (1.50 for ask briefing), or an API key.",
    );
    expect(compact).toContain(
      "- [GET /v1/panel](https://api.example.com/v1/panel): Panel. Paid: 0.05 USD per request, or an API key.",
    );
    expect(compact).toContain("- Ask with `depth=briefing`: 1.50 USD");
    expect(compact).toContain(
      "- Developer: 19.00 USD per month, 100,000 requests/month included, 300 requests/min, overage 0.50 USD per 1,000 (subscribe: https://api.example.com/checkout/developer)",
    );
    expect(compact).toContain("Authorization: L402 <macaroon>:<preimage>");
  });

  test("llms-full.txt: parameters with bounds, defaults and enums; fields; error codes", () => {
    expect(full).toContain("- `limit` (query; integer; optional; 0 to 100; default `50`): Page size");
    expect(full).toContain("- `order` (query; one of `asc`, `desc`; optional; default `desc`)");
    expect(full).toContain("- `q` (query; string; required; 1 to 500 characters)");
    expect(full).toContain("- `id` (path; string; required)");
    expect(full).toContain(
      "- 200 application/json: ok; body ThingList\n  - `data` (array of Thing; required)\n  - `meta` (object; required)\n    - `total` (integer; required)",
    );
    expect(full).toContain(
      "- Errors (body `Error`): 400 INVALID_PARAMETER (Invalid parameter); 401 INVALID_API_KEY or EXPIRED_API_KEY (Missing, malformed, expired or unknown API key); " +
        "402 PAYMENT_REQUIRED (Payment required (x402 and L402 challenges)); 403 CATEGORY_NOT_ALLOWED or REGION_NOT_ALLOWED (The key lacks access to this indicator or region); " +
        "404 RESOURCE_NOT_FOUND (Not found); 429 RATE_LIMIT_EXCEEDED (Rate limit exceeded); 500 INTERNAL_SERVER_ERROR (Server error)",
    );
    expect(full).toContain(
      "### Thing\n\nobject\n- `id` (string (uuid); required)\n- `size` (integer or null; required; at least 0)",
    );
    expect(full).toContain("## Region codes");
    expect(full).toContain("## Catalog categories");
    expect(full).toContain("| `SERVICE_UNAVAILABLE` | 503 |");
    expect(full).toContain(
      "| Professional | 99.00 per month | 1,000,000 requests/month | 1,000 requests/min | 0.25 per 1,000 |",
    );
  });

  test("every operation appears in both files", () => {
    for (const e of listOperations(doc)) {
      expect(compact).toContain(`[${e.method.toUpperCase()} ${e.path}](${BASE}${e.path})`);
      expect(full).toContain(`### ${e.method.toUpperCase()} ${e.path}\n`);
    }
  });
});

describe("plans and base URL", () => {
  test("the spec's plan table", () => {
    expect(publicPlans(BASE)).toEqual([
      {
        id: "free",
        name: "Free",
        price_usd_per_month: "0.00",
        included_requests_per_month: null,
        rate_limit_per_minute: 60,
        overage_usd_per_1000_requests: null,
        checkout: null,
      },
      {
        id: "developer",
        name: "Developer",
        price_usd_per_month: "19.00",
        included_requests_per_month: 100_000,
        rate_limit_per_minute: 300,
        overage_usd_per_1000_requests: "0.50",
        checkout: "https://api.example.com/checkout/developer",
      },
      {
        id: "professional",
        name: "Professional",
        price_usd_per_month: "99.00",
        included_requests_per_month: 1_000_000,
        rate_limit_per_minute: 1_000,
        overage_usd_per_1000_requests: "0.25",
        checkout: "https://api.example.com/checkout/professional",
      },
    ]);
    expect(PLANS.free.rateLimitPerMinute).toBe(60);
    expect(checkoutUrl(BASE)).toBe("https://api.example.com/checkout");
    expect(checkoutPlanUrls(BASE)).toEqual({
      developer: "https://api.example.com/checkout/developer",
      professional: "https://api.example.com/checkout/professional",
    });
  });

  test("PUBLIC_BASE_URL wins over the request; without it only a loopback origin is used, any other Host (a 10 KB one too) gives http://localhost", () => {
    expect(publicBaseUrl({ publicBaseUrl: "https://api.example.com" }, "http://10.0.0.5:3000/x?y=1")).toBe(
      "https://api.example.com",
    );
    expect(publicBaseUrl({ publicBaseUrl: "https://example.com/api/" }, "http://10.0.0.5:3000/")).toBe(
      "https://example.com/api",
    );
    expect(publicBaseUrl({ publicBaseUrl: null }, "http://10.0.0.5:3000/x?y=1")).toBe("http://localhost");
    expect(publicBaseUrl({ publicBaseUrl: null }, "http://127.0.0.1:3000/x?y=1")).toBe("http://127.0.0.1:3000");
    expect(publicBaseUrl({ publicBaseUrl: null }, `http://${"a".repeat(10_000)}.example/`)).toBe("http://localhost");
  });
});
