// Per-key rate limiting in fixed one-minute windows (src/domain/access.ts), as app middleware after identify():
// every request carrying a key counts against it except key management (/v1/signup, /v1/keys/*), which has its
// own limits. Responses carry X-RateLimit-Limit/-Remaining/-Reset; a 429 also carries Retry-After.
// Counters live in this process by default, or in Redis (REDIS_URL) so several processes share one exact count.
import type { MiddlewareHandler } from "hono";
import { RedisClient } from "bun";
import type { Clock } from "../deps";
import type { Logger } from "../logger";
import { rateDecision, rateLimitHeaders, rateWindow } from "../domain/access";
import type { AppEnv } from "./app-env";
import { fail } from "./errors";
import { setOnResponse } from "./late-headers";

export type RateLimitStore = {
  readonly kind: "memory" | "redis";
  /** Counts one hit for `subject` in window `window` and returns the count so far (1 for the first). */
  hit(subject: string, window: number, ttlMs: number): Promise<number>;
  close(): void;
};

export function memoryRateLimitStore(): RateLimitStore {
  const counters = new Map<string, { window: number; count: number }>();
  return {
    kind: "memory",
    // Synchronous read-modify-write: concurrent requests in one process cannot interleave here.
    hit(subject, window) {
      const c = counters.get(subject);
      if (!c || c.window !== window) {
        counters.set(subject, { window, count: 1 });
        return Promise.resolve(1);
      }
      c.count += 1;
      return Promise.resolve(c.count);
    },
    close() {
      counters.clear();
    },
  };
}

// INCR is atomic in Redis; the expiry is set with the first hit so a window's counter cleans itself up.
const HIT_SCRIPT = "local c = redis.call('INCR', KEYS[1]) if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return c";

export function redisRateLimitStore(url: string, prefix = "svc:rl:"): RateLimitStore {
  const client = new RedisClient(url);
  return {
    kind: "redis",
    async hit(subject, window, ttlMs) {
      const n = await client.send("EVAL", [HIT_SCRIPT, "1", `${prefix}${subject}:${window}`, String(Math.max(1000, Math.ceil(ttlMs)))]);
      return Number(n);
    },
    close() {
      client.close();
    },
  };
}

/** Key management is never rate limited by the per-minute window (rotation and recovery have their own limits). */
export function isKeyManagementPath(path: string): boolean {
  return path === "/v1/signup" || path.startsWith("/v1/keys/");
}

export function rateLimit(deps: { clock: Clock; logger: Logger; rateLimits: RateLimitStore }): MiddlewareHandler<AppEnv> {
  return async function rateLimitMiddleware(c, next) {
    const key = c.get("apiKey");
    // MCP (POST /api/mcp): the JSON-RPC envelope is not a request of its own; each tool call is counted as the
    // REST request it makes (src/routes/mcp.ts), so a tool call costs exactly what its REST twin costs.
    if (!key || isKeyManagementPath(c.req.path) || c.req.path === "/api/mcp") return next();
    const window = rateWindow(deps.clock.now());
    let count: number;
    try {
      count = await deps.rateLimits.hit(key.id, window.index, window.msUntilReset + 1000);
    } catch (e) {
      // A limiter outage must not take the API down: serve, and say so in the log.
      deps.logger.error("rate limiter unavailable; request not counted", { key_hint: key.hint, error: String(e) });
      return next();
    }
    const decision = rateDecision(count, key.rateLimitPerMinute, window);
    const headers = rateLimitHeaders(decision);
    if (!decision.allowed) {
      fail(
        "RATE_LIMIT_EXCEEDED",
        `Rate limit of ${decision.limit} requests per minute exceeded for key ${key.hint}; retry in ${decision.retryAfterSeconds} s.`,
        { limit: decision.limit, reset: decision.resetUnix, retry_after_seconds: decision.retryAfterSeconds },
        headers,
      );
    }
    // Set before the handler, they go into every response built through the context at no cost...
    for (const [k, v] of Object.entries(headers)) c.header(k, v);
    await next();
    // ...and a Response returned as is gets them in place (c.header() after next() would copy the whole response).
    if (c.res.headers.get("x-ratelimit-limit") === null) setOnResponse(c, headers);
  };
}
