// The self-service page at /keys: get a free key (shown once, with a copy button and a first request), see a key's
// plan, limits and usage this month, rotate it, and the plans with their checkout (or, when card payments are not set
// up here, a plain sentence saying so). A thin client of the public API (POST /v1/signup, GET /v1/ping,
// POST /v1/keys/rotate): the same answers and limits as any program gets, no rule of its own. The key typed in stays in
// the page (never in a URL, a cookie or storage); the script is inline and allowed by its hash alone (the CSP below).
import { createHash } from "node:crypto";
import { PLANS, type PublicPlan } from "../plans";
import { ICON_SVG } from "./favicon";
import { html, trusted, type Markup } from "./html";
import { LANDING_CSS } from "./landing-style";

const PAGE_CSS = `
.forms { display: grid; grid-template-columns: repeat(auto-fit, minmax(320px, 1fr)); gap: 16px; }
.box { background: var(--surface); border: 1px solid var(--line); border-radius: var(--radius); padding: 20px; min-width: 0; }
.box p { color: var(--muted); margin: 0 0 12px; }
form { display: flex; flex-wrap: wrap; gap: 10px; align-items: end; }
label { display: grid; gap: 4px; flex: 1 1 220px; font-weight: 600; font-size: 0.9rem; }
input { font: inherit; padding: 9px 12px; border: 1px solid var(--line); border-radius: 8px; background: var(--bg); color: var(--ink); min-width: 0; }
button { font: inherit; cursor: pointer; }
.box .btn, .box button { padding: 9px 16px; border-radius: 10px; font-weight: 600; border: 1px solid var(--navy); background: var(--navy); color: #fff; }
.box button.ghost { background: none; color: var(--teal-ink); border-color: var(--line); padding: 5px 12px; font-size: 0.88rem; }
.secret { display: flex; gap: 8px; align-items: center; margin: 8px 0 14px; padding: 10px 12px; background: var(--code-bg); color: var(--code-ink); border-radius: 8px; }
.secret code { flex: 1; min-width: 0; overflow-wrap: anywhere; background: none; color: inherit; white-space: normal; }
.box pre { margin: 0 0 8px; padding: 12px 14px; background: var(--code-bg); color: var(--code-ink); border-radius: 8px; white-space: pre-wrap; overflow-wrap: anywhere; }
.note { font-size: 0.88rem; }
#signup-result, #status-result { margin-top: 16px; }
.error { color: #b42318; font-weight: 600; }
@media (prefers-color-scheme: dark) { .error { color: #fda29b; } }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 6px 16px; margin: 14px 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; font-weight: 600; font-variant-numeric: tabular-nums; overflow-wrap: anywhere; }
[hidden] { display: none !important; }
`;

