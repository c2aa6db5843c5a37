// The stored data as the answer scorers read it: plain SQL over the database's tables (the latest vintage of every
// observation, the regions, the flows), never through the services the resolver uses. Memoized per database.
import { sql, type SQL } from "drizzle-orm";
import type { Database } from "../../db/client";
import type { AskData, FlowRow, Obs, Place } from "./answer-rules";

export function snapshotData(database: Database): AskData {
  const rows = async <T>(query: SQL): Promise<T[]> => {
    const r = await database.db.execute(query);
    return (Array.isArray(r) ? r : (r as { rows: unknown[] }).rows) as T[];
  };
  const memo = new Map<string, Promise<unknown>>();
  const once = <T>(key: string, load: () => Promise<T>): Promise<T> => {
    if (!memo.has(key)) memo.set(key, load());
    return memo.get(key) as Promise<T>;
  };
  const toPlace = (r: { code: string; name: string; type: string; parent_code: string | null }): Place => ({
    code: r.code,
    name: r.name,
    kind: r.type,
    parent: r.parent_code,
  });
  const allPlaces = () =>
    once("places", async () =>
      (
        await rows<{ code: string; name: string; type: string; parent_code: string | null }>(
          sql`SELECT code, name, type, parent_code FROM regions`,
        )
      ).map(toPlace),
    );

  const panel = (code: string, kind: string) =>
    once(`panel ${code} ${kind}`, async () => {
      // Only the last three years before the newest date held anywhere: a set is read at one recent period.
      const list = await rows<{ region: string; date: string; value: number }>(sql`
        WITH newest AS (SELECT max(s.last_date) AS d FROM series s JOIN indicators i ON i.id = s.indicator_id WHERE i.code = ${code})
        SELECT s.region_code AS region, o.date::text AS date, o.value FROM observations o
        JOIN series s ON s.id = o.series_id JOIN indicators i ON i.id = s.indicator_id JOIN regions r ON r.code = s.region_code
        WHERE i.code = ${code} AND r.type = ${kind} AND o.is_latest AND o.value IS NOT NULL
          AND o.date > (SELECT d FROM newest) - interval '3 years' ORDER BY s.region_code, o.date`);
      const out = new Map<string, Obs[]>();
      for (const r of list) {
        if (!out.has(r.region)) out.set(r.region, []);
        out.get(r.region)!.push({ date: r.date, value: Number(r.value) });
      }
      return out;
    });

  return {
    async series(code, region) {
      return once(`series ${code} ${region}`, async () =>
        (
          await rows<{ date: string; value: number }>(sql`
            SELECT o.date::text AS date, o.value FROM observations o JOIN series s ON s.id = o.series_id JOIN indicators i ON i.id = s.indicator_id
            WHERE i.code = ${code} AND s.region_code = ${region} AND o.is_latest AND o.value IS NOT NULL ORDER BY o.date`)
        ).map((x) => ({ date: x.date, value: Number(x.value) })),
      );
    },
    async panel(code, kind, parent) {
      const all = await panel(code, kind);
      if (!parent) return all;
      const inside = new Set((await allPlaces()).filter((p) => p.parent === parent).map((p) => p.code));
      return new Map([...all].filter(([region]) => inside.has(region)));
    },
    async place(code) {
      return (await allPlaces()).find((p) => p.code === code) ?? null;
    },
    async places(kind, parent) {
      return (await allPlaces()).filter((p) => p.kind === kind && (parent === undefined || p.parent === parent));
    },
    async unit(code) {
      return once(
        `unit ${code}`,
        async () =>
          (await rows<{ unit: string }>(sql`SELECT unit FROM indicators WHERE code = ${code} LIMIT 1`))[0]?.unit ??
          null,
      );
    },
    async flows(region, direction) {
      return once(`flows ${region} ${direction}`, async () =>
        (
          await rows<{
            origin_code: string;
            destination_code: string;
            measure: string;
            dataset: string;
            period_start: string;
            period_end: string;
            value: number;
          }>(
            direction === "out"
              ? sql`SELECT origin_code, destination_code, measure, dataset, period_start::text, period_end::text, value FROM flows WHERE origin_code = ${region} AND value IS NOT NULL`
              : sql`SELECT origin_code, destination_code, measure, dataset, period_start::text, period_end::text, value FROM flows WHERE destination_code = ${region} AND value IS NOT NULL`,
          )
        ).map(
          (r): FlowRow => ({
            origin: r.origin_code,
            destination: r.destination_code,
            measure: r.measure,
            dataset: r.dataset,
            periodStart: r.period_start,
            periodEnd: r.period_end,
            value: Number(r.value),
          }),
        ),
      );
    },
  };
}
