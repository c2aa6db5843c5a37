// The database thread's two lanes (db/pglite-host.ts): a request's statement takes the next turn before background
// work's (jobs, admin commands, the first start's detection), one statement or transaction at a time; what belongs to
// an open transaction runs at once; background work is marked by the client (RemotePglite's lane, background(fn)).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { PGlite } from "@electric-sql/pglite";
import { pgliteHost, type PgliteHost } from "../../db/pglite-host";
import { inBackground, RemotePglite, type PgRequest } from "../../db/pglite-remote";

let pg: PGlite;

beforeAll(async () => {
  pg = new PGlite();
  await pg.waitReady;
  await pg.exec("create table log (n serial primary key, who text)");
});
afterAll(() => pg.close());

/** A host on `pg` and a client of it (as the server's thread has), recording each request's lane as it arrives. */
function setUp() {
  const seen: Array<{ op: string; lane: string }> = [];
  let remote!: RemotePglite;
  const host: PgliteHost = pgliteHost(pg, (m) => {
    if ("pg" in m) queueMicrotask(() => remote.reply(m.pg));
  });
  const port = {
    post: (m: { pg: PgRequest }) => {
      seen.push({ op: m.pg.op, lane: m.pg.lane ?? "request" });
      // Delivered after the caller's turn, as from another thread, but before the event loop moves on: the order
      // the host sees is the order of the calls.
      queueMicrotask(() => host.handle(m.pg));
    },
  };
  remote = new RemotePglite(port);
  return { host, remote, seen };
}

/** Records `who` in the log table: the order of the rows is the order the statements ran in. */
const mark = (client: Pick<RemotePglite, "query">, who: string) =>
  client.query("insert into log (who) values ($1)", [who]);
async function ranInOrder(): Promise<string[]> {
  const r = await pg.query<{ who: string }>("delete from log returning n, who");
  return r.rows.sort((a: any, b: any) => a.n - b.n).map((x) => x.who);
}

describe("two lanes", () => {
  test("a request's statement runs before background work queued earlier", async () => {
    const { host, remote } = setUp();
    const background = host.background();
    // Twenty background statements queued, then one request's: it waits for one background statement at most.
    const jobs = Array.from({ length: 20 }, (_, i) => mark(background, `job${i}`));
    // The request comes once background work has begun (the first job answered), with 19 jobs still waiting.
    await jobs[0];
    const request = mark(remote, "request");
    await Promise.all([...jobs, request]);
    const order = await ranInOrder();
    expect(order).toHaveLength(21);
    expect(order.indexOf("request")).toBe(1);
    // Background work keeps its own order.
    expect(order.filter((w) => w !== "request")).toEqual(Array.from({ length: 20 }, (_, i) => `job${i}`));
  });

  test("without background work, requests run in the order they came", async () => {
    const { remote } = setUp();
    await Promise.all(Array.from({ length: 10 }, (_, i) => mark(remote, `r${i}`)));
    expect(await ranInOrder()).toEqual(Array.from({ length: 10 }, (_, i) => `r${i}`));
  });

  test("a background transaction holds its turn until it ends; then requests go first", async () => {
    const { host, remote } = setUp();
    const background = host.background();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const tx = background.transaction(async (t) => {
      await t.query("insert into log (who) values ('tx-start')");
      await held;
      await t.query("insert into log (who) values ('tx-end')");
    });
    await new Promise((r) => setTimeout(r, 20));
    const afterTx = mark(background, "job-after");
    let answered = false;
    const request = mark(remote, "request").then(() => (answered = true));
    await new Promise((r) => setTimeout(r, 20));
    // Nothing else runs inside the transaction's turn.
    expect(answered).toBe(false);
    release();
    await Promise.all([tx, afterTx, request]);
    expect(await ranInOrder()).toEqual(["tx-start", "tx-end", "request", "job-after"]);
  });

  test("a failed statement answers with its error and frees the turn", async () => {
    const { remote } = setUp();
    await expect(remote.query("select * from no_such_table")).rejects.toThrow(/no_such_table/);
    await mark(remote, "after");
    expect(await ranInOrder()).toEqual(["after"]);
  });

  test("a rolled-back transaction frees the turn", async () => {
    const { remote } = setUp();
    await expect(
      remote.transaction(async (t) => {
        await t.query("insert into log (who) values ('rolled back')");
        throw new Error("stop");
      }),
    ).rejects.toThrow("stop");
    await mark(remote, "next");
    expect(await ranInOrder()).toEqual(["next"]);
  });

  test("paused, nothing new runs until resumed; then requests first", async () => {
    const { host, remote } = setUp();
    await host.pause();
    const background = host.background();
    const job = mark(background, "job");
    await new Promise((r) => setTimeout(r, 5));
    const request = mark(remote, "request");
    let answered = 0;
    void job.then(() => answered++);
    void request.then(() => answered++);
    await new Promise((r) => setTimeout(r, 20));
    expect(answered).toBe(0);
    host.resume();
    await Promise.all([job, request]);
    expect(await ranInOrder()).toEqual(["request", "job"]);
  });
});

describe("marking background work", () => {
  test("statements made inside background(fn), across awaits, are marked; others are not", async () => {
    const { remote, seen } = setUp();
    await remote.query("select 1");
    await remote.background(async () => {
      await remote.query("select 2");
      await new Promise((r) => setTimeout(r, 1));
      await remote.transaction(async (t) => void (await t.query("select 3")));
    });
    await remote.query("select 4");
    expect(seen.map((s) => `${s.op}:${s.lane}`)).toEqual([
      "query:request",
      "query:background",
      "begin:background",
      "query:background",
      "end:background",
      "query:request",
    ]);
  });

  test("a client made for background work marks every statement", async () => {
    const seen: string[] = [];
    const host = pgliteHost(pg, () => {});
    const client = new RemotePglite(
      {
        post: (m) => {
          seen.push(m.pg.lane ?? "request");
          host.handle(m.pg, (r) => queueMicrotask(() => client.reply(r)));
        },
      },
      { lane: "background" },
    );
    await client.query("select 1");
    await client.exec("select 2");
    expect(seen).toEqual(["background", "background"]);
  });

  test("inBackground marks a remote client's statements and simply runs fn on any other database", async () => {
    const { remote, seen } = setUp();
    await inBackground({ raw: { kind: "pglite", client: remote } }, () => remote.query("select 1"));
    expect(seen.at(-1)).toEqual({ op: "query", lane: "background" });
    expect(await inBackground({ raw: { kind: "postgres" } }, async () => 42)).toBe(42);
  });
});
