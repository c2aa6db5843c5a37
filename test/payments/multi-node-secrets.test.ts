// test-tier: database (nodes share secrets through the database)
// Nodes on one database share their payment secrets (src/services/payment-secrets.ts): two nodes on default settings
// each generated their own L402 root key and x402 pay-to address, so a paid retry that landed on the other node was
// refused. Here two nodes are built by the server's own bootstrap (buildDeps) on one database (PostgreSQL with
// TEST_DATABASE_URL), each with a DATA_DIR of its own: the second adopts the first's generated secrets, an L402 token
// bought from one is honoured by the other, and a node whose configured secret differs refuses to start and says so.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodeBase64Json } from "payments";
import { findPaymentSecret } from "../../db/repos/payments";
import type { Database } from "../../db/client";
import { createApp } from "../../src/app";
import { buildDeps } from "../../src/bootstrap";
import { loadConfig } from "../../src/config";
import type { Deps } from "../../src/deps";
import { decideSecret } from "../../src/domain/payment-secrets";
import { devLightningNode } from "../../src/payments";
import { makeTestDatabase } from "../support/db";
import { APERTURE_CHALLENGE } from "../support/payments";

setDefaultTimeout(120_000);

const dirs: string[] = [];
const nodes: Deps[] = [];
let database: Database;
const env = (dataDir: string, extra: Record<string, string> = {}) =>
  loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: "error",
    X402_RPC_URL: "http://127.0.0.1:9",
    X402_FACILITATOR_URL: "http://127.0.0.1:9",
    PUBLIC_BASE_URL: "https://api.example.test",
    ...extra,
  });
async function node(extra: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), "svc-node-"));
  dirs.push(dir);
  const config = env(dir, extra);
  const deps = await buildDeps(config, { database });
  nodes.push(deps);
  return { config, deps, app: createApp(deps), dir };
}

beforeAll(async () => {
  database = await makeTestDatabase();
});
afterAll(async () => {
  for (const d of nodes) await d.keys.close();
  await database?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const EXAMPLE = "/v1/observations?indicator=PAYEMS&region=US";

describe("two nodes on one database, default settings", () => {
  let a: Awaited<ReturnType<typeof node>>;
  let b: Awaited<ReturnType<typeof node>>;
  beforeAll(async () => {
    a = await node();
    b = await node();
  });

  test("the second node adopts the first's generated root key and pay-to address (its own files are left alone)", async () => {
    const rootA = readFileSync(join(a.dir, "l402-root-key"), "utf8").trim();
    const rootB = readFileSync(join(b.dir, "l402-root-key"), "utf8").trim();
    expect(rootB).not.toBe(rootA);
    expect((await findPaymentSecret(database.db, "l402_root_key"))?.value).toBe(rootA);
    const payTo = async (app: typeof a.app) =>
      (decodeBase64Json((await app.request(EXAMPLE)).headers.get("payment-required")!) as any).accepts[0].payTo;
    const payToA = JSON.parse(readFileSync(join(a.dir, "x402-pay-to.json"), "utf8")).address;
    expect(await payTo(a.app)).toBe(payToA);
    expect(await payTo(b.app)).toBe(payToA);
  });

  test("an L402 token bought from one node is honoured by the other, once", async () => {
    const challenge = (await a.app.request(EXAMPLE)).headers.get("www-authenticate")!;
    const [, , macaroon, invoice] = APERTURE_CHALLENGE.exec(challenge)!;
    const paid = devLightningNode(a.config, a.deps).pay(invoice!);
    if (!paid.ok) throw new Error(paid.message);
    const retry = await b.app.request(EXAMPLE, { headers: { authorization: `L402 ${macaroon}:${paid.preimage}` } });
    expect(retry.status).toBe(200);
    const replay = await a.app.request(EXAMPLE, { headers: { authorization: `L402 ${macaroon}:${paid.preimage}` } });
    expect(replay.status).toBe(402);
  });

  test("a node whose configured root key differs from the database's record refuses to start, naming the setting", async () => {
    // The operator's key replaces the generated record: the first configured node records it.
    const key = "ab".repeat(32);
    await node({ L402_ROOT_KEY: key });
    expect(await findPaymentSecret(database.db, "l402_root_key")).toMatchObject({ origin: "configured", value: null });
    await expect(node({ L402_ROOT_KEY: "cd".repeat(32) })).rejects.toThrow(
      "L402_ROOT_KEY differs from the one the other nodes on this database use",
    );
    // A node left on its generated key is refused too; one rotating (the new key first, the old after) moves the record.
    await expect(node()).rejects.toThrow("the other nodes on this database use a configured L402_ROOT_KEY");
    await node({ L402_ROOT_KEY: `${"ef".repeat(32)},${key}` });
    expect((await findPaymentSecret(database.db, "l402_root_key"))!.fingerprint).toBe(
      new Bun.CryptoHasher("sha256").update("ef".repeat(32)).digest("hex"),
    );
  });

  test("a configured pay-to address that differs is refused, with both addresses", async () => {
    await node({ X402_PAY_TO: "0x1111111111111111111111111111111111111111", L402_ROOT_KEY: "ef".repeat(32) });
    await expect(
      node({ X402_PAY_TO: "0x2222222222222222222222222222222222222222", L402_ROOT_KEY: "ef".repeat(32) }),
    ).rejects.toThrow(
      "X402_PAY_TO differs from the one the other nodes on this database use (theirs 0x1111111111111111111111111111111111111111, this node's 0x2222222222222222222222222222222222222222): set the same X402_PAY_TO on every node.",
    );
  });
});

describe("decideSecret", () => {
  const gen = (f: string) => ({ origin: "generated" as const, fingerprint: f, value: `v-${f}` });
  const conf = (...f: string[]) => ({ origin: "configured" as const, fingerprints: f, value: null });
  test("nothing recorded: record this node's", () => {
    expect(decideSecret("l402_root_key", null, gen("a"))).toEqual({
      kind: "record",
      record: { origin: "generated", fingerprint: "a", value: "v-a" },
    });
    expect(decideSecret("l402_root_key", null, conf("k", "old"))).toEqual({
      kind: "record",
      record: { origin: "configured", fingerprint: "k", value: null },
    });
  });
  test("generated: adopt a generated record; use one's own; refuse under a configured record", () => {
    expect(decideSecret("l402_root_key", gen("a"), gen("b"))).toEqual({ kind: "adopt", value: "v-a" });
    expect(decideSecret("l402_root_key", gen("a"), gen("a"))).toEqual({ kind: "use" });
    expect(decideSecret("l402_root_key", { origin: "configured", fingerprint: "k", value: null }, gen("a")).kind).toBe(
      "refuse",
    );
  });
  test("configured: equal is used; the record among older keys or generated is replaced; else refused", () => {
    const rec = { origin: "configured" as const, fingerprint: "k", value: null };
    expect(decideSecret("l402_root_key", rec, conf("k"))).toEqual({ kind: "use" });
    expect(decideSecret("l402_root_key", rec, conf("n", "k")).kind).toBe("record");
    expect(decideSecret("l402_root_key", gen("a"), conf("n")).kind).toBe("record");
    expect(decideSecret("l402_root_key", rec, conf("x", "y")).kind).toBe("refuse");
  });
});
