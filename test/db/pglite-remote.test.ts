// The embedded database on a thread of its own (db/pglite-remote.ts, db/pglite-host.ts): what drizzle, the bulk
// loader and the job engine ask of PGlite, answered by a PGlite on another thread, values and errors as PGlite gives
// them; the host held still between statements and transactions, never inside one.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { sql } from "drizzle-orm";
import { embeddedDatabase, migrate, type Database } from "../../db/client";
import { RemotePglite } from "../../db/pglite-remote";
import { upsertRegions } from "../../db/repos/regions";
import { regions } from "../../db/schema";

setDefaultTimeout(60_000);

let worker: Worker;
let remote: RemotePglite;
let control: (m: unknown) => void = () => {};

beforeAll(async () => {
  worker = new Worker(new URL("../fixtures/pglite-thread.ts", import.meta.url).href);
  remote = new RemotePglite({ post: (m) => worker.postMessage(m) });
  await new Promise<void>((ready) => {
    worker.onmessage = (e: MessageEvent) => {
      const m = e.data;
      if (m.pg) remote.reply(m.pg);
      else if (m.pgNotify) remote.notify(m.pgNotify);
      else if (m.ready) ready();
      else control(m);
    };
  });
  await remote.exec("create table t (id int primary key, d date, at timestamptz, v float8, tags text[], doc jsonb)");
});
afterAll(() => worker.terminate());

describe("statements", () => {
  test("parameters in, values out as PGlite parses them (dates, arrays, json, numbers)", async () => {
    await remote.query("insert into t values ($1, $2, $3, $4, $5, $6)", [
      1,
      "2026-05-01",
      new Date("2026-05-01T12:00:00Z"),
      4.3,
      ["a", "b"],
      { k: 1 },
    ]);
    const r = await remote.query<{ id: number; d: Date; at: Date; v: number; tags: string[]; doc: unknown }>(
      "select * from t where id = $1",
      [1],
    );
    expect(r.rows).toEqual([
      {
        id: 1,
        d: new Date("2026-05-01T00:00:00Z"),
        at: new Date("2026-05-01T12:00:00Z"),
        v: 4.3,
        tags: ["a", "b"],
        doc: { k: 1 },
      },
    ]);
    expect(r.fields.map((f) => f.name)).toEqual(["id", "d", "at", "v", "tags", "doc"]);
  });

  test("a caller's own parsers get PGlite's text (drizzle keeps dates as text), in object and array rows", async () => {
    const parsers = { 1082: (v: string) => `date:${v}`, 1184: (v: string) => `ts:${v}` };
    const objects = await remote.query<Record<string, unknown>>("select d, at, v from t where id = 1", [], { parsers });
    expect(objects.rows).toEqual([{ d: "date:2026-05-01", at: "ts:2026-05-01 12:00:00+00", v: 4.3 }]);
    const arrays = await remote.query<unknown[]>("select d, v from t where id = 1", [], { rowMode: "array", parsers });
    expect(arrays.rows).toEqual([["date:2026-05-01", 4.3]]);
  });

  test("exec runs several statements, one result each", async () => {
    const results = await remote.exec("select 1 as a; select 2 as b");
    expect(results.map((r) => r.rows)).toEqual([[{ a: 1 }], [{ b: 2 }]]);
  });

  test("an error keeps PGlite's fields: the SQLSTATE and the detail", async () => {
    const e = (await remote.query("insert into t (id) values (1)").catch((x) => x)) as Error & {
      code?: string;
      detail?: string;
    };
    expect(e).toBeInstanceOf(Error);
    expect(e.code).toBe("23505");
    expect(e.detail).toBe("Key (id)=(1) already exists.");
  });

  test("COPY from a blob", async () => {
    await remote.query("copy t (id, v) from '/dev/blob' with (format csv)", [], {
      blob: new Blob(["10,1.5\n11,2.5\n"]),
    });
    expect((await remote.query("select id, v from t where id >= 10 order by id")).rows).toEqual([
      { id: 10, v: 1.5 },
      { id: 11, v: 2.5 },
    ]);
  });
});

