// The CLI's manners: a command prints its own output and no log line unless --verbose; every command and
// subcommand has its own --help naming its options and the environment it reads; nothing is created outside DATA_DIR.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { chmodSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { commands } from "../../src/commands";
import { commandHelp } from "../../src/commands/help";
import { otherRunOnly } from "../support/runs";

setDefaultTimeout(120_000);

// CLI help and output: its processes use embedded data directories of their own (test/support/runs.ts).
const elsewhere = otherRunOnly("embedded", "CLI help and output");

const ROOT = resolve(import.meta.dir, "../..");
let dir: string;
beforeAll(() => {
  if (elsewhere) return;
  dir = mkdtempSync(join(tmpdir(), "svc-cli-manners-"));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function svc(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}) {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(DATABASE_URL|DATA_DIR|LOG_LEVEL|NODE_ENV)$/.test(k)) env[k] = v;
  const proc = Bun.spawn([process.execPath, join(ROOT, "src/cli.ts"), ...args], { cwd: opts.cwd ?? dir, env: { ...env, ...opts.env }, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

describe.skipIf(!!elsewhere)("output", () => {
  test("a command prints only its own output; --verbose adds the log lines", async () => {
    const data = join(dir, "quiet");
    expect(await svc(["keys", "list"], { env: { DATA_DIR: data } })).toEqual({ code: 0, stdout: "(none)\n", stderr: "" });
    const verbose = await svc(["keys", "list", "--verbose"], { env: { DATA_DIR: data } });
    expect(verbose.stdout).toBe("(none)\n");
    expect(verbose.stderr.split("\n").map((l) => (l.startsWith("{") ? JSON.parse(l).msg : l))).toContain("payments");
  });

  test("`keys create` prints the key and its one-line summary, nothing else, after a server left its database files 0666", async () => {
    const data = join(dir, "after-a-server");
    expect((await svc(["keys", "list"], { env: { DATA_DIR: data } })).code).toBe(0);
    // What PGlite does to the files it makes while a server runs (0666 whatever the umask), inside the 0700 DATA_DIR.
    chmodSync(join(data, "pglite", "postgresql.conf"), 0o666);
    const r = await svc(["keys", "create", "--plan", "free"], { env: { DATA_DIR: data } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^svc_live_[A-Za-z0-9_-]{32}\n$/);
    expect(r.stderr).toMatch(/^key svc_live_…\S{4} \(id [0-9a-f-]{36}\): plan Free, 60 requests\/min\. Shown once: only its hash is stored\.\n$/);
  });

  test("`bun run svc` as the README writes it: the command's output only, no echo of the script on stderr", async () => {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(DATABASE_URL|DATA_DIR|LOG_LEVEL|NODE_ENV)$/.test(k)) env[k] = v;
    const proc = Bun.spawn([process.execPath, "run", "svc", "--version"], { cwd: ROOT, env, stdout: "pipe", stderr: "pipe" });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout).toMatch(/^svc \d+\.\d+\.\d+ \(contract \d+\.\d+\.\d+\)\n$/);
  });

  test("`svc dev pay` outside a server's data directory creates nothing", async () => {
    const empty = mkdtempSync(join(dir, "elsewhere-"));
    const r = await svc(["dev", "pay", "lnbcrt1invoice"], { cwd: empty });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("svc dev: no development Lightning invoices in data/lightning-dev: run this with the DATA_DIR of the server that issued the invoice\n");
    expect(readdirSync(empty)).toEqual([]);
  });
});

describe.skipIf(!!elsewhere)("--help", () => {
  test("svc serve --help names PORT and DATA_DIR; svc keys create --help is create's own", async () => {
    const serve = await svc(["serve", "--help"]);
    expect(serve.code).toBe(0);
    expect(serve.stdout).toContain("PORT (default 3000)");
    expect(serve.stdout).toContain("DATA_DIR (default ./data");
    const create = await svc(["keys", "create", "--help"]);
    expect(create.stdout).toStartWith("usage: svc keys create --plan <free|developer|professional>");
    for (const option of ["--plan", "--scope", "--rate-limit", "--email", "--regions", "--expires", "--test"]) expect(create.stdout).toContain(`\n  ${option} `);
    expect(create.stdout).not.toBe((await svc(["keys", "--help"])).stdout);
    // Help never needs (or creates) a data directory.
    expect(readdirSync(dir).filter((f) => f === "data")).toEqual([]);
  });

  test("every command and every subcommand: usage, the environment, and the options of that subcommand", async () => {
    for (const [name, entry] of Object.entries(commands)) {
      const command = await entry.load();
      const text = commandHelp(name, entry, command);
      expect(text).toStartWith(`usage: svc ${name}`);
      expect(text).toContain(`\n\n${entry.summary}\n`);
      expect(text).toContain("\nenvironment:\n");
      expect(text).toContain("DATA_DIR");
      for (const [sub, help] of Object.entries(command.help ?? {})) {
        const own = commandHelp(name, entry, command, sub);
        expect(own).toStartWith(`usage: svc ${name} ${sub}`);
        expect(own).toContain(help);
        for (const flag of help.split("\n")[0]!.match(/--[a-z-]+/g) ?? []) expect(own).toContain(flag);
      }
    }
    expect(Object.keys((await commands.keys!.load()).help!)).toEqual(["create", "list", "usage", "set-plan", "rotate", "revoke"]);
    expect(Object.keys((await commands.subscriptions!.load()).help!)).toEqual(["create", "list", "fail-payment", "pay", "end", "invoice"]);
  });
});
