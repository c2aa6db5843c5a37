// The chart's text and spec from hand-built series (src/domain/chart-text.ts, chart-spec.ts), and the SVG they
// render to. Where things go is test/domain/chart-layout.test.ts's.
import { describe, expect, test } from "bun:test";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { chartSpec, chartText, escapeXml, formatPeriod, formatValue, recessionBands, type ChartInput } from "../../src/domain/chart-spec";
import { drawSvg } from "../../src/services/chart-svg";

const months = (from: string, values: (number | null)[]) =>
  values.map((value, k) => {
    const y = Number(from.slice(0, 4)) + Math.floor((Number(from.slice(5, 7)) - 1 + k) / 12);
    const m = ((Number(from.slice(5, 7)) - 1 + k) % 12) + 1;
    return { date: `${y}-${String(m).padStart(2, "0")}-01`, value };
  });

// USREC by hand: 2019-11 .. 2020-08 = 0,0,0,0,1,1,0,0,0,0 (the 2020 recession: Mar-Apr 2020), plus a run at the end.
const USREC = months("2019-11", [0, 0, 0, 0, 1, 1, 0, 0, 0, 1]);

describe("recession bands from a 0/1 monthly indicator", () => {
  test("a run of 1s from month a to month b is [a, the first day after b]", () => {
    expect(recessionBands(USREC, "2019-01-01", "2021-12-01")).toEqual([
      { start: "2020-03-01", end: "2020-05-01" },
      { start: "2020-08-01", end: "2020-09-01" },
    ]);
  });
  test("clipped to the window; bands outside it dropped", () => {
    expect(recessionBands(USREC, "2020-04-01", "2020-07-01")).toEqual([{ start: "2020-04-01", end: "2020-05-01" }]);
    expect(recessionBands(USREC, "2020-05-01", "2020-07-01")).toEqual([]);
  });
});

