// Changes in the mean of a sequence, by PELT (Killick, Fearnhead and Eckley, "Optimal detection of changepoints
// with a linear computational cost", JASA 2012): the segmentation minimising
//   sum over segments of cost(segment) + penalty * (number of changepoints)
// exactly, where cost = the sum of squared deviations from the segment's mean (a change in mean with constant
// variance). Pruning keeps it linear in practice: a candidate start that cannot win any later segmentation is dropped
// (with this cost, K = 0 in the paper's pruning condition). Segments are at least `minLength` long.
//
// No npm package implements it (shared/research/jobs-bulk-signals.md), and it is short: prefix sums make each segment
// cost O(1).

export type Segment = { start: number; end: number; mean: number };

/** Indexes where a new segment starts (ascending, never 0), and the segments (start inclusive, end exclusive). */
export function pelt(
  x: readonly number[],
  penalty: number,
  minLength: number,
): { changepoints: number[]; segments: Segment[] } {
  const n = x.length;
  if (n === 0) return { changepoints: [], segments: [] };
  const m = Math.max(1, minLength);
  const s1 = new Float64Array(n + 1);
  const s2 = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) {
    s1[i + 1] = s1[i] + x[i];
    s2[i + 1] = s2[i] + x[i] * x[i];
  }
  const cost = (a: number, b: number) => {
    const len = b - a;
    const sum = s1[b] - s1[a];
    return Math.max(0, s2[b] - s2[a] - (sum * sum) / len);
  };
  // f[t]: best total for x[0..t); last[t]: where its last segment starts. Candidate starts live in a typed array,
  // compacted in place as they are pruned (no allocation per step).
  const f = new Float64Array(n + 1).fill(Infinity);
  const last = new Int32Array(n + 1);
  f[0] = -penalty;
  const cand = new Int32Array(n + 1);
  const value = new Float64Array(n + 1);
  let count = 1;
  cand[0] = 0;
  for (let t = m; t <= n; t++) {
    let best = Infinity;
    let arg = 0;
    for (let k = 0; k < count; k++) {
      const s = cand[k];
      // A start admitted too recently to end a segment of minLength at t waits.
      const v = t - s < m ? Infinity : f[s] + cost(s, t) + penalty;
      value[k] = v;
      if (v < best) {
        best = v;
        arg = s;
      }
    }
    f[t] = best;
    last[t] = arg;
    // Prune: s can never be the optimal last start again once f[s] + cost(s, t) >= f[t] (and its segment is long enough).
    let kept = 0;
    for (let k = 0; k < count; k++) {
      const s = cand[k];
      if (t - s < m || value[k] - penalty < best) cand[kept++] = s;
    }
    // t becomes a candidate start once the segment before it can be long enough (t >= m) and has a finite optimum.
    if (Number.isFinite(f[t])) cand[kept++] = t;
    count = kept;
  }
  const starts: number[] = [];
  for (let t = n; t > 0; t = last[t]) starts.push(last[t]);
  starts.reverse();
  const segments: Segment[] = starts.map((s, k) => {
    const e = k + 1 < starts.length ? starts[k + 1] : n;
    return { start: s, end: e, mean: (s1[e] - s1[s]) / (e - s) };
  });
  return { changepoints: starts.slice(1), segments };
}
