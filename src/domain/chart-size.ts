// A chart's size in pixels, snapped up to one of a few steps: every size asked for between two steps draws (and is
// kept in the cache) as the step above it, so clients asking for sizes a pixel apart share one render instead of each
// forcing a fresh one. Snapping up, never down, keeps every promise of a size: a chart asked for at `height >= n`
// (the height a 400 names as the one that fits) is drawn at least that tall. Sizes past the last step stay as asked
// (the caller's bounds refuse them).
export const CHART_SIZE_STEPS = [200, 250, 300, 350, 400, 500, 600, 800, 1000, 1200, 1600, 2000] as const;

/** The smallest step at or above `px` (`px` itself above the last step). */
export function snapChartSize(px: number): number {
  for (const step of CHART_SIZE_STEPS) if (step >= px) return step;
  return px;
}
