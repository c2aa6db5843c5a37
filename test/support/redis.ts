// Redis for tests, set up one way: a redis-server of the test's own on a free loopback port (started, stopped and
// started again on that port by the outage tests; also bench/faults.ts), or the shared server a test may count in
// (TEST_REDIS_URL, else redis://127.0.0.1:6379 when it answers). Each says why when there is none, so callers skip
// with that message.
import { RedisClient } from "bun";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../bench/lib/load";

export type RedisInstance = {
  url: string;
  port: number;
  /** Starts the server again on its port (it starts once when made). */
  start(): Promise<void>;
  /** Kills the server (SIGKILL: an outage, not a shutdown). */
  stop(): Promise<void>;
  /** Stops it and removes its directory. */
  destroy(): Promise<void>;
};

/** Why a redis-server of a test's own cannot run here, or null when it can. */
export function redisServerMissing(): string | null {
  return Bun.which("redis-server") ? null : "redis-server is not installed";
}

/** Whether Redis at `url` answers PING within `timeoutMs`. */
export async function answersPing(url: string, timeoutMs: number): Promise<boolean> {
  const client = new RedisClient(url, { connectionTimeout: timeoutMs, autoReconnect: false, maxRetries: 0 });
  try {
    return (await Promise.race([client.ping(), Bun.sleep(timeoutMs + 500).then(() => "timeout")])) === "PONG";
  } catch {
    return false;
  } finally {
    client.close();
  }
}

/** A redis-server on a free loopback port, no persistence; null when redis-server is not installed. */
export async function startRedis(): Promise<RedisInstance | null> {
  const server = Bun.which("redis-server");
  if (!server) return null;
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "svc-redis-"));
  const url = `redis://127.0.0.1:${port}`;
  let proc: ReturnType<typeof Bun.spawn> | null = null;
  const instance: RedisInstance = {
    url,
    port,
    async start() {
      const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir];
      proc = Bun.spawn([server, ...args], { stdout: "ignore", stderr: "ignore" });
      for (let i = 0; i < 100; i++) {
        if (await answersPing(url, 200)) return;
        await Bun.sleep(50);
      }
      throw new Error("redis-server did not start");
    },
    async stop() {
      proc?.kill("SIGKILL");
      await proc?.exited;
      proc = null;
    },
    async destroy() {
      await instance.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await instance.start();
  return instance;
}

/**
 * The shared Redis a test may count in: TEST_REDIS_URL, else redis://127.0.0.1:6379, and why the test skips (null
 * when it answers).
 */
export async function sharedRedis(): Promise<{ url: string; skip: string | null }> {
  const url = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
  return { url, skip: (await answersPing(url, 1000)) ? null : `no Redis at ${url} (set TEST_REDIS_URL)` };
}