describe("text", () => {
  test("periods and values as people read them", () => {
    expect([formatPeriod("2026-05-01", "monthly"), formatPeriod("2026-04-01", "quarterly"), formatPeriod("2026-01-01", "annual"), formatPeriod("2026-05-04", "weekly")]).toEqual([
      "May 2026",
      "2026 Q2",
      "2026",
      "May 4, 2026",
    ]);
    expect([formatValue(4.3), formatValue(159552), formatValue(0.0421), formatValue(-12.345)]).toEqual(["4.3", "159,552", "0.042", "-12.35"]);
    expect(escapeXml(`<script>"a" & 'b'</script>`)).toBe("&lt;script&gt;&quot;a&quot; &amp; &apos;b&apos;&lt;/script&gt;");
  });

  const input: ChartInput = {
    series: [
      { label: "California", name: "Unemployment rate", place: "California", unit: "percent", frequency: "monthly", points: months("2025-12", [5.5, 5.4, null]) },
      { label: "Texas", name: "Unemployment rate", place: "Texas", unit: "percent", frequency: "monthly", points: months("2025-12", [4.1, 4.2, 4.3]) },
    ],
    attribution: "Source: U.S. Bureau of Labor Statistics.",
    recessions: [],
    width: 600,
    height: 300,
  };
  test("title, subtitle and description: series, places, period, newest values", () => {
    expect(chartText(input)).toEqual({
      title: "Unemployment rate",
      shortTitle: "Unemployment rate",
      subtitle: ["percent", "Source: U.S. Bureau of Labor Statistics."],
      shortSubtitle: ["percent", "Source: U.S. Bureau of Labor Statistics."],
      desc: "Line chart of Unemployment rate in California; Unemployment rate in Texas, Dec 2025 to Feb 2026. Newest: California 5.4 (Jan 2026); Texas 4.3 (Feb 2026). Source: U.S. Bureau of Labor Statistics.",
    });
  });
  test("several units: none in the subtitle (each is named over its own axis); the short title uses short names", () => {
    const two: ChartInput = {
      ...input,
      series: [
        { label: "Unemployment Rate", name: "Unemployment Rate", place: "the United States", unit: "percent", frequency: "monthly", points: months("2026-01", [4.2, 4.3]) },
        { label: "x", name: "Consumer Price Index for All Urban Consumers: All Items in U.S. City Average", shortName: "Consumer Price Index", place: "the United States", unit: "index 1982-1984=100", frequency: "monthly", points: months("2026-01", [330, 331]) },
      ],
      recessions: [{ start: "2026-01-01", end: "2026-02-01" }],
    };
    const text = chartText(two);
    expect(text.title).toBe("Unemployment Rate, Consumer Price Index for All Urban Consumers: All Items in U.S. City Average: United States");
    expect(text.shortTitle).toBe("Unemployment Rate, Consumer Price Index: United States");
    expect(text.subtitle).toEqual(["Source: U.S. Bureau of Labor Statistics.", "Shaded: US recessions (NBER, FRED USREC)."]);
    expect(text.shortSubtitle).toEqual(["Source: U.S. Bureau of Labor Statistics.", "Shaded: US recessions."]);
  });
  test("the spec draws the layout in pixels: bands, grid, axis, lines, newest points, then the text by style", () => {
    const one = chartSpec({ ...input, series: [input.series[1]!], recessions: [{ start: "2026-01-01", end: "2026-02-01" }], recessionsFrom: "2026-01-01" }) as any;
    expect([one.width, one.height, one.autosize, one.padding]).toEqual([600, 300, { type: "none" }, 0]);
    expect(one.layer.slice(0, 5).map((l: any) => l.mark.type)).toEqual(["rect", "rule", "rule", "line", "point"]);
    expect(one.layer.slice(5).every((l: any) => l.mark.type === "text")).toBe(true);
    // Every position is a pixel (no scale of Vega's own).
    for (const l of one.layer) expect([l.encoding.x.scale, l.encoding.y.scale]).toEqual([null, null]);
    // The newest value, drawn twice: its white halo, then the text in the line's colour.
    const newest = one.layer.flatMap((l: any) => l.data.values.filter((v: any) => v.text === "4.3 (Feb 2026)").map(() => l.mark.stroke ?? l.mark.fontWeight));
    expect(newest).toEqual(["white", "bold"]);
  });
  test("a missing value breaks the line: the runs either side are paths of their own", () => {
    const gap = chartSpec({ ...input, series: [{ ...input.series[1]!, points: months("2025-12", [4.1, null, 4.3, 4.4]) }] }) as any;
    const line = gap.layer.find((l: any) => l.mark.type === "line");
    expect(line.data.values.map((v: any) => v.path)).toEqual(["0.0", "0.1", "0.1"]);
    expect(line.encoding.detail.field).toBe("path");
  });
});

describe("the SVG", () => {
  test("catalog text is escaped; the SVG validates as XML with <title> and <desc> first", async () => {
    const evil: ChartInput = {
      series: [{ label: "x", name: `Rate <script>alert("&")</script>`, place: "A & B", unit: "<b>%</b>", frequency: "annual", points: [{ date: "2020-01-01", value: 1 }, { date: "2021-01-01", value: 2 }] }],
      attribution: "Source: <i>them</i> & co.",
      recessions: [],
      width: 400,
      height: 200,
    };
    const svg = await drawSvg(evil);
    expect(XMLValidator.validate(svg)).toBe(true);
    expect(svg).not.toContain("<script>");
    expect(svg).toContain(`<title id="chart-title">Rate &lt;script&gt;alert(&quot;&amp;&quot;)&lt;/script&gt;: A &amp; B</title>`);
    const parsed = new XMLParser({ ignoreAttributes: false }).parse(svg).svg;
    expect(parsed.desc["#text"]).toBe(`Line chart of Rate <script>alert("&")</script> in A & B, 2020 to 2021. Newest: x 2 (2021). Source: <i>them</i> & co.`);
    expect(parsed["@_aria-labelledby"]).toBe("chart-title chart-desc");
  });
});
