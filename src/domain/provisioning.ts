// Rules of on-demand provisioning (spec "Series availability" and "Provisioning body"), as pure functions.
// - A series is identified in the job engine by `<indicator id>|<region code>` (the singletonKey that lets one job
//   per series wait or run, however many requests and processes ask for it).
// - An upstream failure is final when the upstream says retrying cannot help (not retryable) or when the attempt was
//   the last one allowed (pg-boss counts retries from 0: with retryLimit n, the attempt with retryCount n is the last).
// - After a final failure, requests are told to come back at max(now + cooldown, now + what the upstream asked for).
// - Seconds to wait are whole seconds, rounded up, at least 1 (a Retry-After of 0 invites a busy loop).

export function seriesJobKey(indicatorId: string, regionCode: string): string {
  return `${indicatorId}|${regionCode}`;
}

/** Whole seconds from `now` until `at`, rounded up, at least 1. */
export function secondsUntil(now: Date, at: Date): number {
  return Math.max(1, Math.ceil((at.getTime() - now.getTime()) / 1000));
}

/** When a request may try a series again after its upstream gave up. */
export function failureRetryAt(now: Date, cooldownSeconds: number, upstreamRetryAfterSeconds?: number | null): Date {
  const wait = Math.max(cooldownSeconds, upstreamRetryAfterSeconds ?? 0);
  return new Date(now.getTime() + wait * 1000);
}

export function isFinalAttempt(attempt: { retryCount: number; retryLimit: number }, retryable: boolean): boolean {
  return !retryable || attempt.retryCount >= attempt.retryLimit;
}

/** What a fetch error says about its upstream, read from the fields connectors put on it (src/ports.ts UpstreamFailure). */
export type UpstreamErrorInfo = {
  provider: string;
  retryable: boolean;
  retryAfterSeconds: number | null;
  message: string;
};

/**
 * An error thrown by a fetch, as far as it describes its upstream. `fallbackProvider` names the upstream when the
 * error does not (a bug, not an upstream answer: treated as retryable, since a retry costs little and a bug may be
 * a transient one such as a dropped connection).
 */
export function upstreamErrorInfo(e: unknown, fallbackProvider: string): UpstreamErrorInfo {
  const err = (typeof e === "object" && e !== null ? e : {}) as {
    provider?: unknown;
    retryable?: unknown;
    retryAfterSeconds?: unknown;
    message?: unknown;
  };
  const provider = typeof err.provider === "string" && err.provider !== "" ? err.provider : fallbackProvider;
  const retryable = typeof err.retryable === "boolean" ? err.retryable : true;
  const after =
    typeof err.retryAfterSeconds === "number" && Number.isFinite(err.retryAfterSeconds) && err.retryAfterSeconds > 0
      ? Math.ceil(err.retryAfterSeconds)
      : null;
  const message = typeof err.message === "string" && err.message !== "" ? err.message : String(e);
  // Upstream bodies can be long: the first line, bounded, is what an operator and a client need. The connectors'
  // errors open with their provider ("bls: ..."), which the answer names already.
  const first = message.split("\n")[0]!.trim();
  const line = first.startsWith(`${provider}: `) ? first.slice(provider.length + 2) : first;
  return {
    provider,
    retryable,
    retryAfterSeconds: after,
    message: line.length > 300 ? `${line.slice(0, 299)}…` : line,
  };
}

/** The command that loads one series from a CSV file when no upstream connector can fetch it. */
export function importCommandFor(indicatorCode: string, regionCode: string, source: string | null): string {
  const quote = (v: string) => (/^[A-Za-z0-9_.:\-]+$/.test(v) ? v : `'${v.replace(/'/g, "'\\''")}'`);
  return `svc import FILE --indicator ${quote(indicatorCode)} --region ${quote(regionCode)}${source ? ` --source ${quote(source)}` : ""}`;
}
