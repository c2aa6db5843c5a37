// The chart's spec and text from hand-built series (src/domain/chart-spec.ts), and the SVG they render to.
import { describe, expect, test } from "bun:test";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { chartSpec, chartText, escapeXml, formatPeriod, formatValue, recessionBands, wrapText, type ChartInput } from "../../src/domain/chart-spec";
import { drawSvg } from "../../src/services/chart";

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
      subtitle: ["California, Texas · percent", "Source: U.S. Bureau of Labor Statistics."],
      desc: "Line chart of Unemployment rate in California; Unemployment rate in Texas, Dec 2025 to Feb 2026. Newest: California 5.4 (Jan 2026); Texas 4.3 (Feb 2026). Source: U.S. Bureau of Labor Statistics.",
    });
  });
  test("the spec: several lines name their newest values in the legend, one line by its end; bands only with recessions", () => {
    const spec = chartSpec(input) as any;
    expect(spec.layer.map((l: any) => l.mark.type)).toEqual(["line", "point"]);
    expect(spec.layer[1].data.values).toEqual([
      { date: "2026-01-01", value: 5.4, series: "California 5.4 (Jan 2026)", label: "5.4 (Jan 2026)" },
      { date: "2026-02-01", value: 4.3, series: "Texas 4.3 (Feb 2026)", label: "4.3 (Feb 2026)" },
    ]);
    expect(spec.layer[0].encoding.color.legend.orient).toBe("bottom");
    const one = chartSpec({ ...input, series: [input.series[1]!], recessions: [{ start: "2026-01-01", end: "2026-02-01" }], recessionsFrom: "2026-01-01" }) as any;
    expect(one.layer.map((l: any) => l.mark.type)).toEqual(["rect", "line", "point", "text", "text"]);
    expect(one.layer[4].data.values).toEqual([{ date: "2026-02-01", value: 4.3, series: "Texas", label: "4.3 (Feb 2026)" }]);
    expect(one.title.text).toEqual(["Unemployment rate: Texas"]);
    // Lines that fit 570 pixels as Vega measures text without a canvas (0.8 em a character: 64 at 11 px).
    expect(one.title.subtitle).toEqual(["percent", "Source: U.S. Bureau of Labor Statistics.", "Shaded: US recessions (NBER, FRED USREC, held from Jan 2026)."]);
    expect(wrapText("aaaa bbbb cccc dddd", 80, 10)).toEqual(["aaaa bbbb", "cccc dddd"]);
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
