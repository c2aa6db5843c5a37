// Now in verdicts.ts; this name stays only for the imports of src/routes/mcp.ts, briefings.ts and keys.ts.
export { clientIp, entitlementOf, requireKey } from "./verdicts";
