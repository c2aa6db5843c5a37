import { defineConfig } from "drizzle-kit";

// Migrations are generated once and committed; they run on PGlite and PostgreSQL 15 alike.
export default defineConfig({ dialect: "postgresql", schema: "./db/schema/index.ts", out: "./db/migrations" });
