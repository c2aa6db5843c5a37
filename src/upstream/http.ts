// Sending one upstream request: through the shared limiter, with a timeout, and retried with exponential backoff
// (1 s, 2 s, 4 s ... capped at 30 s; Retry-After when the provider gives one) while the failure is retryable.
// A throttle or over-capacity answer pauses the provider for every caller. Messages name the request by a label
// without its key: URLs carrying api_key never reach an error message or a log.
import type { Clock } from "../ports";
import { retryAfterSeconds } from "../domain/upstream-dates";
import type { Sleep, UpstreamLimiter } from "./limiter";
import { UpstreamError, type ConnectorId } from "./types";

export type Transport = {
  fetch: typeof fetch;
  clock: Clock;
  sleep: Sleep;
  limiter: UpstreamLimiter;
  timeoutMs: number;
  /** Tries per request, the first included. */
  maxAttempts: number;
  backoffBaseMs: number;
  backoffCapMs: number;
  /** Attempts sent per provider and their outcome ("ok" or the UpstreamError kind), for metrics. */
  counts?: Map<string, number>;
};

/** The key of Transport.counts: provider and outcome. */
export const upstreamCountKey = (provider: string, outcome: string) => `${provider}\t${outcome}`;

export type UpstreamRequest = { url: string; init?: RequestInit /** the request without secrets */; label: string };

export type Answer = { status: number; headers: Headers; text: string };

/** Sends `req` until `read` accepts the answer (it throws UpstreamError for an error answer). */
export async function send<T>(
  t: Transport,
  provider: ConnectorId,
  req: UpstreamRequest,
  read: (a: Answer) => T,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    let error: UpstreamError;
    try {
      await t.limiter.acquire(provider);
      const out = read(await exchange(t, provider, req));
      count(t, provider, "ok");
      return out;
    } catch (e) {
      if (!(e instanceof UpstreamError)) throw e;
      error = e;
      count(t, provider, e.kind);
    }
    const throttled = error.kind === "rate_limited" || error.kind === "over_capacity";
    const delay =
      error.retryAfterSeconds !== undefined
        ? error.retryAfterSeconds * 1000
        : Math.min(t.backoffCapMs, t.backoffBaseMs * 2 ** (attempt - 1));
    // A throttled provider is paused for everyone (the next acquire waits), whether or not this request tries again.
    if (throttled && error.status !== null) t.limiter.pause(provider, t.clock.now().getTime() + delay);
    if (!error.retryable || error.kind === "quota" || attempt >= t.maxAttempts || delay > t.limiter.maxWaitMs)
      throw error;
    if (!throttled) await t.sleep(delay);
  }
}

function count(t: Transport, provider: string, outcome: string): void {
  if (!t.counts) return;
  const k = upstreamCountKey(provider, outcome);
  t.counts.set(k, (t.counts.get(k) ?? 0) + 1);
}

async function exchange(t: Transport, provider: ConnectorId, req: UpstreamRequest): Promise<Answer> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), t.timeoutMs);
  try {
    const res = await t.fetch(req.url, { ...req.init, signal: abort.signal });
    // The body is read inside the timeout too: a provider that stalls mid-answer is as stuck as one that never answers.
    const text = await res.text();
    return { status: res.status, headers: res.headers, text };
  } catch (e) {
    if (abort.signal.aborted) {
      throw new UpstreamError({
        provider,
        kind: "timeout",
        retryable: true,
        message: `${req.label}: no answer within ${t.timeoutMs} ms`,
      });
    }
    // The runtime's message may quote the URL (and its key): only its code is kept.
    const code = (e as { code?: unknown }).code;
    throw new UpstreamError({
      provider,
      kind: "network",
      retryable: true,
      message: `${req.label}: connection failed${typeof code === "string" ? ` (${code})` : ""}`,
    });
  } finally {
    clearTimeout(timer);
  }
}

/** The error an HTTP status means, with the provider's own explanation when it gave one. */
export function statusError(
  provider: ConnectorId,
  a: Answer,
  label: string,
  now: Date,
  detail?: string | null,
): UpstreamError {
  const what = `${label}: HTTP ${a.status}${detail ? ` (${detail})` : ""}`;
  const after = retryAfterSeconds(a.headers.get("retry-after"), now) ?? undefined;
  const base = { provider, status: a.status, message: what };
  if (a.status === 429)
    return new UpstreamError({ ...base, kind: "rate_limited", retryable: true, retryAfterSeconds: after });
  if (a.status === 503)
    return new UpstreamError({ ...base, kind: "over_capacity", retryable: true, retryAfterSeconds: after });
  if (a.status === 408) return new UpstreamError({ ...base, kind: "timeout", retryable: true });
  if (a.status >= 500) return new UpstreamError({ ...base, kind: "server", retryable: true, retryAfterSeconds: after });
  if (a.status === 401 || a.status === 403) return new UpstreamError({ ...base, kind: "auth", retryable: false });
  if (a.status === 404) return new UpstreamError({ ...base, kind: "not_found", retryable: false });
  return new UpstreamError({ ...base, kind: "bad_request", retryable: false });
}

/** The answer's JSON, or a protocol error (an HTML error page, a truncated body). */
export function parseJson(provider: ConnectorId, a: Answer, label: string): unknown {
  try {
    return JSON.parse(a.text);
  } catch {
    const start = a.text.slice(0, 120).replace(/\s+/g, " ").trim();
    throw new UpstreamError({
      provider,
      kind: "protocol",
      status: a.status,
      retryable: false,
      message: `${label}: the answer is not JSON (${JSON.stringify(start)})`,
    });
  }
}

/** An answer that is well-formed but not what the provider's format promises. */
export function protocolError(provider: ConnectorId, label: string, what: string): UpstreamError {
  return new UpstreamError({ provider, kind: "protocol", retryable: false, message: `${label}: ${what}` });
}
