// The page memo's key now lives with its one REST user (paid.ts); this name stays only for src/routes/mcp.ts's import.
export { pageMemoKeyFor } from "./paid";
