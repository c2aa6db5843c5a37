// The landing page's stylesheet, inlined into the page so it needs no second request and works offline. System
// fonts only (a web font would be a request to the internet). The navy and teal are the icon's (src/docs/favicon.ts).
export const LANDING_CSS = `
:root {
  --navy: #133a5e; --navy-deep: #0b2440; --teal: #5eead4; --teal-ink: #0f766e;
  --bg: #f6f7f9; --surface: #ffffff; --ink: #142033; --muted: #5b6778; --line: #e3e7ed; --code-bg: #0e1b2c; --code-ink: #dbe7f3;
  --radius: 12px;
  color-scheme: light dark;
}
@media (prefers-color-scheme: dark) {
  :root { --bg: #0b1420; --surface: #111e2e; --ink: #e6edf5; --muted: #9aa8b8; --line: #22324a; --code-bg: #08111c; --teal-ink: #5eead4; }
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body {
  margin: 0; background: var(--bg); color: var(--ink);
  font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
}
a { color: var(--teal-ink); text-decoration: none; }
a:hover { text-decoration: underline; }
code, pre { font-family: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace; font-size: 0.875em; }
:not(pre) > code { background: color-mix(in srgb, var(--muted) 14%, transparent); padding: 0.1em 0.35em; border-radius: 5px; white-space: nowrap; }
@media (max-width: 600px) { :not(pre) > code { white-space: normal; overflow-wrap: anywhere; } }
.wrap { max-width: 1120px; margin: 0 auto; padding: 0 24px; }

.top { background: var(--navy-deep); color: #fff; }
.bar { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 8px 24px; min-height: 60px; padding-top: 12px; padding-bottom: 12px; }
.brand { display: flex; align-items: center; gap: 10px; color: #fff; font-weight: 650; letter-spacing: -0.01em; white-space: nowrap; }
.brand svg { width: 28px; height: 28px; }
.brand:hover { text-decoration: none; }
.top nav { display: flex; flex-wrap: wrap; gap: 4px 20px; font-size: 0.92rem; }
.top nav a { color: #c9d6e5; }
.top nav a:hover { color: #fff; }

.hero { background: linear-gradient(160deg, var(--navy-deep) 0%, var(--navy) 70%, #1b4f78 100%); color: #fff; padding: 56px 0 48px; }
.eyebrow { margin: 0 0 12px; color: var(--teal); font-weight: 600; font-size: 0.85rem; letter-spacing: 0.08em; text-transform: uppercase; }
.hero h1 { margin: 0; max-width: 22ch; font-size: clamp(2rem, 4.4vw, 3.1rem); line-height: 1.1; letter-spacing: -0.025em; }
.lede { max-width: 62ch; margin: 18px 0 0; color: #d3deea; font-size: 1.1rem; }
.lede code { background: rgba(255, 255, 255, 0.1); color: #fff; }
.cta { display: flex; flex-wrap: wrap; gap: 12px; margin-top: 28px; }
.btn { display: inline-block; padding: 10px 18px; border-radius: 10px; font-weight: 600; border: 1px solid rgba(255, 255, 255, 0.28); color: #fff; }
.btn:hover { text-decoration: none; background: rgba(255, 255, 255, 0.08); }
.btn.primary { background: var(--teal); border-color: var(--teal); color: var(--navy-deep); }
.btn.primary:hover { background: #99f6e4; }
.stats { display: grid; grid-template-columns: repeat(auto-fit, minmax(130px, 1fr)); gap: 12px; margin: 40px 0 0; }
.stats div { padding: 14px 16px; border-radius: var(--radius); background: rgba(255, 255, 255, 0.06); border: 1px solid rgba(255, 255, 255, 0.1); }
.stats dt { font-size: 1.6rem; font-weight: 700; letter-spacing: -0.02em; font-variant-numeric: tabular-nums; }
.stats dd { margin: 0; color: #b8c7d8; font-size: 0.9rem; }

main section { padding: 48px 0 8px; }
h2 { margin: 0 0 6px; font-size: 1.6rem; letter-spacing: -0.015em; }
h3 { margin: 0 0 8px; font-size: 1.05rem; }
.sub { margin: 0 0 24px; color: var(--muted); max-width: 70ch; }

.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(240px, 1fr)); gap: 16px; }
/* The cards of a row share their rows (place, name, reading, chart, request), so their charts line up and no card has
   an empty band under its chart. */
.card { background: var(--surface); border: 1px solid var(--line); border-radius: var(--radius); padding: 18px 18px 14px; display: grid; grid-row: span 5; grid-template-rows: subgrid; row-gap: 0; align-content: start; }
.card .where { margin: 0; color: var(--muted); font-size: 0.78rem; font-weight: 600; letter-spacing: 0.06em; text-transform: uppercase; }
.card .what { margin: 4px 0 12px; font-weight: 600; line-height: 1.3; }
.card .value { margin: 0; font-size: 2rem; font-weight: 700; letter-spacing: -0.02em; font-variant-numeric: tabular-nums; line-height: 1.1; }
.card .unit { margin: 2px 0 0; color: var(--muted); font-size: 0.9rem; }
.card .stale { margin: 4px 0 0; color: #9a5b00; font-size: 0.8rem; }
.card img.chart { grid-row: 4; align-self: end; display: block; width: 100%; height: auto; margin: 12px 0 8px; border-radius: 4px; }
.card .meta { grid-row: 5; margin: 0; padding-top: 10px; border-top: 1px solid var(--line); color: var(--muted); font-size: 0.82rem; }
.card .meta code { display: block; margin-bottom: 4px; padding: 0; background: none; font-size: 0.78rem; color: var(--ink); white-space: normal; overflow-wrap: anywhere; }

.exchange { display: grid; grid-template-columns: minmax(0, 4fr) minmax(0, 7fr); gap: 32px; margin-top: 32px; align-items: start; }
@media (max-width: 820px) { .exchange { grid-template-columns: minmax(0, 1fr); gap: 16px; } }
.explain p { color: var(--muted); }
.explain strong { color: var(--ink); }
.panel { background: var(--code-bg); color: var(--code-ink); border: 1px solid #1d2d42; border-radius: var(--radius); overflow: hidden; }
.panel h3 { margin: 0; padding: 10px 16px; font-size: 0.78rem; color: #8fa3ba; letter-spacing: 0.06em; text-transform: uppercase; border-bottom: 1px solid #1d2d42; }
.panel pre + h3 { border-top: 1px solid #1d2d42; }
.panel pre { margin: 0; padding: 14px 16px; overflow-x: auto; line-height: 1.5; white-space: pre-wrap; overflow-wrap: anywhere; }

.steps { list-style: none; padding: 0; margin: 0; display: grid; gap: 12px; counter-reset: step; }
.steps li { counter-increment: step; display: grid; grid-template-columns: minmax(0, 4fr) minmax(0, 7fr); gap: 8px 32px; align-items: center; background: var(--surface); border: 1px solid var(--line); border-radius: var(--radius); padding: 18px 20px; }
@media (max-width: 820px) { .steps li { grid-template-columns: minmax(0, 1fr); } }
.steps li h3::before { content: counter(step); display: inline-grid; place-items: center; width: 24px; height: 24px; margin-right: 8px; border-radius: 50%; background: var(--navy); color: var(--teal); font-size: 0.8rem; }
.steps p { margin: 0; color: var(--muted); font-size: 0.95rem; }
.steps pre { margin: 0; padding: 12px 14px; background: var(--code-bg); color: var(--code-ink); border: 1px solid #1d2d42; border-radius: 8px; white-space: pre-wrap; overflow-wrap: anywhere; }

.plans { display: grid; grid-template-columns: repeat(auto-fit, minmax(240px, 1fr)); gap: 16px; }
.plan { background: var(--surface); border: 1px solid var(--line); border-radius: var(--radius); padding: 22px; display: flex; flex-direction: column; }
.plan.featured { border-color: var(--teal-ink); box-shadow: 0 0 0 1px var(--teal-ink); }
.plan h3 { font-size: 1.1rem; }
.plan .price { margin: 0; font-size: 2.1rem; font-weight: 700; letter-spacing: -0.02em; }
.plan .price span { font-size: 0.95rem; font-weight: 500; color: var(--muted); }
.plan .off { margin-top: auto; margin-bottom: 0; color: var(--muted); font-size: 0.92rem; }
.plan ul { list-style: none; padding: 0; margin: 16px 0 20px; color: var(--muted); font-size: 0.95rem; }
.plan li { padding: 5px 0; border-bottom: 1px dashed var(--line); }
.plan li strong { color: var(--ink); font-variant-numeric: tabular-nums; }
.plan .btn { margin-top: auto; text-align: center; color: var(--ink); border-color: var(--line); }
.plan.featured .btn { background: var(--navy); border-color: var(--navy); color: #fff; }

.split { display: grid; grid-template-columns: minmax(0, 5fr) minmax(0, 6fr); gap: 32px; margin-top: 40px; align-items: start; }
@media (max-width: 820px) { .split { grid-template-columns: minmax(0, 1fr); } }
.rails p { color: var(--muted); }
.rails h3 { margin-top: 18px; }
table { width: 100%; border-collapse: collapse; background: var(--surface); border: 1px solid var(--line); border-radius: var(--radius); overflow: hidden; font-size: 0.93rem; }
th, td { text-align: left; padding: 9px 14px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: 0.78rem; color: var(--muted); letter-spacing: 0.06em; text-transform: uppercase; }
tr:last-child td { border-bottom: 0; }
td.usd { text-align: right; font-variant-numeric: tabular-nums; font-weight: 600; white-space: nowrap; }
th.usd { text-align: right; }

.agents { display: grid; grid-template-columns: repeat(auto-fit, minmax(260px, 1fr)); gap: 16px; }
.agents > div { background: var(--surface); border: 1px solid var(--line); border-radius: var(--radius); padding: 18px; min-width: 0; }
.agents p { margin: 0 0 10px; color: var(--muted); font-size: 0.95rem; }
.agents .url { display: block; margin-bottom: 8px; padding: 8px 10px; background: var(--code-bg); color: var(--code-ink); border: 1px solid #1d2d42; border-radius: 8px; overflow-wrap: anywhere; font-family: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace; font-size: 0.85rem; }

footer { margin-top: 56px; padding: 28px 0 40px; border-top: 1px solid var(--line); color: var(--muted); font-size: 0.9rem; }
footer .wrap { display: flex; flex-wrap: wrap; justify-content: space-between; gap: 12px; }
footer nav { display: flex; flex-wrap: wrap; gap: 18px; }
`;
