// get_observations with `include_chart: true`: the rows, and the same series drawn by GET /v1/chart (same indicator,
// region, source, dates, transform, frequency and resampling). The chart is a read of its own, through the same
// admission as REST: a keyed caller gets it as an image content item (SVG, base64), charged as GET /v1/chart is; an
// anonymous caller, whose x402 payment in the call bought only the rows, gets the chart's URL to request (and pay) itself.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** The tools that take `include_chart`, and the argument's schema. */
export const CHART_TOOLS: ReadonlySet<string> = new Set(["get_observations"]);
export const INCLUDE_CHART = "include_chart";
export const includeChartSchema = {
  type: "boolean",
  default: false,
  description:
    "Also return the series as a chart (GET /v1/chart: an SVG image content item), read and charged as its own request. Without an API key: the chart's URL, to request and pay separately.",
};

/** The GET /v1/chart request drawing what a get_observations call reads (paging and revision arguments dropped). */
export function chartRequestOf(pathAndQuery: string): string {
  const query = new URLSearchParams(pathAndQuery.slice(pathAndQuery.indexOf("?") + 1));
  const kept = new URLSearchParams();
  for (const name of [
    "indicator",
    "region",
    "source",
    "start_date",
    "end_date",
    "transform",
    "frequency",
    "resample_method",
  ]) {
    const v = query.get(name);
    if (v !== null) kept.set(name, v);
  }
  return `/v1/chart?${kept}`;
}

/** `result` with the chart appended: an image from `invoke`, or (anonymous, or the chart refused) a line saying why and where. */
export async function withChart(
  result: CallToolResult,
  chartPath: string,
  ctx: { anonymous: boolean; restUrl(p: string): string; invoke(p: string): Promise<Response> },
): Promise<CallToolResult> {
  const url = ctx.restUrl(chartPath);
  // Anonymous: beside the rows, or the payment request for them.
  if (ctx.anonymous)
    return {
      ...result,
      content: [
        ...result.content,
        { type: "text", text: `Chart of this series (SVG, paid like the data): GET ${url}` },
      ],
    };
  if (result.isError) return result;
  const res = await ctx.invoke(chartPath);
  if (res.status !== 200) {
    const message =
      ((await res.json().catch(() => null)) as { error?: { message?: string } } | null)?.error?.message ??
      `status ${res.status}`;
    return { ...result, content: [...result.content, { type: "text", text: `No chart (GET ${url}): ${message}` }] };
  }
  const data = Buffer.from(await res.arrayBuffer()).toString("base64");
  return { ...result, content: [...result.content, { type: "image", data, mimeType: "image/svg+xml" }] };
}
