// The key cache's rules: coalesced misses, invalidation by key id, no caching of a lookup an invalidation overtook.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { createKeyCache } from "../../src/services/key-runtime";
import { createLogger } from "../../src/logger";
import { sha256Hex } from "../../src/domain/keys";
import type { KeyWithSubscription } from "../../db/repos/keys";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

/** A cached row; its stored secret hash is that of the secret `${id}-secret`, as the cache is keyed in the service. */
const entry = (id: string) =>
  ({ key: { id, secretHash: sha256Hex(`${id}-secret`) }, subscription: null }) as unknown as KeyWithSubscription;
const digestOf = (secret: string) => Bun.SHA256.hash(secret) as Uint8Array;
const logger = createLogger("silent");

describe("key cache", () => {
  test("concurrent misses of one hash share one lookup; later reads are hits", async () => {
    const cache = createKeyCache({ logger });
    let loads = 0;
    const load = async () => {
      loads++;
      await Bun.sleep(5);
      return entry("k1");
    };
    const got = await Promise.all(Array.from({ length: 50 }, () => cache.lookup("h1", load)));
    expect(loads).toBe(1);
    expect(got.every((g) => g?.key.id === "k1")).toBe(true);
    await cache.lookup("h1", load);
    expect(loads).toBe(1);
  });

  test("invalidate drops every secret of the key", async () => {
    const cache = createKeyCache({ logger });
    await cache.lookup("h1", async () => entry("k1"));
    await cache.lookup("h2", async () => entry("k2"));
    await cache.invalidate("k1");
    expect(cache.get("h1")).toBe(undefined);
    expect(cache.get("h2")?.key.id).toBe("k2");
  });

  test("a lookup overtaken by an invalidation is answered but not cached; unknown keys are not cached", async () => {
    const cache = createKeyCache({ logger });
    const slow = cache.lookup("h1", async () => {
      await Bun.sleep(10);
      return entry("k1");
    });
    await cache.invalidate("k1");
    expect((await slow)?.key.id).toBe("k1");
    expect(cache.get("h1")).toBe(undefined);
    expect(await cache.lookup("h9", async () => null)).toBe(null);
    expect(cache.get("h9")).toBe(undefined);
  });

  test("the entry a busy key was last answered with is never served after an invalidation or a reload", async () => {
    const cache = createKeyCache({ logger });
    const first = entry("k1");
    await cache.lookup("h1", async () => first);
    expect(cache.get("h1")).toBe(first);
    expect(cache.get("h1")).toBe(first);
    await cache.invalidate("k1");
    expect(cache.get("h1")).toBe(undefined);
    const reloaded = entry("k1");
    await cache.lookup("h1", async () => reloaded);
    expect(cache.get("h1")).toBe(reloaded);
    expect(cache.get("h2")).toBe(undefined);
    expect(cache.get("h1")).toBe(reloaded);
  });

  test("getDigest finds a row by the bytes of its stored hash, from the last answer or the map, and nothing else", async () => {
    const cache = createKeyCache({ logger });
    const k1 = entry("k1");
    const k2 = entry("k2");
    await cache.lookup(sha256Hex("k1-secret"), async () => k1);
    await cache.lookup(sha256Hex("k2-secret"), async () => k2);
    // Neither was answered by get yet: both found through the map, then k2 again as the last answer.
    expect(cache.getDigest(digestOf("k1-secret"))).toBe(k1);
    expect(cache.getDigest(digestOf("k2-secret"))).toBe(k2);
    expect(cache.getDigest(digestOf("k2-secret"))).toBe(k2);
    // A digest one bit off the last answer's, and one of a secret never cached.
    const near = digestOf("k2-secret");
    near[31]! ^= 1;
    expect(cache.getDigest(near)).toBe(undefined);
    expect(cache.getDigest(digestOf("k3-secret"))).toBe(undefined);
    expect(cache.getDigest(digestOf("k1-secret"))).toBe(k1);
    // A row cached under a hash that is not its own stored hash is never answered for that hash's bytes.
    await cache.lookup(sha256Hex("k4-secret"), async () => entry("k1"));
    expect(cache.getDigest(digestOf("k4-secret"))).toBe(undefined);
    await cache.invalidate("k2");
    expect(cache.getDigest(digestOf("k2-secret"))).toBe(undefined);
  });

  test("entries expire after the TTL", async () => {
    const cache = createKeyCache({ logger, ttlMs: 20 });
    await cache.lookup("h1", async () => entry("k1"));
    expect(cache.get("h1")?.key.id).toBe("k1");
    await Bun.sleep(25);
    expect(cache.get("h1")).toBe(undefined);
  });
});
