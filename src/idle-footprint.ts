// A node that has gone quiet gives back the memory its busy time left behind: a full collection, then the
// engine's footprint shrink (compiled code of functions not running, freed pages returned to the system). About 10 MB
// of an idle node's 115-130 MB, on both databases. Quiet is measured by the process's own CPU time, not by counting
// requests: nothing is added to the request path, and jobs count as work too. A node is trimmed once per quiet period:
// only a busy window re-arms it, so light traffic does not make it trim again and again. The first request after a
// trim compiles what it runs afresh (a few milliseconds, measured by bench/start.ts).

/** Process CPU time in milliseconds, and a monotonic clock in milliseconds. */
export type IdleProbe = { cpuMs(): number; nowMs(): number };

export type IdlePolicyOptions = {
  /** The span a quiet period must cover. */
  windowMs: number;
  /** Quiet: CPU used over the window below this share of one core. */
  quietShare: number;
};

type Sample = { atMs: number; cpuMs: number };

/**
 * Decides from successive samples of the process's CPU time whether to trim now: once the samples cover `windowMs`
 * and the CPU used over the last `windowMs` is below `quietShare` of it, the first time since the start or since a
 * busy window.
 */
export function idlePolicy(opts: IdlePolicyOptions): { sample(s: Sample): boolean } {
  const samples: Sample[] = [];
  let armed = true;
  return {
    sample(s) {
      samples.push(s);
      // The newest sample at least a window old starts the window; older ones are no longer needed.
      let start = -1;
      for (let i = samples.length - 1; i >= 0; i--) {
        if (s.atMs - samples[i]!.atMs >= opts.windowMs) {
          start = i;
          break;
        }
      }
      if (start < 0) return false;
      samples.splice(0, start);
      const from = samples[0]!;
      const quiet = s.cpuMs - from.cpuMs < opts.quietShare * (s.atMs - from.atMs);
      if (!quiet) {
        armed = true;
        return false;
      }
      if (!armed) return false;
      armed = false;
      return true;
    },
  };
}

const processProbe: IdleProbe = {
  cpuMs: () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  },
  nowMs: () => performance.now(),
};

/** The trim itself. Bun.shrink is marked deprecated in bun-types (it still works): without it, the collection alone. */
export function releaseMemory(): void {
  Bun.gc(true);
  (Bun as { shrink?: () => void }).shrink?.();
}

const IDLE_WINDOW_MS = 30_000;
const IDLE_QUIET_SHARE = 0.05;
const SAMPLE_EVERY_MS = 5_000;

/** Samples the process every `sampleEveryMs` (an unref'd timer: it never keeps a process alive); stop() ends it. */
export function trimWhenIdle(
  opts: Partial<IdlePolicyOptions> & { sampleEveryMs?: number; probe?: IdleProbe; trim?: () => void } = {},
): { stop(): void } {
  const probe = opts.probe ?? processProbe;
  const trim = opts.trim ?? releaseMemory;
  const policy = idlePolicy({
    windowMs: opts.windowMs ?? IDLE_WINDOW_MS,
    quietShare: opts.quietShare ?? IDLE_QUIET_SHARE,
  });
  policy.sample({ atMs: probe.nowMs(), cpuMs: probe.cpuMs() });
  const timer = setInterval(() => {
    if (policy.sample({ atMs: probe.nowMs(), cpuMs: probe.cpuMs() })) trim();
  }, opts.sampleEveryMs ?? SAMPLE_EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