// The page's behaviour: three forms over the public API. Written once here; its hash goes into the CSP.
const SCRIPT = `
const $ = (id) => document.getElementById(id);
const show = (id, on) => { $(id).hidden = !on; };
const base = document.body.dataset.base;
const example = document.body.dataset.example;
let current = null;
async function call(method, path, key, body) {
  const headers = { Accept: "application/json" };
  if (key) headers.Authorization = "Bearer " + key;
  if (body) headers["Content-Type"] = "application/json";
  let res;
  try { res = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined }); }
  catch { return { ok: false, message: "The service could not be reached; try again." }; }
  const json = await res.json().catch(() => null);
  if (res.ok && json) return { ok: true, json };
  return { ok: false, message: (json && json.error && json.error.message) || ("The service answered HTTP " + res.status + ".") };
}
function copy(id, button) {
  const text = $(id).textContent;
  const done = () => { button.textContent = "Copied"; setTimeout(() => { button.textContent = "Copy"; }, 2000); };
  if (navigator.clipboard && window.isSecureContext) { navigator.clipboard.writeText(text).then(done, () => select(id)); return; }
  select(id);
  try { if (document.execCommand("copy")) done(); } catch {}
}
function select(id) { const r = document.createRange(); r.selectNodeContents($(id)); const s = getSelection(); s.removeAllRanges(); s.addRange(r); }
for (const b of document.querySelectorAll("button[data-copy]")) b.addEventListener("click", () => copy(b.dataset.copy, b));
function showKey(prefix, key) {
  $(prefix + "-key").textContent = key;
  $(prefix + "-curl").textContent = "curl '" + base + example + "' \\\\\\n  -H 'Authorization: Bearer " + key + "'";
  show(prefix + "-result", true);
}
$("signup").addEventListener("submit", async (e) => {
  e.preventDefault();
  const button = e.submitter || $("signup").querySelector("button");
  button.disabled = true;
  show("signup-error", false);
  const r = await call("POST", "/v1/signup", null, { email: $("signup-email").value.trim(), source: "keys-page" });
  button.disabled = false;
  if (!r.ok) { $("signup-error").textContent = r.message; show("signup-error", true); return; }
  showKey("signup", r.json.data.key);
  $("status-key").value = r.json.data.key;
});
const n = (k, what) => k.toLocaleString("en-US") + " " + what + (k === 1 ? "" : "s");
function render(d) {
  const u = d.usage;
  const rows = [
    ["Key", d.key_hint], ["Plan", d.plan.charAt(0).toUpperCase() + d.plan.slice(1) + (d.subscription ? " (subscription " + d.subscription.state + ")" : "")],
    ["Rate limit", d.rate_limit_per_minute + " requests a minute"],
    ["This month (" + u.month + ")", n(u.requests, "request") + (u.included_requests === null ? "" : " of " + u.included_requests.toLocaleString("en-US") + " included")],
    ["Overage", u.included_requests === null ? "none on this plan" : n(u.overage_requests, "request")],
    ["Premium data", d.premium_access ? "yes" : "no"], ["Regions", d.allowed_regions ? d.allowed_regions.join(", ") : "all"],
  ];
  const dl = $("status-facts");
  dl.replaceChildren(...rows.flatMap(([k, v]) => { const dt = document.createElement("dt"); dt.textContent = k; const dd = document.createElement("dd"); dd.textContent = v; return [dt, dd]; }));
}
$("status").addEventListener("submit", async (e) => {
  e.preventDefault();
  show("status-error", false); show("status-result", false); show("rotate-result", false);
  current = $("status-key").value.trim();
  const r = await call("GET", "/v1/ping", current);
  if (!r.ok) { $("status-error").textContent = r.message; show("status-error", true); return; }
  render(r.json.data);
  show("status-result", true);
});
$("rotate").addEventListener("click", async () => {
  if (!current || !confirm("Rotate this key? It stops working at once; the new one is shown once.")) return;
  show("status-error", false);
  const r = await call("POST", "/v1/keys/rotate", current);
  if (!r.ok) { $("status-error").textContent = r.message; show("status-error", true); return; }
  const d = r.json.data;
  if (d.key) { current = d.key; $("status-key").value = d.key; showKey("rotate", d.key); $("rotate-note").textContent = r.json.meta.notice; }
  else { show("rotate-result", true); $("rotate-key").textContent = "(emailed to " + d.delivered_to + ")"; $("rotate-curl").textContent = ""; $("rotate-note").textContent = r.json.meta.notice; }
});
`;

const SCRIPT_HASH = createHash("sha256").update(SCRIPT).digest("base64");

/** Headers of the page: a policy that lets nothing run or load but this page's own script, style and API calls. */
export const KEYS_PAGE_HEADERS: Record<string, string> = {
  "Content-Type": "text/html; charset=utf-8",
  "Cache-Control": "no-cache",
  "Content-Security-Policy": `default-src 'none'; script-src 'sha256-${SCRIPT_HASH}'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; form-action 'none'; base-uri 'none'; frame-ancestors 'none'`,
  "Referrer-Policy": "no-referrer",
  "X-Content-Type-Options": "nosniff",
};

const count = (n: number) => n.toLocaleString("en-US");

/** What a paid plan's card says where card payments are not set up (here and on the landing page). */
export function planUnavailableNotice(planName: string): string {
  return `Card payments are not set up on this server, so this plan cannot be bought here. Ask the operator for a ${planName} key.`;
}

function planCard(plan: PublicPlan, available: boolean): Markup {
  const p = PLANS[plan.id];
  const included =
    p.includedRequestsPerMonth === null
      ? "No monthly quota"
      : html`<strong>${count(p.includedRequestsPerMonth)}</strong> requests a month`;
  const action =
    plan.id === "free"
      ? html`<a class="btn" href="#get">Get a free key</a>`
      : available && plan.checkout
        ? html`<a class="btn" href="${plan.checkout}">Subscribe</a>`
        : html`<p class="off">${planUnavailableNotice(p.name)}</p>`;
  return html`<div class="plan" data-plan="${plan.id}">
<h3>${p.name}</h3>
<p class="price">$${plan.price_usd_per_month} <span>/ month</span></p>
<ul><li>${included}</li><li><strong>${count(p.rateLimitPerMinute)}</strong> requests a minute</li><li>${p.unrestricted ? "Premium indicators and signals" : "Standard indicators"}</li></ul>
${action}
</div>`;
}

