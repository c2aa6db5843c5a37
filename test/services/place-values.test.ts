// Every place's value at one date (src/services/place-values.ts), kept per catalog series token: a write of one of
// the indicator's series through the write path shows at the next read, another process's write (raw SQL here)
// after the revalidation bound and not before, and a write to another indicator keeps what was read.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { indicatorId } from "../../db/seed/catalog";
import { commonDate, placeValues } from "../../src/services/place-values";
import { makeTestApp, type TestApp } from "../support/app";
import { writeSeries } from "../support/series";

setDefaultTimeout(120_000);

let t: TestApp;
let clock = 0;
const scope = { indicatorId: indicatorId("bls", "LASST03"), regionType: "state", parentCode: null };
const store = () => ({ db: t.database.db, caches: t.deps.caches });
const valueOf = async (region: string, date: string) =>
  (await placeValues(store(), scope, date)).find((v) => v.region === region)?.value;

beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(() => t?.close());

describe("place values follow the indicator's series", () => {
  test("the 50 states and DC at the period most of them hold; a write through the write path shows at the next read", async () => {
    const common = (await commonDate(store(), scope))!;
    expect(common.held).toBe(51);
    const before = await valueOf("06", common.date);
    expect(typeof before).toBe("number");
    expect(await placeValues(store(), scope, common.date)).toBe(await placeValues(store(), scope, common.date));
    // Another indicator written: what was read is kept (the same array, no read).
    const kept = await placeValues(store(), scope, common.date);
    await writeSeries(t.database.db, "bls", "LASST04", "06", [[common.date, 1_000_000]]);
    expect(await placeValues(store(), scope, common.date)).toBe(kept);
    await writeSeries(t.database.db, "bls", "LASST03", "06", [[common.date, 19.9]]);
    expect(await valueOf("06", common.date)).toBe(19.9);
    const ranked = await t.request(
      `/v1/ask?${new URLSearchParams({ q: "Which state has the highest unemployment rate?" })}`,
    );
    expect(((await ranked.json()) as { answer: string }).answer).toStartWith(
      "California had the highest unemployment rate of the 50 states and DC",
    );
  });

  test("another process's write: not before the revalidation bound, at it", async () => {
    t.deps.caches.catalog.configure({ revalidateMs: 1000, crossProcess: true, now: () => clock });
    clock = 0;
    const { date } = (await commonDate(store(), scope))!;
    expect(await valueOf("48", date)).not.toBe(12.5);
    // Raw SQL does not pass the write path's notices: to this process it is another process's write.
    await t.database.exec(
      `UPDATE observations SET value = 12.5 FROM series s WHERE s.id = observations.series_id AND s.indicator_id = '${scope.indicatorId}' AND s.region_code = '48' AND observations.date = '${date}' AND observations.is_latest`,
    );
    await t.database.exec(
      `UPDATE series SET version = version + 1 WHERE indicator_id = '${scope.indicatorId}' AND region_code = '48'`,
    );
    clock = 999;
    expect(await valueOf("48", date)).not.toBe(12.5);
    clock = 1000;
    expect(await valueOf("48", date)).toBe(12.5);
  });
});
