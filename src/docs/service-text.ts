// Prose shared by the OpenAPI description, llms.txt and llms-full.txt, so each fact is written once.
// Prices and plans are never written here: they are rendered from src/pricing.ts and src/plans.ts.
import type { PriceKey, PriceList } from "../pricing";
import { PLAN_IDS, publicPlans } from "../plans";
import { MAX_BODY_BYTES } from "../http/request-guard";

export const SERVICE_SUMMARY =
  "Economic time series (indicators) by region: countries, US states and counties. The catalog (sources, regions, " +
  "indicators) is free and anonymous; the data endpoints are paid per request (x402 or L402) or covered by an API " +
  "key's plan.";

export const DATA_PARAGRAPH =
  "Where the data come from: the agencies that publish them (BLS, BEA, the Federal Reserve via FRED, the Census " +
  "Bureau, the World Bank and others). Each source in `GET /v1/sources` carries the attribution it asks for and its " +
  'licence (US-government data are public domain; World Bank data are CC BY 4.0: cite "Source: World Bank, World ' +
  'Development Indicators"). A fresh install ships a real snapshot: the FRED national series, BLS LAUS state and ' +
  "county unemployment, QCEW employment and wages, Census population estimates with components of change, World " +
  "Bank series by country, and migration flows; what each source holds and how recent it is follows, read from the " +
  "catalog. How fresh each indicator is: its `coverage` in `GET /v1/indicators` and " +
  "`GET /v1/indicators/{code}` (regions held, first and last date held, when it last changed, and what happens for " +
  "regions not held); `GET /v1/indicators?has_data=true` lists only what is held.";

export const FRED_PARAGRAPH =
  "FRED client code works here by changing its base URL from `https://api.stlouisfed.org/fred/` to this host's `/fred/`: " +
  "`/fred/series/observations`, `/fred/series`, `/fred/series/search` and `/fred/series/vintagedates` take FRED's " +
  "parameters and answer FRED's JSON or XML documents and error shape. Pass this service's key as `api_key` (a secret, " +
  "never echoed); without one, observations answer 402 with the x402 and L402 challenges. Series ids are FRED's " +
  "(`UNRATE`, `CPIAUCSL`), `<USPS>UR` for state unemployment rates (`TXUR`), and what `/fred/series/search` lists for " +
  "the rest. The real-time parameters and output types 2 to 4 read the stored vintages.";

export const AUTH_PARAGRAPH =
  "Catalog endpoints need no credential. Paid endpoints accept an API key, either as `Authorization: Bearer <key>` or as " +
  "`X-API-Key: <key>` (keys start with `svc_live_` or `svc_test_`; a free key comes from `POST /v1/signup` and is shown " +
  "once), or a per-request payment without any account: x402 (call without a key, read the x402 version 2 `accepts` " +
  "requirements from the 402 response, pay one and retry with `X-PAYMENT: <payload>`) or L402 (the same 402 carries " +
  "`WWW-Authenticate: L402 macaroon=<macaroon>, invoice=<invoice>`; pay the Lightning invoice and retry the identical request " +
  "with `Authorization: L402 <macaroon>:<preimage>`; the macaroon is bound to the requested indicator and expires after " +
  "10 minutes). A missing, malformed, expired or unknown key is a 401; a key without premium access to an indicator is " +
  "a 403 `CATEGORY_NOT_ALLOWED`. Nothing is charged for a 404, a 202 (series being provisioned) or any other error.";

export const ERROR_PARAGRAPH =
  'Every error body is `{ "error": { "code", "message", "details"? } }`. Successful bodies are `{ data, meta }` ' +
  "unless an endpoint says otherwise. Every response carries an `X-Request-Id` header (quote it when reporting a problem). " +
  "On `/v1` a query parameter an operation does not list, or a parameter given twice, is a 400 `INVALID_PARAMETER` naming it; " +
  `a known path called with another method is a 405 with \`Allow\`; request bodies are limited to ${MAX_BODY_BYTES / 1024 / 1024} MiB (413).`;

/** What each key of the price list means (spec "Per-request prices"); typed so a new surface needs a label. */
export const PRICE_LABELS: Record<PriceKey, string> = {
  observations: "Standard observations",
  latest: "Standard latest observation",
  insights: "Standard insights",
  derived_series: "`svc:*` derived series, instead of the standard price",
  latest_batch: "Batch latest (`indicators=`), up to 20 codes, flat",
  flows: "Flows",
  panel: "Panel",
  signals: "Signals (active and history)",
  ask: "Ask, covered question",
  ask_briefing: "Ask with `depth=briefing`",
  briefing_read: "Public briefing read",
  catalog: "Catalog (sources, regions, indicators)",
};

/** Markdown table of the published per-request prices (publishedPriceList). */
export function priceTableMarkdown(prices: PriceList): string {
  const rows = Object.entries(prices).map(
    ([k, usd]) => `| ${PRICE_LABELS[k as keyof typeof PRICE_LABELS]} | \`${k}\` | ${usd} |`,
  );
  return (
    ["| Surface | Key | USD per request |", "|---|---|---|", ...rows].join("\n") +
    "\n\nA concept code costs what its resolved series costs. Lightning converts the USD price to sats at the current rate."
  );
}

/** Markdown table of plans. */
export function planTableMarkdown(baseUrl: string): string {
  const rows = publicPlans(baseUrl).map(
    (p) =>
      `| ${p.name} | ${p.price_usd_per_month} per month | ${p.included_requests_per_month === null ? "no monthly quota" : `${p.included_requests_per_month.toLocaleString("en-US")} requests/month`} | ${p.rate_limit_per_minute.toLocaleString("en-US")} requests/min | ${p.overage_usd_per_1000_requests === null ? "none" : `${p.overage_usd_per_1000_requests} per 1,000`} |`,
  );
  return (
    ["| Plan | Price (USD) | Included | Rate limit | Overage (USD) |", "|---|---|---|---|---|", ...rows].join("\n") +
    `\n\nA key holder calls every paid endpoint within the plan's allowance without per-request payment. ` +
    `Plans: ${PLAN_IDS.join(", ")}.`
  );
}

export const REGION_CONVENTIONS =
  "Canonical region codes: countries use ISO 3166-1 alpha-2 (`US`, `DE`), US states and DC the 2-digit FIPS code " +
  "(`06` = California), counties the 5-digit FIPS code (`06037` = Los Angeles County; Census vintage 2024). " +
  "A county's `parent_code` is its state, a state's is `US`. Region inputs also accept what people type: USPS " +
  "abbreviations (`NY`, `ca`), `US-CA`, ISO alpha-3 (`CAN`) and numeric codes, names and slugs (`los-angeles-county-ca`). " +
  "A canonical code always means itself, so codes read back from responses round-trip: `DE` is Germany and `CA` Canada " +
  "wherever countries are offered; where the indicator is offered only for states and counties, `CA` is California. " +
  "Ambiguous names answer 400 listing the candidates. Responses always carry the canonical code.";

export const VALUES_PARAGRAPH =
  "What an indicator's values are: `values` in `GET /v1/indicators/{code}` says whether they are a `level` (an amount), " +
  "an `index`, a `rate` (a rate, share or spread), a `change` already computed over `span_months` (the World Bank's " +
  "annual GDP growth and inflation, Census population change and net migration) or a `binary` 0/1 state (the NBER " +
  "recession indicator). A percent change (`transform=yoy`, `mom`, `qoq`) means something only for a level or an " +
  "index: a rate moves in percentage points, and a change is already the growth. `GET /v1/ask`, insights and the " +
  "landing page choose their arithmetic from it.";
