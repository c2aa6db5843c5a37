// A chart drawn as SVG: Vega-Lite compiled to Vega and rendered on the server (no browser, no canvas), with its
// <title> and <desc>. Pure CPU over plain data (no database, no request): it runs on a compute thread
// (src/services/compute-tasks.ts), 60-300 ms a chart, never on the thread that answers requests.
import type { TopLevelSpec } from "vega-lite";
import { chartSpec, chartText, escapeXml, type ChartInput } from "../domain/chart-spec";

/** Renders the chart (Vega-Lite -> Vega -> SVG) with its <title> and <desc>. */
export async function drawSvg(input: ChartInput): Promise<string> {
  // Loaded by the first chart drawn, not at start: Vega and Vega-Lite are about 35 MB of a thread's memory.
  const [vega, { compile }] = await Promise.all([import("vega"), import("vega-lite")]);
  const view = new vega.View(vega.parse(compile(chartSpec(input) as unknown as TopLevelSpec).spec), {
    renderer: "none",
  });
  try {
    const svg = await view.toSVG();
    const text = chartText(input);
    const open = svg.indexOf(">") + 1;
    // The accessible name and description: the first children of the root, referenced by it.
    const head = svg.slice(0, open - 1) + ' role="img" aria-labelledby="chart-title chart-desc">';
    return `${head}<title id="chart-title">${escapeXml(text.title)}</title><desc id="chart-desc">${escapeXml(text.desc)}</desc>${svg.slice(open)}`;
  } finally {
    view.finalize();
  }
}
