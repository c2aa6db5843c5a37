// The landing page a browser gets at `/` (API clients get the JSON index; src/routes/discovery.ts negotiates). It is
// rendered from the same ServiceIndex object the JSON is, so links, prices and plans cannot differ between the two,
// and from LandingFacts (src/docs/landing-data.ts) for what comes from the database. Self-contained: inline CSS and
// icon, no script, no request beyond this server.
import type { ServiceIndex } from "../schemas/discovery";
import { MCP_TOOL_NAMES } from "../contract/mcp";
import { planUnavailableNotice } from "./keys-page";
import { ICON_SVG } from "./favicon";
import { html, trusted, type Markup } from "./html";
import { LANDING_CSS } from "./landing-style";
import type { Logger } from "../logger";
import type { ReadContext } from "../services/series-read";
import { CARD_CHART, LANDING_EXAMPLES, landingFacts, type LandingExample, type LandingFacts } from "./landing-data";
import { PRICE_LABELS } from "./service-text";

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

const REGION_KINDS: readonly { type: string; label: string }[] = [
  { type: "country", label: "countries" },
  { type: "state", label: "US states and DC" },
  { type: "county", label: "US counties" },
];

const count = (n: number) => n.toLocaleString("en-US");

function formatValue(v: number, decimals?: number): string {
  return decimals === undefined
    ? v.toLocaleString("en-US", { maximumFractionDigits: 6 })
    : v.toLocaleString("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

/** The period an observation stands for, as a reader says it ("December 2015", "2015 Q4", "2005"). */
function formatPeriod(start: string, periodType: string | null): string {
  const [y, m] = start.split("-");
  if (periodType === "annual") return y;
  if (periodType === "quarterly") return `${y} Q${Math.floor((Number(m) - 1) / 3) + 1}`;
  if (periodType === "monthly") return `${MONTHS[Number(m) - 1]} ${y}`;
  return start;
}

/** Text with `backtick` spans (as the price labels are written for Markdown) as HTML with <code>. */
function withCode(text: string): Markup {
  return html`${text.split("`").map((part, k) => (k % 2 === 1 ? html`<code>${part}</code>` : part))}`;
}

/** The card's chart (GET /v1/chart's SVG as a data: URI), described for screen readers by its own <desc>. */
function chartImage(e: LandingExample): Markup | null {
  return e.chart
    ? html`<img class="chart" src="${e.chart.uri}" alt="${e.chart.alt}" width="${CARD_CHART.width}" height="${CARD_CHART.height}">`
    : null;
}

const PERIOD_WORD: Record<string, string> = {
  daily: "days",
  weekly: "weeks",
  monthly: "months",
  quarterly: "quarters",
  annual: "years",
};

function exampleCard(e: LandingExample): Markup {
  const l = e.latest;
  // Staleness is never passed off as news: a series behind schedule for its cadence says so (src/domain/freshness.ts).
  const f = e.body.meta.freshness;
  const unit = f ? PERIOD_WORD[f.cadence] : "";
  const stale = f?.stale
    ? html`<p class="stale">Behind schedule: ${f.periods_behind} ${unit} old, for a ${f.cadence} series (at most ${f.max_periods_behind} ${unit} expected)</p>`
    : null;
  return html`<article class="card" data-example data-path="${e.path}" data-indicator="${l.indicator}" data-region="${l.region}" data-value="${l.value}" data-stale="${f ? String(f.stale) : ""}">
<p class="where">${e.regionType} · ${e.regionLabel}</p>
<p class="what"${e.fullName !== e.name ? html` title="${e.fullName}"` : ""}>${e.name}</p>
<div class="reading"><p class="value">${formatValue(l.value, e.decimals)}</p>
<p class="unit">${l.unit ?? ""}${l.unit ? " · " : ""}${formatPeriod(l.period_start, l.period_type)}</p>
${stale}</div>
${chartImage(e)}
<p class="meta"><code>GET ${breakablePath(e.path)}</code>${e.source ? html`Source: ${e.source}` : null}</p>
</article>`;
}

/** A request path with break opportunities before its query parts, so a narrow card wraps it where a reader would. */
function breakablePath(path: string): Markup {
  return html`${path.split(/(?=[?&])/).map((part, k) => html`${k ? trusted("<wbr>") : ""}${part}`)}`;
}

function liveSection(index: ServiceIndex, base: string, examples: LandingExample[]): Markup {
  const first = examples[0];
  const exchange = first
    ? html`<div class="exchange">
<div class="explain">
<h3>Ask for it yourself</h3>
<p>The first card is this request's answer, read the same way the API reads it. It costs <strong>$${index.pricing.per_request.latest}</strong> paid per request, or one request of a plan's allowance.</p>
<p><code>GET /v1/observations</code> returns a series' history, with transforms (year-on-year, month-on-month, quarter-on-quarter, rebased, log) and resampling to coarser periods.</p>
</div>
<div class="panel"><h3>Request</h3><pre>curl '${base}${first.path}' \\
  -H 'Authorization: Bearer &lt;your key&gt;'</pre><h3>Response</h3><pre data-response>${JSON.stringify(first.body, null, 2)}</pre></div>
</div>`
    : null;
  return html`<section id="live">
<h2>Live from this server</h2>
<p class="sub">${examples.length ? html`Latest values, read a moment ago through the same services that answer the request under each card.` : "Live examples appear here once this server holds data."}</p>
<div class="cards">${examples.map(exampleCard)}</div>
${exchange}
</section>`;
}

function startSection(index: ServiceIndex, base: string, examples: LandingExample[]): Markup {
  const free = index.pricing.plans.find((p) => p.id === "free");
  const pick = examples[0]?.latest ?? LANDING_EXAMPLES[0];
  const read = `/v1/observations?${new URLSearchParams({ indicator: pick.indicator, region: pick.region, limit: "12" })}`;
  return html`<section id="start">
<h2>Start in a minute</h2>
<p class="sub">Everything below works with <code>curl</code>. The <a href="${index.docs}">reference</a> lists every parameter.</p>
<ol class="steps">
<li><div><h3>Browse the catalog</h3><p>Sources, regions and indicators are free and need no key.</p></div><pre>curl '${base}/v1/indicators?search=unemployment'</pre></li>
<li id="free-key"><div><h3>Get a free key</h3><p>Shown once, by <code>POST /v1/signup</code>${free ? html`; the Free plan allows ${count(free.rate_limit_per_minute)} requests a minute` : ""}. Or <a href="${base}/keys">in the browser</a>.</p></div><pre>curl -X POST '${base}/v1/signup' \\
  -H 'Content-Type: application/json' \\
  -d '{"email":"you@example.com"}'</pre></li>
<li><div><h3>Read the data</h3><p>Send the key as a bearer token or as <code>X-API-Key</code>.</p></div><pre>curl '${base}${read}' \\
  -H 'X-API-Key: &lt;your key&gt;'</pre></li>
</ol>
</section>`;
}

function planCard(
  plan: ServiceIndex["pricing"]["plans"][number],
  featured: boolean,
  keysPage: string,
  available: boolean,
): Markup {
  const included =
    plan.included_requests_per_month === null
      ? "No monthly quota"
      : html`<strong>${count(plan.included_requests_per_month)}</strong> requests a month`;
  const overage =
    plan.overage_usd_per_1000_requests === null
      ? "No overage"
      : html`<strong>$${plan.overage_usd_per_1000_requests}</strong> per 1,000 beyond`;
  // A plan this server cannot sell says so, as /keys does, rather than leading to a checkout that cannot start.
  const action = !plan.checkout
    ? html`<a class="btn" href="${keysPage}">Get a free key</a>`
    : available
      ? html`<a class="btn" href="${plan.checkout}">Subscribe</a>`
      : html`<p class="off">${planUnavailableNotice(plan.name)}</p>`;
  return html`<div class="plan${featured ? " featured" : ""}" data-plan="${plan.id}">
<h3>${plan.name}</h3>
<p class="price" data-usd="${plan.price_usd_per_month}">$${plan.price_usd_per_month} <span>/ month</span></p>
<ul><li>${included}</li><li><strong>${count(plan.rate_limit_per_minute)}</strong> requests a minute</li><li>${overage}</li></ul>
${action}
</div>`;
}

function pricingSection(index: ServiceIndex, keysPage: string, checkout: Record<string, boolean>): Markup {
  const firstPaid = index.pricing.plans.find((p) => p.checkout !== null)?.id;
  const rows = Object.entries(index.pricing.per_request).map(
    ([surface, usd]) =>
      html`<tr data-surface="${surface}"><td>${withCode(PRICE_LABELS[surface as keyof typeof PRICE_LABELS] ?? surface)}</td><td class="usd">$${usd}</td></tr>`,
  );
  return html`<section id="pricing">
<h2>Plans</h2>
<p class="sub">An API key covers every paid endpoint within its plan's allowance. <a href="${keysPage}#plans">Compare and subscribe</a>.</p>
<div class="plans">${index.pricing.plans.map((p) => planCard(p, p.id === firstPaid, keysPage, checkout[p.id] ?? false))}</div>
<div class="split">
<div class="rails">
<h2>Or pay per request</h2>
<p>No account and no key: call a paid endpoint, and its <code>402</code> answer offers two ways to pay for that one request.</p>
<h3>x402</h3>
<p>Read the <code>accepts</code> requirements from the 402 body, pay one, and retry with <code>X-PAYMENT: &lt;payload&gt;</code>.</p>
<h3>L402 (Lightning)</h3>
<p>The same 402 carries <code>WWW-Authenticate: L402 macaroon=…, invoice=…</code>. Pay the invoice and retry with <code>Authorization: L402 &lt;macaroon&gt;:&lt;preimage&gt;</code>.</p>
<p>Nothing is charged for a 404, a 202 (a series still being fetched) or any other error.</p>
</div>
<table>
<thead><tr><th>Per request</th><th class="usd">${index.pricing.currency}</th></tr></thead>
<tbody>${rows}</tbody>
</table>
</div>
</section>`;
}

function agentsSection(index: ServiceIndex): Markup {
  return html`<section id="agents">
<h2>For agents</h2>
<p class="sub">Machine-readable descriptions of everything on this page, generated from the same contract.</p>
<div class="agents">
<div><h3>MCP</h3><p>Streamable HTTP, stateless JSON-RPC. Tools: ${MCP_TOOL_NAMES.map((t, k) => html`${k ? ", " : ""}<code>${t}</code>`)}. Catalog tools are free; data tools use the key sent with the request, or name their price and take an x402 payment in the call.</p><a class="url" href="${index.mcp}">${index.mcp}</a></div>
<div><h3>llms.txt</h3><p>What the service is, how to pay, prices and one line per endpoint; the full file has every parameter and field.</p><a class="url" href="${index.llms}">${index.llms}</a><a class="url" href="${index.llms_full}">${index.llms_full}</a></div>
<div><h3>OpenAPI 3.1</h3><p>The contract, with prices on paid operations (<code>x-price-usd</code>); the <a href="${index.docs}">reference</a> renders it.</p><a class="url" href="${index.openapi}">${index.openapi}</a></div>
</div>
</section>`;
}

function stats(facts: LandingFacts): Markup | null {
  if (!facts.regions) return null;
  const regions = facts.regions;
  const items: [number, string][] = REGION_KINDS.filter((k) => regions[k.type]).map((k) => [regions[k.type], k.label]);
  if (facts.indicators) items.push([facts.indicators, "indicators"]);
  if (facts.sources) items.push([facts.sources, "sources"]);
  return html`<dl class="stats">${items.map(([n, label]) => html`<div><dt>${count(n)}</dt><dd>${label}</dd></div>`)}</dl>`;
}

/** The page for this index, with the database's current numbers. `checkout`: which paid plans can be bought here. */
export async function landingPage(
  ctx: ReadContext,
  logger: Logger,
  index: ServiceIndex,
  base: string,
  checkout: Record<string, boolean>,
): Promise<string> {
  return renderLandingPage(index, base, await landingFacts(ctx, logger), checkout);
}

/** The whole page. `base` is the public base URL the index's links use. */
export function renderLandingPage(
  index: ServiceIndex,
  base: string,
  facts: LandingFacts,
  checkout: Record<string, boolean>,
): string {
  const icon = trusted(ICON_SVG);
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${index.name}</title>
<meta name="description" content="Economic time series by region: countries, US states and counties. Free catalog; data by API key or per-request x402 and L402 payments; MCP for agents.">
<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,${encodeURIComponent(ICON_SVG)}">
<link rel="icon" href="${base}/favicon.ico" sizes="16x16 32x32">
<link rel="service-desc" type="application/json" href="${index.openapi}">
<link rel="service-doc" type="text/html" href="${index.docs}">
<style>${trusted(LANDING_CSS)}</style>
</head>
<body>
<header class="top"><div class="wrap bar">
<a class="brand" href="${base}/">${icon}<span>${index.name}</span></a>
<nav><a href="${index.docs}">Docs</a><a href="${index.openapi}">OpenAPI</a><a href="${index.llms}">llms.txt</a><a href="#agents">MCP</a><a href="#pricing">Pricing</a><a href="${index.changelog}">Changelog</a></nav>
</div></header>
<section class="hero"><div class="wrap">
<p class="eyebrow">Economic time series by region</p>
<h1>Economic data for countries, US states and every US county.</h1>
<p class="lede">Employment, output, prices, population, energy and health, by region, through one API. The catalog is free; read the data with an API key, or pay per request with x402 or L402 and no account. Agents connect over MCP.</p>
<div class="cta"><a class="btn primary" href="${index.docs}">Read the docs</a><a class="btn" href="${base}/keys">Get a free key</a><a class="btn" href="#agents">Connect an agent</a></div>
${stats(facts)}
</div></section>
<main class="wrap">
${liveSection(index, base, facts.examples)}
${startSection(index, base, facts.examples)}
${pricingSection(index, `${base}/keys`, checkout)}
${agentsSection(index)}
</main>
<footer><div class="wrap">
<span>${index.name} ${index.version} · contract ${index.contract_version} · API clients get this index as JSON (<code>Accept: application/json</code>).</span>
<nav><a href="${index.docs}">Docs</a><a href="${index.openapi}">OpenAPI</a><a href="${index.llms}">llms.txt</a><a href="${index.llms_full}">llms-full.txt</a><a href="${index.changelog}">Changelog</a><a href="${index.health}">Health</a></nav>
</div></footer>
</body>
</html>
`;
  return page.value;
}
