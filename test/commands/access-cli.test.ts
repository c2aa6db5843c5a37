// The operator CLI for keys, subscriptions and mail, run in-process on an embedded database directory
// (the same services as the API; the HTTP tests cover both database backends).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, spyOn, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig, type Config } from "../../src/config";
import { keysCommand } from "../../src/commands/keys";
import { subscriptionsCommand } from "../../src/commands/subscriptions";
import { mailCommand } from "../../src/commands/mail";
import { CliError } from "../../src/commands/cli-error";
import { authenticateKey } from "../../src/services/key-auth";
import { openDatabase } from "../../db/client";
import { sql } from "drizzle-orm";
import { systemClock } from "../../src/deps";
import { createKeyRuntime } from "../../src/services/key-runtime";
import { createLogger } from "../../src/logger";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

let dir: string;
let config: Config;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "svc-cli-"));
  config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: "silent", PUBLIC_BASE_URL: "https://api.example.test" });
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function run(cmd: { run(a: string[], c: Config): Promise<void> }, args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const log = spyOn(console, "log").mockImplementation((...a: unknown[]) => void out.push(a.join(" ")));
  const error = spyOn(console, "error").mockImplementation((...a: unknown[]) => void err.push(a.join(" ")));
  try {
    await cmd.run(args, config);
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
  return { out: out.join("\n"), err: err.join("\n") };
}

async function lookup(key: string) {
  const database = await openDatabase({ dataDir: dir });
  const keys = createKeyRuntime({ database, logger: createLogger("silent"), redisUrl: null });
  try {
    return await authenticateKey({ database, clock: systemClock, keys }, key);
  } finally {
    await keys.close();
    await database.close();
  }
}

describe("svc keys / subscriptions / mail", () => {
  test("keys create prints the key once; plan, scope, limit, regions and test mode are applied", async () => {
    const r = await run(keysCommand, [
      "create",
      "--plan",
      "free",
      "--scope",
      "svc-premium",
      "--rate-limit",
      "5",
      "--regions",
      "06,US",
      "--test",
      "--email",
      "ops@example.com",
    ]);
    expect(r.out).toMatch(/^svc_test_[A-Za-z0-9_-]{32}$/);
    expect(r.err).toContain("5 requests/min, scopes svc-premium, regions 06,US");
    const auth = await lookup(r.out);
    expect(auth).toMatchObject({
      ok: true,
      expired: null,
      key: { plan: "free", mode: "test", scopes: ["svc-premium"], rateLimitPerMinute: 5, allowedRegions: ["06", "US"] },
    });
  }, 60_000);

  test("bad arguments are one-line errors", async () => {
    await expect(run(keysCommand, ["create", "--plan", "gold"])).rejects.toThrow(CliError);
    await expect(run(keysCommand, ["create", "--plan", "free", "--rate-limit", "0"])).rejects.toThrow(
      "--rate-limit must be a positive integer",
    );
    await expect(run(keysCommand, ["create", "--plan", "free", "--expires", "2020-01-01"])).rejects.toThrow(
      "--expires 2020-01-01 is not in the future (now ",
    );
    // A minute ahead is accepted.
    expect(
      (await run(keysCommand, ["create", "--plan", "free", "--expires", new Date(Date.now() + 60_000).toISOString()]))
        .err,
    ).toContain(", expires ");
    await expect(run(subscriptionsCommand, ["create", "--plan", "free", "--email", "a@b.co"])).rejects.toThrow(
      "--plan must be one of developer, professional",
    );
    await expect(run(subscriptionsCommand, ["end", "--id", "nope"])).rejects.toThrow(CliError);
  });

  test("subscriptions create -> fail-payment -> pay -> end, with mail in the local outbox", async () => {
    const created = await run(subscriptionsCommand, [
      "create",
      "--plan",
      "developer",
      "--email",
      "Billing@Example.com",
    ]);
    const key = created.out;
    expect(key).toMatch(/^svc_live_/);
    const id = /subscription ([0-9a-f-]{36})/.exec(created.err)![1]!;
    expect(created.err).toContain("billed to billing@example.com");
    expect(await lookup(key)).toMatchObject({
      ok: true,
      key: { plan: "developer", rateLimitPerMinute: 300, unrestricted: true, subscription: { state: "active" } },
    });

    const failed = await run(subscriptionsCommand, ["fail-payment", "--id", id]);
    expect(failed.out).toContain("payment failed; the key works until");
    expect((await run(subscriptionsCommand, ["pay", "--id", id])).out).toContain("state active");
    const listed = await run(subscriptionsCommand, ["list", "--email", "billing@example.com"]);
    expect(listed.out).toContain(`id=${id}`);
    expect(listed.out).toContain("state=active");

    const ended = await run(subscriptionsCommand, ["end", "--id", id]);
    expect(ended.out).toContain(`subscription ${id} ended; key revoked; overage`);
    expect(await lookup(key)).toEqual({ ok: false, revoked: true });
    expect((await run(subscriptionsCommand, ["end", "--id", id])).out).toContain("had already ended");
    await expect(run(subscriptionsCommand, ["fail-payment", "--id", id])).rejects.toThrow("has ended");

    const mail = await run(mailCommand, ["list", "--to", "billing@example.com"]);
    expect(mail.out).toContain("Subject: Payment failed: your key keeps working for 7 days");
    expect(mail.out).toContain("Subject: Your subscription has ended");
    expect(mail.out.indexOf("Payment failed")).toBeLessThan(mail.out.indexOf("has ended"));
    expect(mail.out).toContain("[stored]");
  }, 60_000);

  test("subscriptions invoice --month: the month's overage once per subscription, by email for operator subscriptions", async () => {
    const created = await run(subscriptionsCommand, [
      "create",
      "--plan",
      "developer",
      "--email",
      "overage@example.com",
    ]);
    const id = /subscription ([0-9a-f-]{36})/.exec(created.err)![1]!;
    // A subscription that ran through October 2026 with 100,500 requests (500 over at 0.50 per 1,000 = USD 0.25).
    const database = await openDatabase({ dataDir: dir });
    await database.db.execute(sql`update subscriptions set started_at = '2026-09-10T00:00:00Z' where id = ${id}`);
    await database.db.execute(
      sql`insert into key_usage (key_id, month, requests) select key_id, '2026-10', 100500 from subscriptions where id = ${id}`,
    );
    await database.close();

    const done = await run(subscriptionsCommand, ["invoice", "--month", "2026-10"]);
    expect(done.out).toContain(
      `subscription_id=${id}  month=2026-10  requests=100500  overage_requests=500  amount_usd=0.25  status=invoiced`,
    );
    expect((await run(subscriptionsCommand, ["invoice", "--month", "2026-10"])).out).toContain(
      "2026-10: nothing to invoice",
    );
    const mail = await run(mailCommand, ["list", "--to", "overage@example.com"]);
    expect(mail.out.match(/Subject: Overage invoice for 2026-10: USD 0.25/g)?.length).toBe(1);

    const thisMonth = new Date().toISOString().slice(0, 7);
    await expect(run(subscriptionsCommand, ["invoice", "--month", thisMonth])).rejects.toThrow(
      `${thisMonth} is not over yet`,
    );
    for (const bad of [[], ["--month", "2026-13"], ["--month", "October"]]) {
      await expect(run(subscriptionsCommand, ["invoice", ...bad])).rejects.toThrow("--month YYYY-MM");
    }
  }, 60_000);

  test("keys list and revoke", async () => {
    const created = await run(keysCommand, ["create", "--plan", "free", "--email", "jane.doe@example.com"]);
    const id = /\(id ([0-9a-f-]{36})\)/.exec(created.err)![1]!;
    const line = (await run(keysCommand, ["list"])).out.split("\n").find((l) => l.startsWith(`id=${id} `))!;
    // The email masked: enough to tell keys apart, never the whole address.
    expect(line).toStartWith(`id=${id}  hint=svc_live_…${created.out.slice(-4)}  email=j***e@example.com  plan=free`);
    expect((await run(keysCommand, ["revoke", "--id", id])).out).toContain("revoked svc_live_…");
    expect(await lookup(created.out)).toEqual({ ok: false, revoked: true });
  }, 60_000);

  test("keys set-plan, rotate and usage: the key keeps its id, usage and history; a subscription's key follows its subscription", async () => {
    const created = await run(keysCommand, ["create", "--plan", "free", "--rate-limit", "7"]);
    const id = /\(id ([0-9a-f-]{36})\)/.exec(created.err)![1]!;
    const month = new Date().toISOString().slice(0, 7);
    const database = await openDatabase({ dataDir: dir });
    await database.db.execute(sql`insert into key_usage (key_id, month, requests) values (${id}, ${month}, 120500)`);
    await database.close();

    expect((await run(keysCommand, ["set-plan", "--id", id, "--plan", "developer"])).out).toBe(
      `key svc_live_…${created.out.slice(-4)}: plan Free -> Developer, 300 requests/min`,
    );
    expect(await lookup(created.out)).toMatchObject({
      ok: true,
      key: { id, plan: "developer", rateLimitPerMinute: 300, unrestricted: true },
    });
    expect((await run(keysCommand, ["usage", "--id", id])).out).toBe(
      `key svc_live_…${created.out.slice(-4)} ${month}: 120500 requests; plan Developer (100000 included, 20500 overage), 300 requests/min, active`,
    );
    expect(
      (await run(keysCommand, ["set-plan", "--id", id, "--plan", "professional", "--rate-limit", "5"])).out,
    ).toEndWith("plan Developer -> Professional, 5 requests/min");
    expect((await run(keysCommand, ["usage", "--id", id, "--month", "2020-01"])).out).toContain(
      " 2020-01: 0 requests; plan Professional (1000000 included, 0 overage)",
    );

    const rotated = await run(keysCommand, ["rotate", "--id", id]);
    expect(rotated.out).toMatch(/^svc_live_[A-Za-z0-9_-]{32}$/);
    expect(rotated.err).toBe(
      `key svc_live_…${rotated.out.slice(-4)} replaces svc_live_…${created.out.slice(-4)}, which no longer works. Shown once: only its hash is stored.`,
    );
    expect(await lookup(created.out)).toEqual({ ok: false });
    expect(await lookup(rotated.out)).toMatchObject({ ok: true, key: { id, plan: "professional" } });
    expect((await run(keysCommand, ["usage", "--id", id])).out).toContain(`: 120500 requests;`);

    const sub = await run(subscriptionsCommand, ["create", "--plan", "developer", "--email", "plan@example.com"]);
    const subKeyId = (await run(keysCommand, ["list"])).out
      .split("\n")
      .find((l) => l.includes(sub.out.slice(-4)))!
      .match(/^id=(\S+)/)![1]!;
    await expect(run(keysCommand, ["set-plan", "--id", subKeyId, "--plan", "free"])).rejects.toThrow(
      /pays subscription [0-9a-f-]{36}: its plan follows the subscription's/,
    );

    await run(keysCommand, ["revoke", "--id", id]);
    await expect(run(keysCommand, ["set-plan", "--id", id, "--plan", "free"])).rejects.toThrow("is revoked");
    await expect(run(keysCommand, ["rotate", "--id", id])).rejects.toThrow("is revoked");
    await expect(run(keysCommand, ["usage", "--id", "00000000-0000-4000-8000-000000000000"])).rejects.toThrow(
      "no key 00000000-0000-4000-8000-000000000000",
    );
    await expect(run(keysCommand, ["set-plan", "--id", "nope", "--plan", "free"])).rejects.toThrow(
      "--id must be a key id",
    );
    await expect(run(keysCommand, ["usage", "--id", id, "--month", "2026-13"])).rejects.toThrow(
      "--month must be YYYY-MM",
    );
  }, 60_000);
});