export type KeysPageInput = {
  base: string;
  name: string;
  docs: string;
  plans: PublicPlan[];
  available: Record<string, boolean>;
  example: string;
};

export function renderKeysPage(input: KeysPageInput): string {
  const { base } = input;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API keys · ${input.name}</title>
<link rel="icon" href="${base}/favicon.ico" sizes="16x16 32x32">
<style>${trusted(LANDING_CSS)}${trusted(PAGE_CSS)}</style>
</head>
<body data-base="${base}" data-example="${input.example}">
<header class="top"><div class="wrap bar">
<a class="brand" href="${base}/">${trusted(ICON_SVG)}<span>${input.name}</span></a>
<nav><a href="${base}/">Home</a><a href="${input.docs}">Docs</a><a href="#plans">Plans</a></nav>
</div></header>
<main class="wrap">
<section>
<h2>API keys</h2>
<p class="sub">Get a free key, see what a key may do and has used this month, and rotate it. Everything here is done by the public API (<code>POST /v1/signup</code>, <code>GET /v1/ping</code>, <code>POST /v1/keys/rotate</code>), with the same limits as from a program.</p>
<div class="forms">
<div class="box" id="get">
<h3>Get a free key</h3>
<p>The Free plan: ${count(PLANS.free.rateLimitPerMinute)} requests a minute, standard indicators. The key is shown once: only its hash is stored.</p>
<form id="signup"><label>Email<input id="signup-email" type="email" name="email" required maxlength="254" autocomplete="email" placeholder="you@example.com"></label><button type="submit">Get a free key</button></form>
<p class="error" id="signup-error" role="alert" hidden></p>
<div id="signup-result" hidden>
<p><strong>Your key.</strong> Copy it now: it is not shown again.</p>
<div class="secret"><code id="signup-key"></code><button type="button" class="ghost" data-copy="signup-key">Copy</button></div>
<p>Your first request:</p>
<pre id="signup-curl"></pre><button type="button" class="ghost" data-copy="signup-curl">Copy</button>
</div>
</div>
<div class="box" id="usage">
<h3>Usage, limits and rotation</h3>
<p>Paste a key to see its plan, limits and this month's usage. It is sent only to this service, in a header.</p>
<form id="status"><label>API key<input id="status-key" type="password" name="key" required autocomplete="off" spellcheck="false" placeholder="svc_live_…"></label><button type="submit">Show</button></form>
<p class="error" id="status-error" role="alert" hidden></p>
<div id="status-result" hidden>
<dl class="facts" id="status-facts"></dl>
<p class="note">Rotating replaces the key's secret: the current key stops working at once; plan, limits and usage carry over (at most 5 rotations a day). A paid plan's new key is emailed to its billing address.</p>
<button type="button" id="rotate">Rotate this key</button>
<div id="rotate-result" hidden>
<p id="rotate-note"></p>
<div class="secret"><code id="rotate-key"></code><button type="button" class="ghost" data-copy="rotate-key">Copy</button></div>
<pre id="rotate-curl"></pre>
</div>
</div>
</div>
</div>
</section>
<section id="plans">
<h2>Plans</h2>
<p class="sub">Paid plans include more requests, a higher rate limit and premium data. Or pay per request with x402 or L402 and no key (see the <a href="${input.docs}">docs</a>).</p>
<div class="plans">${input.plans.map((p) => planCard(p, input.available[p.id] ?? false))}</div>
</section>
</main>
<footer><div class="wrap"><span>${input.name}</span><nav><a href="${base}/">Home</a><a href="${input.docs}">Docs</a></nav></div></footer>
<script>${trusted(SCRIPT)}</script>
</body>
</html>
`.value;
}

/** What a browser gets from /checkout/{plan} when card payments are not set up: the same news as the JSON 503, in words. */
export function renderCheckoutUnavailable(input: { base: string; name: string; plan: string }): string {
  const plan = PLANS[input.plan as keyof typeof PLANS]?.name ?? input.plan;
  return html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Checkout unavailable · ${input.name}</title><style>${trusted(LANDING_CSS)}${trusted(PAGE_CSS)}</style></head>
<body>
<header class="top"><div class="wrap bar"><a class="brand" href="${input.base}/">${trusted(ICON_SVG)}<span>${input.name}</span></a></div></header>
<main class="wrap"><section>
<h2>The ${plan} plan cannot be bought online here</h2>
<p class="sub">Card payments are not set up on this server, so no checkout can start. Ask the operator of this service for a ${plan} key. Meanwhile a free key works at once: <a href="${input.base}/keys">get a free key</a>.</p>
</section></main>
</body>
</html>
`.value;
}
