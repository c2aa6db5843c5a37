// Per-key rate limiting in fixed one-minute windows (src/domain/access.ts), as app middleware after identify():
// every request carrying a key counts against it except key management (/v1/signup, /v1/keys/*), which has its
// own limits. Responses carry X-RateLimit-Limit/-Remaining/-Reset; a 429 also carries Retry-After.
// Counters live in this process by default, or in Redis (REDIS_URL) so several processes share one exact count.
import type { MiddlewareHandler } from "hono";
import { RedisClient } from "bun";
import type { Clock } from "../deps";
import type { Logger } from "../logger";
import { rateDecision, rateLimitHeaders, rateWindow, type RateDecision, type RateWindow } from "../domain/access";
import type { AuthenticatedKey } from "../services/keys";
import type { AppEnv } from "./app-env";
import { fail } from "../errors";
import { setOnResponse } from "./late-headers";

export type RateLimitStore = {
  readonly kind: "memory" | "redis";
  /**
   * Counts one hit for `subject` in window `window` and returns the count so far (1 for the first): at once when the
   * counter is in this process, so that a request counted here is answered without waiting a turn of the event loop.
   */
  hit(subject: string, window: number, ttlMs: number): number | Promise<number>;
  close(): void;
};

export function memoryRateLimitStore(): RateLimitStore {
  const counters = new Map<string, { window: number; count: number }>();
  // The counter of the previous hit: a busy key's next hit needs no lookup.
  let lastSubject: string | null = null;
  let lastCounter: { window: number; count: number } | undefined;
  return {
    kind: "memory",
    // Synchronous read-modify-write: concurrent requests in one process cannot interleave here.
    hit(subject, window) {
      let c = subject === lastSubject ? lastCounter : counters.get(subject);
      if (!c || c.window !== window) {
        c = { window, count: 0 };
        counters.set(subject, c);
      }
      lastSubject = subject;
      lastCounter = c;
      c.count += 1;
      return c.count;
    },
    close() {
      counters.clear();
      lastSubject = null;
      lastCounter = undefined;
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

/** What counting one request against its key's window decided, with the headers that say so. */
export type RateCount = { decision: RateDecision; headers: Record<string, string> };

type RateLimitDeps = { clock: Clock; logger: Logger; rateLimits: RateLimitStore };

/**
 * Counts one request against the key's current window: at once with the in-process store, as a promise with Redis.
 * Null when the limiter cannot be reached: the request is served uncounted (a limiter outage must not take the API
 * down), and the log says so.
 */
export function countRequest(deps: RateLimitDeps, key: AuthenticatedKey, now: Date = deps.clock.now()): RateCount | null | Promise<RateCount | null> {
  const window = rateWindow(now);
  const count = hitWindow(deps, key, window.index, window.msUntilReset);
  return count instanceof Promise ? count.then((n) => rateCountOf(n, key, window)) : rateCountOf(count, key, window);
}

/**
 * countRequest without a decision or headers: the request's position in window `index` (1 for the first), or null
 * when the limiter cannot be reached. The hot-read lane decides with remainingAfter and has headers of its own.
 */
export function hitWindow(deps: RateLimitDeps, key: AuthenticatedKey, index: number, msUntilReset: number): number | null | Promise<number | null> {
  try {
    // Kept a second past the window's end: processes' clocks differ a little.
    const count = deps.rateLimits.hit(key.id, index, msUntilReset + 1000);
    return typeof count === "number" ? count : count.catch((e) => limiterDown(deps, key, e));
  } catch (e) {
    return limiterDown(deps, key, e);
  }
}

/** The decision on a request counted `count`-th in `window`, with the headers that say so (null: not counted). */
export function rateCountOf(count: number | null, key: AuthenticatedKey, window: RateWindow): RateCount | null {
  if (count === null) return null;
  const decision = rateDecision(count, key.rateLimitPerMinute, window);
  return { decision, headers: rateLimitHeaders(decision) };
}

function limiterDown(deps: RateLimitDeps, key: AuthenticatedKey, e: unknown): null {
  deps.logger.error("rate limiter unavailable; request not counted", { key_hint: key.hint, error: String(e) });
  return null;
}

/**
 * Requests the hot-read lane (src/http/hot-reads.ts) counted and then handed to the full pipeline (a 429 is answered
 * there): the middleware uses that count instead of counting the request a second time.
 */
const countedEarlier = new WeakMap<Request, RateCount>();

export function handOverCount(req: Request, counted: RateCount): void {
  countedEarlier.set(req, counted);
}

export function rateLimit(deps: RateLimitDeps): MiddlewareHandler<AppEnv> {
  return async function rateLimitMiddleware(c, next) {
    const key = c.get("apiKey");
    // MCP (POST /api/mcp): the JSON-RPC envelope is not a request of its own; each tool call is counted as the
    // REST request it makes (src/routes/mcp.ts), so a tool call costs exactly what its REST twin costs.
    if (!key || isKeyManagementPath(c.req.path) || c.req.path === "/api/mcp") return next();
    const counted = countedEarlier.get(c.req.raw) ?? (await countRequest(deps, key));
    if (!counted) return next();
    const { decision, headers } = counted;
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
