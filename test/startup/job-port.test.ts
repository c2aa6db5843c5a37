// The job thread's port to the embedded database (src/startup/job-port.ts), on one PGlite in memory with the
// database thread's host (db/pglite-host.ts): the server's client and the job thread's count their ids alike and
// still get their own answers; a job thread that goes away mid-transaction (a crash) does not hold the database, and
// what it wrote there is rolled back, even when its transaction was still waiting to begin.
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from "bun:test";
import { PGlite } from "@electric-sql/pglite";
import { pgliteHost } from "../../db/pglite-host";
import { RemotePglite, type PgNotification, type PgReply, type PgRequest } from "../../db/pglite-remote";
import { jobPorts, type JobPorts } from "../../src/startup/job-port";

type Sent = { pg: PgReply } | { pgNotify: PgNotification };

let client: PGlite;
let ports: JobPorts;
let server: RemotePglite;
let jobs: RemotePglite;
let jobPort: MessagePort;
/** The job thread's requests as they reached the host. */
let seen: PgRequest[];

beforeAll(async () => {
  client = new PGlite();
  await client.exec("create table t (n int)");
});
afterAll(() => client.close());

beforeEach(async () => {
  await client.exec("truncate t");
  seen = [];
  const host = pgliteHost(client, (m: Sent) => {
    if (ports.route(m)) return;
    if ("pg" in m) server.reply(m.pg);
    else server.notify(m.pgNotify);
  });
  server = new RemotePglite({ post: (m) => host.handle(m.pg) });
  ports = jobPorts((request) => {
    if (request.id < 0) seen.push(request);
    host.handle(request);
  });
  const { port1, port2 } = new MessageChannel();
  ports.attach(port1);
  jobPort = port2;
  jobs = new RemotePglite({ post: (m) => port2.postMessage(m) }, { lane: "background" });
  port2.onmessage = (event) => {
    const m = event.data as Sent;
    if ("pg" in m) jobs.reply(m.pg);
    else jobs.notify(m.pgNotify);
  };
});
afterEach(() => {
  ports.detach();
  jobPort.close();
});

const arrived = async (op: PgRequest["op"]) => {
  while (!seen.some((r) => r.op === op)) await Bun.sleep(1);
};

test("both clients count ids from 1 and each gets its own answers", async () => {
  const answers = await Promise.all([
    server.query<{ n: number }>("select 1 as n"),
    jobs.query<{ n: number }>("select 2 as n"),
    server.query<{ n: number }>("select 3 as n"),
    jobs.query<{ n: number }>("select 4 as n"),
  ]);
  expect(answers.map((r) => r.rows[0]!.n)).toEqual([1, 2, 3, 4]);
  // In the background lane, with the ids negated on the way in.
  expect(seen.slice(0, 2).map((r) => [r.id, r.lane])).toEqual([
    [-1, "background"],
    [-2, "background"],
  ]);
  const inTransaction = await jobs.transaction(async (tx) => {
    await tx.query("insert into t values (5)");
    return (await tx.query<{ n: number }>("select n from t")).rows.map((r) => r.n);
  });
  expect(inTransaction).toEqual([5]);
  expect((await server.query<{ n: number }>("select n from t")).rows).toEqual([{ n: 5 }]);
});

test("a job thread gone mid-transaction: its transaction is rolled back and the database answers the server again", async () => {
  let inside!: () => void;
  const begun = new Promise<void>((resolve) => (inside = resolve));
  // The job thread's transaction never ends: its thread is gone before it could.
  void jobs
    .transaction(async (tx) => {
      await tx.query("insert into t values (1)");
      inside();
      await new Promise(() => {});
    })
    .catch(() => {});
  await begun;
  // Waits behind the open transaction until the port is let go of (without that, for ever).
  const read = server.query<{ n: number }>("select count(*)::int as n from t");
  ports.detach();
  expect((await read).rows).toEqual([{ n: 0 }]);
});

test("a job thread gone while its transaction waited to begin: it is ended once it begins", async () => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let serverInside!: () => void;
  const serverBegun = new Promise<void>((resolve) => (serverInside = resolve));
  const serverTx = server.transaction(async (tx) => {
    await tx.query("insert into t values (7)");
    serverInside();
    await held;
  });
  await serverBegun;
  // The job thread asks for a transaction while the server's holds the database, then is gone.
  void jobs.transaction(async (tx) => void (await tx.query("insert into t values (8)"))).catch(() => {});
  await arrived("begin");
  ports.detach();
  release();
  await serverTx;
  // Its begin was answered after the server's transaction and ended at once: the database answers again.
  expect((await server.query<{ n: number }>("select n from t order by n")).rows).toEqual([{ n: 7 }]);
});
