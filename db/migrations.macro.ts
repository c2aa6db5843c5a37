// Bun macro: runs at bundle time, so the compiled binary carries the migrations and needs no
// db/migrations folder at runtime. Under `bun run` it simply runs at import.
import { readMigrationFiles } from "drizzle-orm/migrator";

export function bundledMigrations() {
  return readMigrationFiles({ migrationsFolder: `${import.meta.dir}/migrations` });
}
