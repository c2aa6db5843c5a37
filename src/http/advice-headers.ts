// Now in verdicts.ts; this name stays only for src/routes/mcp.ts's import.
export { adviceHeaders, rateLimitHeaders } from "./verdicts";
