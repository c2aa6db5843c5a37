// Chart sizes snapped up to steps (src/domain/chart-size.ts), and GET /v1/chart's size parameters that use them
// (src/schemas/chart.ts): the bounds 200 and 2000 are checked before snapping, at and past each edge.
import { describe, expect, test } from "bun:test";
import { CHART_SIZE_STEPS, snapChartSize } from "../../src/domain/chart-size";
import { chartQuerySchema } from "../../src/schemas/chart";

describe("snapChartSize", () => {
  test("the smallest step at or above the size", () => {
    const cases: [number, number][] = [
      [200, 200],
      [201, 250],
      [250, 250],
      [251, 300],
      [349, 350],
      [350, 350],
      [351, 400],
      [400, 400],
      [401, 500],
      [640, 800],
      [800, 800],
      [801, 1000],
      [1201, 1600],
      [1999, 2000],
      [2000, 2000],
    ];
    expect(cases.map(([px]) => [px, snapChartSize(px)])).toEqual(cases);
  });
  test("below the first step: the first step; past the last: as asked (the caller's bounds refuse it)", () => {
    expect([snapChartSize(1), snapChartSize(199), snapChartSize(2001)]).toEqual([200, 200, 2001]);
  });
  test("every step snaps to itself, and the steps rise", () => {
    expect(CHART_SIZE_STEPS.map(snapChartSize)).toEqual([...CHART_SIZE_STEPS]);
    expect([...CHART_SIZE_STEPS].sort((a, b) => a - b)).toEqual([...CHART_SIZE_STEPS]);
  });
});

describe("GET /v1/chart width and height", () => {
  const size = (width?: string, height?: string) => {
    const r = chartQuerySchema.safeParse({ indicator: "UNRATE", ...(width ? { width } : {}), ...(height ? { height } : {}) });
    return r.success ? [r.data.width, r.data.height] : r.error.issues.map((i) => i.path.join("."));
  };
  test("defaults 800 by 400", () => expect(size()).toEqual([800, 400]));
  test("200 and 2000 pass; 199 and 2001 are refused, naming the parameter", () => {
    expect(size("200", "2000")).toEqual([200, 2000]);
    expect(size("199")).toEqual(["width"]);
    expect(size(undefined, "2001")).toEqual(["height"]);
  });
  test("a size between steps is drawn at the step above it", () => {
    expect(size("201", "1999")).toEqual([250, 2000]);
    expect(size("761", "341")).toEqual([800, 350]);
  });
});