describe("transactions", () => {
  test("committed when the callback returns; rolled back when it throws or rolls back", async () => {
    await remote.transaction(async (tx) => {
      await tx.query("insert into t (id) values (20)");
      await tx.query("insert into t (id) values (21)");
    });
    // Awaited, not through expect().rejects: that waits without taking the worker's messages.
    const thrown = await remote
      .transaction(async (tx) => {
        await tx.query("insert into t (id) values (22)");
        throw new Error("changed my mind");
      })
      .catch((e: Error) => e);
    expect((thrown as Error).message).toBe("changed my mind");
    await remote.transaction(async (tx) => {
      await tx.query("insert into t (id) values (23)");
      await tx.rollback();
      expect(tx.closed).toBe(true);
    });
    expect((await remote.query("select id from t where id between 20 and 23 order by id")).rows).toEqual([
      { id: 20 },
      { id: 21 },
    ]);
  });

  test("statements from outside a transaction wait for it to end (one connection)", async () => {
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const tx = remote.transaction(async (t) => {
      await t.query("insert into t (id) values (30)");
      order.push("in transaction");
      await held;
    });
    await Bun.sleep(50);
    const outside = remote
      .query("select count(*)::int as n from t where id = 30")
      .then((r) => order.push(`outside sees ${(r.rows[0] as { n: number }).n}`));
    await Bun.sleep(50);
    order.push("releasing");
    release();
    await Promise.all([tx, outside]);
    expect(order).toEqual(["in transaction", "releasing", "outside sees 1"]);
  });
});

describe("held still", () => {
  test("a transaction under way ends while the host pauses; new statements wait for resume", async () => {
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const tx = remote.transaction(async (t) => {
      await held;
      await t.query("insert into t (id) values (40)");
      order.push("transaction ended");
    });
    await Bun.sleep(50);
    const paused = new Promise<void>((resolve) => (control = (m: any) => m.paused && resolve()));
    worker.postMessage({ pause: true });
    release();
    await paused;
    order.push("paused");
    const waiting = remote.query("select 1").then(() => order.push("statement after resume"));
    await Bun.sleep(100);
    order.push("resuming");
    worker.postMessage({ resume: true });
    await Promise.all([tx, waiting]);
    expect(order).toEqual(["transaction ended", "paused", "resuming", "statement after resume"]);
  });
});

describe("drizzle over the remote client", () => {
  let database: Database;
  beforeAll(async () => {
    database = embeddedDatabase(remote, async () => {});
    await migrate(database.db);
  });

  test("migrates, writes in a transaction and reads typed rows; write events reach this thread's listeners", async () => {
    const heard: number[] = [];
    database.events.onCatalogWritten(() => heard.push(1));
    await database.db.transaction(async (tx) => {
      await upsertRegions(tx as never, [
        { code: "ZZ", name: "Testland", slug: "testland", type: "country", parentCode: null, aliases: [] } as never,
      ]);
      // Told when the transaction commits, not before.
      expect(heard).toEqual([]);
    });
    expect(heard).toEqual([1]);
    const rows = await database.db
      .select({ code: regions.code, name: regions.name })
      .from(regions)
      .where(sql`${regions.code} = 'ZZ'`);
    expect(rows).toEqual([{ code: "ZZ", name: "Testland" }]);
    expect(await database.ping()).toBe(true);
  });

  test("LISTEN/NOTIFY through the remote client", async () => {
    const payloads: string[] = [];
    const unlisten = await remote.listen("svc_test_channel", (p) => payloads.push(p));
    await remote.query("select pg_notify('svc_test_channel', 'hello')");
    for (let i = 0; i < 50 && payloads.length === 0; i++) await Bun.sleep(10);
    expect(payloads).toEqual(["hello"]);
    await unlisten();
  });
});
