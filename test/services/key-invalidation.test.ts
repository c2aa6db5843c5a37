// test-tier: once (starts a redis-server)
// The key cache with an invalidation bus (src/services/key-invalidation.ts): keys are cached only while the bus
// listens; a change heard on the bus drops the key; invalidate() returns once every listener acknowledged. With a
// Redis server this test starts and stops: two caches on one Redis acknowledge each other's changes, an outage stops
// caching (a change could not be heard) and a change made during it waits out the cache TTL, and listening resumes
// when Redis is back. End to end with server processes and the CLI: test/e2e/key-invalidation.test.ts.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { KeyWithSubscription } from "../../db/repos/keys";
import { sha256Hex } from "../../src/domain/keys";
import { createLogger } from "../../src/logger";
import { redisBus, type BusConnector, type InvalidationHandlers } from "../../src/services/key-invalidation";
import { createKeyCache } from "../../src/services/key-runtime";
import { redisServerMissing, startRedis, type RedisInstance } from "../support/redis";

setDefaultTimeout(60_000);

const entry = (id: string) =>
  ({ key: { id, secretHash: sha256Hex(`${id}-secret`) }, subscription: null }) as unknown as KeyWithSubscription;
const logger = createLogger("silent");

/** A bus driven by the test: it hands out the cache's handlers and records what was published. */
function testBus() {
  let handlers!: InvalidationHandlers;
  const published: string[] = [];
  let release = () => {};
  const connector: BusConnector = (h) => {
    handlers = h;
    return {
      kind: "redis",
      publish: (keyId) => {
        published.push(keyId);
        return new Promise<void>((r) => (release = r));
      },
      close: async () => {},
    };
  };
  return { connector, published, handlers: () => handlers, acknowledge: () => release() };
}

describe("the key cache with a bus", () => {
  test("nothing is cached until the bus listens; a lost listener empties the cache and stops caching until it is back", async () => {
    const bus = testBus();
    const cache = createKeyCache({ logger, bus: bus.connector });
    let loads = 0;
    const load = async () => (loads++, entry("k1"));
    await cache.lookup("h1", load);
    await cache.lookup("h1", load);
    expect(loads).toBe(2);
    expect(cache.get("h1")).toBe(undefined);
    bus.handlers().listening(true);
    await cache.lookup("h1", load);
    expect(cache.get("h1")?.key.id).toBe("k1");
    bus.handlers().listening(false);
    expect(cache.get("h1")).toBe(undefined);
    await cache.lookup("h1", load);
    expect(cache.get("h1")).toBe(undefined);
    expect(loads).toBe(4);
  });

  test("ready() resolves when the bus listens, or false after its timeout", async () => {
    const bus = testBus();
    const cache = createKeyCache({ logger, bus: bus.connector });
    expect(await cache.ready(10)).toBe(false);
    const ready = cache.ready(10_000);
    bus.handlers().listening(true);
    expect(await ready).toBe(true);
    expect(await createKeyCache({ logger }).ready(10)).toBe(true);
  });

  test("a change heard on the bus drops the key; invalidate() drops it here at once and returns when the bus has", async () => {
    const bus = testBus();
    const cache = createKeyCache({ logger, bus: bus.connector });
    bus.handlers().listening(true);
    await cache.lookup("h1", async () => entry("k1"));
    await cache.lookup("h2", async () => entry("k2"));
    bus.handlers().drop("k1");
    expect(cache.get("h1")).toBe(undefined);
    expect(cache.get("h2")?.key.id).toBe("k2");
    let returned = false;
    const done = cache.invalidate("k2").then(() => (returned = true));
    expect(cache.get("h2")).toBe(undefined);
    expect(bus.published).toEqual(["k2"]);
    await Bun.sleep(5);
    expect(returned).toBe(false);
    bus.acknowledge();
    await done;
    expect(returned).toBe(true);
  });
});

const redisSkip = redisServerMissing();
if (redisSkip) console.warn(`skipped (Redis bus): ${redisSkip}`);

describe.skipIf(!!redisSkip)("the Redis bus", () => {
  let redis: RedisInstance;
  beforeAll(async () => {
    redis = (await startRedis())!;
  });
  afterAll(() => redis?.destroy());

  test("two caches acknowledge each other's changes; an outage stops caching and a change made during it waits out the TTL; listening resumes when Redis is back", async () => {
    const WAIT = 300;
    const aLog: string[] = [];
    const aLogger = createLogger("info", (l) => aLog.push(l));
    const a = createKeyCache({ logger: aLogger, bus: redisBus(redis.url, { logger: aLogger, waitMs: WAIT }) });
    const b = createKeyCache({ logger, bus: redisBus(redis.url, { logger, waitMs: WAIT }) });
    expect(await a.ready(5000)).toBe(true);
    expect(await b.ready(5000)).toBe(true);
    await b.lookup("h1", async () => entry("k1"));
    expect(b.get("h1")?.key.id).toBe("k1");
    // Both caches listen, both acknowledge: the change returns once b has dropped the key.
    await a.invalidate("k1");
    expect(b.get("h1")).toBe(undefined);

    await redis.stop();
    // The subscription is lost: b stops caching (a change could not reach it).
    for (let i = 0; i < 100 && (await b.ready(0)); i++) await Bun.sleep(20);
    expect(await b.ready(0)).toBe(false);
    await b.lookup("h2", async () => entry("k2"));
    expect(b.get("h2")).toBe(undefined);
    // A change now cannot be published: invalidate says so and waits out the TTL before it returns.
    await a.invalidate("k2");
    expect(aLog.map((l) => JSON.parse(l).msg)).toContain(
      "key cache: Redis publish failed; waiting out the cache TTL so no process serves the old key",
    );

    await redis.start();
    expect(await b.ready(10_000)).toBe(true);
    await b.lookup("h2", async () => entry("k2"));
    expect(b.get("h2")?.key.id).toBe("k2");
    a.close();
    b.close();
  });
});
