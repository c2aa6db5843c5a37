// A public briefing as a page, for a browser (GET /v1/briefings/public/{slug} with Accept: text/html): the same read
// the JSON answers (its question, the stored answer, its citations) with a chart of every series the answer resolved
// to, in the places it read, over the window it read (GET /v1/chart's pictures, as data: URIs). Self-contained:
// inline CSS, no script, no request beyond this page.
import { parseWindow, windowStart } from "../domain/window";
import type { BriefingRunOut } from "../schemas/briefings";
import { chartPicture, type ChartPicture } from "../services/chart";
import type { ReadContext } from "../services/series-read";
import { html, trusted } from "./html";

export type PublicBriefingRead = {
  data: { slug: string; name: string; question: string; cadence: string; run: BriefingRunOut };
  meta: { next_run_at: string };
};

/** At most this many charts on a page (one per indicator the answer resolved to). */
const MAX_CHARTS = 6;

/** One chart per resolved indicator, with every resolved place (up to the chart's cap), over the answer's window. */
export async function briefingCharts(ctx: ReadContext, read: PublicBriefingRead): Promise<ChartPicture[]> {
  const answer = read.data.run.response;
  if (!answer) return [];
  const window = parseWindow(answer.resolved.window);
  const start = window ? windowStart(window, ctx.now().toISOString().slice(0, 10)) : null;
  const region = answer.resolved.regions
    .slice(0, 10)
    .map((r) => r.code)
    .join(",");
  const out: ChartPicture[] = [];
  for (const i of answer.resolved.indicators.slice(0, MAX_CHARTS)) {
    const params: Record<string, string> = {
      indicator: i.concept ?? i.code,
      width: "800",
      height: "350",
      ...(region ? { region } : {}),
      ...(start ? { start_date: start } : {}),
    };
    // A long daily series over `all` passes the point cap: drawn by month then.
    const chart = (await chartPicture(ctx, params)) ?? (await chartPicture(ctx, { ...params, frequency: "monthly" }));
    if (chart) out.push(chart);
  }
  return out;
}

const CSS = `
body { margin: 0; font: 16px/1.55 Helvetica, Arial, sans-serif; color: #1d2329; background: #f6f7f8; }
main { max-width: 820px; margin: 0 auto; padding: 32px 20px 48px; }
h1 { font-size: 28px; margin: 0 0 4px; }
.question { font-size: 18px; color: #4a5560; margin: 0 0 20px; }
.answer { background: white; border: 1px solid #dde2e6; border-radius: 6px; padding: 16px 20px; white-space: pre-line; }
figure { margin: 20px 0; background: white; border: 1px solid #dde2e6; border-radius: 6px; padding: 8px; }
figure img { display: block; width: 100%; height: auto; }
h2 { font-size: 18px; margin: 28px 0 8px; }
ol { padding-left: 22px; } li { margin: 4px 0; } code { font-size: 13px; color: #4a5560; }
.meta { color: #66717c; font-size: 14px; }
`;

/** The page: the briefing, its answer, the charts, the citations (each with the REST request that replays it). */
export function renderBriefingPage(read: PublicBriefingRead, charts: ChartPicture[]): string {
  const b = read.data;
  const answer = b.run.response;
  const citations = answer?.citations ?? [];
  return `<!doctype html>
${html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${b.name}: briefing</title><style>${trusted(CSS)}</style></head>
<body><main>
<h1>${b.name}</h1>
<p class="question">${b.question}</p>
<p class="meta">Answered ${b.run.finished_at.slice(0, 10)}; asked again ${b.cadence}, next ${read.meta.next_run_at.slice(0, 10)}.</p>
<div class="answer">${answer?.answer ?? answer?.message ?? "No answer."}</div>
${charts.map((c) => html`<figure><img src="${c.uri}" alt="${c.alt}"></figure>`)}
${citations.length ? html`<h2>Where the numbers come from</h2><ol>${citations.map((c) => html`<li>${c.summary} <code>${c.tool} ${new URLSearchParams(Object.entries(c.args).map(([k, v]): [string, string] => [k, String(v)])).toString()}</code></li>`)}</ol>` : null}
</main></body></html>`}`;
}
