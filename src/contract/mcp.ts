// The MCP endpoint's path and its tools (names, and what MCP adds to each): one place that routes, the admission core,
// the documents and the landing page read (a tool is the REST operation with the same operationId, src/mcp/tools.ts).

/** Where the Streamable HTTP MCP endpoint is served. */
export const MCP_PATH = "/api/mcp";

/** What MCP adds to a REST operation served as a tool. */
export type ToolPolicy = {
  /** `limit` when the caller leaves it out, where the REST default is a lot for a model to read (the bounds stay the REST ones). */
  defaultLimit?: number;
  /** How a paged result says more rows match: `meta.total` beyond this page ("offset"), or a `meta.next_cursor` ("cursor"). */
  paging?: "offset" | "cursor";
  /** Result items carry `has_data`: whether the service holds observations of them (their coverage). */
  heldFlag?: boolean;
  /** When to use this tool rather than another, for a model choosing among them. */
  guidance?: string;
};

/**
 * The tools served, in the spec's order (get_indicator beside search), each the GET operation whose operationId is its
 * name, with what MCP adds to it. Serving an operation as a tool is this one entry; a name with no GET operation of
 * that operationId fails at startup.
 */
export const MCP_TOOLS: readonly ({ name: string } & ToolPolicy)[] = [
  {
    name: "search_indicators",
    defaultLimit: 20,
    paging: "offset",
    heldFlag: true,
    guidance:
      "Start here to find indicator codes: by words (`search`), `source`, `category` or `frequency`; `has_data: true` keeps only " +
      "what the service holds. Each result says `has_data` and its `coverage` (regions held, dates). Then get_indicator for one " +
      "indicator's regions, and get_latest or get_observations for its values.",
  },
  {
    name: "get_indicator",
    guidance:
      "Check one indicator before a paid call: which regions it is served for (`available_regions`), its date range and its " +
      "coverage. Free. Codes come from search_indicators.",
  },
  {
    name: "list_sources",
    guidance:
      "The publishers, with their indicator counts, licence and the credit line to give; a slug can be passed as `source` to search_indicators.",
  },
  {
    name: "list_regions",
    defaultLimit: 100,
    paging: "offset",
    guidance:
      "Find the region codes the data tools take as `region`: `search` by name, abbreviation or code (`travis`, `US-TX`), or list " +
      "by `type` and `parent` (`parent: CA, type: county`).",
  },
  {
    name: "get_observations",
    paging: "offset",
    guidance:
      "A series' values over time (rows of date and value), with transforms (yoy, mom, qoq, index, log) and resampling to " +
      "monthly, quarterly or annual. For only the newest value use get_latest; for computed facts use get_insights.",
  },
  {
    name: "get_latest",
    guidance:
      "The newest value of one indicator (`indicator`), or of up to 20 for one price (`indicators`, comma-separated). Prefer it to " +
      "get_observations when only the latest value matters.",
  },
  {
    name: "get_insights",
    guidance:
      "Facts computed over one series, each with a ready sentence (`text`): trend, latest change, distance from its record " +
      "high and low, longest run, rank among peers; plus its active signals.",
  },
  {
    name: "get_active_signals",
    defaultLimit: 20,
    paging: "cursor",
    guidance:
      "Signals open now (acceleration, extreme, trend_break) across indicators and regions, filtered by indicator, region, type and strength. For one series' facts use get_insights.",
  },
  {
    name: "ask",
    guidance:
      "A question in plain words answered with prose and citations (the get_latest, get_insights and get_active_signals calls " +
      "it made, replayable). The dearest tool: when you know the indicator and region, get_latest or get_insights answer for " +
      "0.01. A question the catalog does not cover answers status no_coverage for free; `depth: briefing` reads more.",
  },
];

/** The tools' names, in order. */
export const MCP_TOOL_NAMES: readonly string[] = MCP_TOOLS.map((t) => t.name);
