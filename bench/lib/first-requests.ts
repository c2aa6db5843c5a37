// What a new user's first requests meet, for bench/start.ts: from the moment the server serves (health no longer
// `starting`), a free key by signup, then the US unemployment rate (GET /v1/observations/latest?indicator=UNRATE)
// asked until it answers 200; and, for the first `minuteMs` after the start, a mix of requests a user makes first
// (health, the catalog, regions, the US rate, a state's rate), one after the other, each answer's latency kept.
// "Everything" is when health lists no part of the data as loading any more.

export type FirstRequests = {
  /** From the start: the first 200 of the US unemployment rate. */
  unrateMs: number | null;
  /** From the start: health serving with nothing loading. */
  everythingMs: number | null;
  /** Every answer within the first minute: the slowest, and how many took over 200 ms (of how many). */
  slowestMs: number;
  slowestPath: string | null;
  over200: number;
  answered: number;
};

const MIX = [
  "/api/health",
  "/v1/observations/latest?indicator=UNRATE",
  "/v1/indicators?search=unemployment",
  "/v1/regions?type=state",
  "/v1/observations/latest?indicator=unemployment_rate&region=TX",
];

/**
 * Probes `base` until the first minute is over and (with `untilEverything`) everything is served, or `deadline`.
 * `t0`: the start, performance.now() time.
 */
export async function probeFirstRequests(
  base: string,
  t0: number,
  opts: { minuteMs: number; untilEverything: boolean; deadline: number },
): Promise<FirstRequests> {
  const out: FirstRequests = {
    unrateMs: null,
    everythingMs: null,
    slowestMs: 0,
    slowestPath: null,
    over200: 0,
    answered: 0,
  };
  let key: string | null = null;
  let serving = false;
  let k = 0;
  const timed = async (path: string, init?: RequestInit) => {
    const t = performance.now();
    const res = await fetch(`${base}${path}`, { ...init, signal: AbortSignal.timeout(10_000) });
    const body = await res.text();
    const ms = performance.now() - t;
    if (t - t0 <= opts.minuteMs) {
      out.answered++;
      if (ms > 200) out.over200++;
      if (ms > out.slowestMs) [out.slowestMs, out.slowestPath] = [ms, path];
    }
    return { res, body, at: performance.now() - t0 };
  };
  for (;;) {
    const now = performance.now();
    if (now > opts.deadline) break;
    const inMinute = now - t0 <= opts.minuteMs;
    if (!inMinute && out.unrateMs !== null && (!opts.untilEverything || out.everythingMs !== null)) break;
    try {
      const health = await timed("/api/health");
      const h = JSON.parse(health.body) as { status?: string; loading?: unknown };
      serving = health.res.status === 200 && h.status !== "starting";
      if (serving && !h.loading && out.everythingMs === null) out.everythingMs = health.at;
      if (serving && !key) {
        const r = await timed("/v1/signup", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email: "bench@example.com" }),
        });
        key = r.res.status === 201 ? (JSON.parse(r.body) as { data: { key: string } }).data.key : null;
      }
      if (key && out.unrateMs === null) {
        const r = await timed(MIX[1]!, { headers: { "x-api-key": key } });
        if (r.res.status === 200) out.unrateMs = r.at;
      }
      if (key && inMinute) await timed(MIX[k++ % MIX.length]!, { headers: { "x-api-key": key } });
    } catch {}
    await Bun.sleep(50);
  }
  return out;
}
