// A load run's figures: read from wrk's output, the median of rounds, and the table printed at the end.

export type LoadResult = {
  tool: "wrk" | "autocannon";
  requests: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Responses outside 2xx/3xx plus socket errors and timeouts. */
  errors: number;
  rssIdleMb?: number;
  rssPeakMb?: number;
};

export type Row = {
  name: string;
  path: string;
  target: "baseline" | "service";
  runs: LoadResult[];
  median: LoadResult | null;
  error?: string;
};

function wrkDurationMs(s: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(s.trim());
  if (!m) return NaN;
  const v = Number(m[1]);
  return m[2] === "us" ? v / 1000 : m[2] === "ms" ? v : m[2] === "s" ? v * 1000 : v * 60_000;
}

/** Parses `wrk --latency` output. Exported for tests. */
export function parseWrk(out: string): Omit<LoadResult, "tool"> {
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const requests = Number(/(\d+) requests in/.exec(out)?.[1]);
  const p50 = /^\s+50%\s+(\S+)/m.exec(out)?.[1];
  const p99 = /^\s+99%\s+(\S+)/m.exec(out)?.[1];
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const sockErrors = sock ? sock.slice(1).reduce((a, b) => a + Number(b), 0) : 0;
  if (!Number.isFinite(rps) || !p50 || !p99) throw new Error(`could not parse wrk output:\n${out}`);
  return { rps, requests, p50Ms: wrkDurationMs(p50), p99Ms: wrkDurationMs(p99), errors: non2xx + sockErrors };
}
// ------------------------------------------------------------------------------------------ report

/** The median (the mean of the middle two for an even count). */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Per-field medians of a row's runs (errors summed, peak memory the highest). */
export function medianResult(runs: LoadResult[]): LoadResult | null {
  if (runs.length === 0) return null;
  return {
    tool: runs[0].tool,
    requests: median(runs.map((r) => r.requests)),
    rps: median(runs.map((r) => r.rps)),
    p50Ms: median(runs.map((r) => r.p50Ms)),
    p99Ms: median(runs.map((r) => r.p99Ms)),
    errors: runs.reduce((a, r) => a + r.errors, 0),
    rssIdleMb: runs[0].rssIdleMb,
    rssPeakMb: Math.max(...runs.map((r) => r.rssPeakMb ?? 0)),
  };
}

export const formatNumber = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
export const formatMs = (n: number) =>
  n < 10 ? formatNumber(n, 2) : n < 100 ? formatNumber(n, 1) : formatNumber(n, 0);

export function printTable(title: string, rows: Row[], header: string): void {
  const base = rows.find((r) => r.target === "baseline")?.median;
  const table = [["case", "req/s", "p50 ms", "p99 ms", "vs baseline", "errors", "RSS MB idle -> peak"]];
  for (const r of rows) {
    const m = r.median;
    if (!m) {
      table.push([r.name, "-", "-", "-", "not run", "-", "-"]);
      continue;
    }
    const ratio =
      base && base.rps > 0 ? `${formatNumber(m.rps / base.rps, 4)} (1/${formatNumber(base.rps / m.rps, 0)})` : "";
    table.push([
      r.name,
      formatNumber(m.rps),
      formatMs(m.p50Ms),
      formatMs(m.p99Ms),
      r.target === "baseline" ? "1" : ratio,
      formatNumber(m.errors),
      m.rssIdleMb !== undefined ? `${formatNumber(m.rssIdleMb)} -> ${formatNumber(m.rssPeakMb ?? 0)}` : "",
    ]);
  }
  const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
  console.log(`\n${title}\n${header}`);
  for (const [i, row] of table.entries()) {
    console.log(row.map((c, j) => (j === 0 ? c.padEnd(widths[j]) : c.padStart(widths[j]))).join("  "));
    if (i === 0) console.log(widths.map((w) => "-".repeat(w)).join("  "));
  }
  for (const r of rows) if (r.error) console.log(`not run: ${r.name} ${r.error}`);
}
