// The MCP endpoint's path and tool names: one place that routes, the admission core, the documents and the landing
// page read (a tool is the REST operation with the same operationId, src/mcp/tools.ts).

/** Where the Streamable HTTP MCP endpoint is served. */
export const MCP_PATH = "/api/mcp";

/** The tools served, in the spec's order (get_indicator beside search). A name with no GET operation of that operationId fails at startup. */
export const MCP_TOOL_NAMES = [
  "search_indicators", "get_indicator", "list_sources", "list_regions", "get_observations", "get_latest", "get_insights", "get_active_signals", "ask",
] as const;
