// Bulk load: 1 million observations (3,144 counties x 318 months) through db/bulk-load.ts bulkLoadSeries, side by side
// in the same run with a raw COPY of the same rows into the same table (the floor no loader can beat). Reports rows/s
// for both and the loader's share of raw COPY (target: at least 50%).
//
//   bun bench/bulk-load.ts                                      PGlite in memory
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres bun bench/bulk-load.ts   also PostgreSQL (scratch databases)
import postgres from "postgres";
import { openDatabase, type Database } from "../db/client";
import { bulkLoadSeries, type BulkSeries } from "../db/bulk-load";
import { indicators, regions, sources } from "../db/schema";

const COUNTIES = 3144;
const MONTHS = 318; // 1997-01 .. 2023-06: 3,144 x 318 = 999,792 rows
const NOW = new Date("2026-11-24T00:00:00Z");
const IDS = ["00000000-0000-4000-8000-0000000b0001", "00000000-0000-4000-8000-0000000b0002"];

function countyCodes(): string[] {
  return Array.from(
    { length: COUNTIES },
    (_, i) => `${String(1 + (i % 50)).padStart(2, "0")}${String(1 + Math.floor(i / 50) * 2).padStart(3, "0")}`,
  );
}

function monthly(i: number): { date: string; value: number }[] {
  return Array.from({ length: MONTHS }, (_, m) => {
    const y = 1997 + Math.floor(m / 12);
    return {
      date: `${y}-${String((m % 12) + 1).padStart(2, "0")}-01`,
      value: Math.round((3 + ((i * 7 + m * 13) % 97) / 10) * 10) / 10,
    };
  });
}

async function setup(database: Database, codes: string[]): Promise<void> {
  const db = database.db;
  await db.insert(sources).values({ slug: "bench", name: "Bench" });
  await db
    .insert(indicators)
    .values(
      IDS.map((id, k) => ({ id, code: `BULK${k}`, sourceSlug: "bench", name: `Bulk ${k}`, regionKinds: ["county"] })),
    );
  for (let i = 0; i < codes.length; i += 1000) {
    await db
      .insert(regions)
      .values(
        codes
          .slice(i, i + 1000)
          .map((code) => ({ code, type: "county", name: `County ${code}`, slug: `county-${code}` })),
      );
  }
}

/** Raw COPY of the same rows: series rows inserted first (as the loader does), then one COPY of every observation. */
async function rawCopy(database: Database, items: BulkSeries[]): Promise<void> {
  const at = NOW.toISOString();
  const insertSeries = `insert into series (indicator_id, region_code, first_date, last_date, observation_count, version, updated_at)
    select * from unnest($1::uuid[], $2::text[], $3::date[], $4::date[], $5::int[], $6::int[], $7::timestamptz[]) returning id`;
  const cols = [
    items.map((s) => s.indicatorId),
    items.map((s) => s.regionCode),
    items.map((s) => s.rows[0].date),
    items.map((s) => s.rows.at(-1)!.date),
    items.map((s) => s.rows.length),
    items.map(() => 1),
    items.map(() => at),
  ];
  const csv = (ids: number[]) => {
    const out: string[] = [];
    items.forEach((s, k) => {
      for (const r of s.rows) out.push(`${ids[k]},${r.date},1,${r.value},f,t,,${at}\n`);
    });
    return out.join("");
  };
  const copy =
    "copy observations (series_id, date, revision, value, is_preliminary, is_latest, source_updated_at, recorded_at)";
  const raw = database.raw;
  if (raw.kind === "postgres") {
    await raw.sql.begin(async (tx) => {
      const ids = (
        (await tx.unsafe(insertSeries, cols.map((c) => tx.array(c as never[])) as never)) as unknown as { id: number }[]
      ).map((r) => Number(r.id));
      const w = await tx.unsafe(`${copy} from stdin with (format csv)`).writable();
      await new Promise<void>((resolve, reject) => {
        w.on("finish", resolve);
        w.on("error", reject);
        w.end(csv(ids));
      });
    });
  } else {
    await raw.client.transaction(async (tx) => {
      const ids = (await tx.query<{ id: number }>(insertSeries, cols)).rows.map((r) => Number(r.id));
      await tx.query(`${copy} from '/dev/blob' with (format csv)`, [], { blob: new Blob([csv(ids)]) });
    });
  }
}

async function scratch(adminUrl: string, name: string): Promise<string> {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

async function run(label: string, open: () => Promise<Database>): Promise<void> {
  const codes = countyCodes();
  // Two identical databases so neither method loads into a table the other has grown.
  const results: { method: string; ms: number }[] = [];
  for (const method of ["raw COPY", "bulkLoadSeries", "raw COPY", "bulkLoadSeries"] as const) {
    const database = await open();
    await setup(database, codes);
    const items: BulkSeries[] = codes.map((regionCode, i) => ({ indicatorId: IDS[0], regionCode, rows: monthly(i) }));
    const rows = items.reduce((n, s) => n + s.rows.length, 0);
    const rss0 = process.memoryUsage().rss;
    const t0 = performance.now();
    if (method === "raw COPY") await rawCopy(database, items);
    else await bulkLoadSeries(database, items, { now: NOW });
    const ms = performance.now() - t0;
    results.push({ method, ms });
    console.log(
      `${label.padEnd(10)} ${method.padEnd(15)} ${rows.toLocaleString("en-US")} rows  ${(ms / 1000).toFixed(2)} s  ${Math.round(rows / (ms / 1000)).toLocaleString("en-US")} rows/s  rss +${Math.round((process.memoryUsage().rss - rss0) / 1e6)} MB`,
    );
    await database.close();
  }
  const best = (m: string) => Math.min(...results.filter((r) => r.method === m).map((r) => r.ms));
  console.log(
    `${label.padEnd(10)} bulkLoadSeries / raw COPY (best of 2 each): ${((best("raw COPY") / best("bulkLoadSeries")) * 100).toFixed(1)}%`,
  );
}

async function main() {
  await run("pglite", () => openDatabase({ dataDir: null }));
  const url = process.env.DATABASE_URL;
  if (url?.startsWith("postgres")) {
    let n = 0;
    await run("postgres", async () =>
      openDatabase({ url: await scratch(url, `svc_bench_bulk_${process.pid}_${n++}`), poolSize: 2 }),
    );
  }
}

await main();
