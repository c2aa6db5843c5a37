// FRED's parameter names and values translated to ours (src/domain/fred-habits.ts): every translation names only
// what the operation takes, the transforms named exist (parseTransform), and no caller-given value is repeated
// unless it is one of FRED's own codes.
import { describe, expect, test } from "bun:test";
import { translateFredParameters, translateFredValue } from "../../src/domain/fred-habits";
import { RESAMPLE_METHODS, RESAMPLE_TARGETS } from "../../src/domain/resample";
import { parseTransform } from "../../src/domain/transforms";

const OBSERVATIONS = [
  "indicator",
  "source",
  "region",
  "start_date",
  "end_date",
  "include_revisions",
  "limit",
  "offset",
  "order",
  "transform",
  "frequency",
  "resample_method",
];
const one = (name: string, ...values: string[]) =>
  translateFredParameters(new Map([[name, values.length ? values : [""]]]), OBSERVATIONS);

describe("FRED parameter names", () => {
  test("observation_start, observation_end, series_id and sort_order name our parameter", () => {
    expect(one("observation_start", "2020-01-01")).toEqual([
      {
        fred: "observation_start",
        ours: ["start_date"],
        message: "FRED's observation_start is start_date here (YYYY-MM-DD).",
      },
    ]);
    expect(one("observation_end", "2024-12-31")).toEqual([
      { fred: "observation_end", ours: ["end_date"], message: "FRED's observation_end is end_date here (YYYY-MM-DD)." },
    ]);
    expect(one("series_id", "UNRATE")).toEqual([
      { fred: "series_id", ours: ["indicator"], message: "FRED's series_id is indicator here." },
    ]);
    expect(one("sort_order", "desc")[0]!.ours).toEqual(["order"]);
  });

  test("units: pch, pc1 and log name existing transforms; chg says plainly that none offers an absolute change", () => {
    const pch = one("units", "pch")[0]!;
    expect(pch.ours).toEqual(["transform=mom", "transform=qoq", "transform=yoy"]);
    expect(pch.message).toContain(
      "FRED's units=pch (percent change from the previous period) is transform=mom on a monthly series, transform=qoq on a quarterly one and transform=yoy on an annual one",
    );
    expect(one("units", "pc1")).toEqual([
      {
        fred: "units=pc1",
        ours: ["transform=yoy"],
        message: "FRED's units=pc1 (percent change from a year ago) is transform=yoy here.",
      },
    ]);
    expect(one("units", "log")).toEqual([
      { fred: "units=log", ours: ["transform=log"], message: "FRED's units=log (natural log) is transform=log here." },
    ]);
    const chg = one("units", "chg")[0]!;
    expect(chg.ours).toEqual([]);
    expect(chg.message).toStartWith(
      "FRED's units=chg (change from the previous period, in the series' unit) has no equivalent here: no transform offers an absolute change",
    );
    expect(one("units", "lin")[0]!.message).toBe("FRED's units=lin (levels) is the default here: leave transform out.");
    for (const v of ["lin", "chg", "ch1", "pch", "pc1", "pca", "cch", "cca", "log"]) {
      for (const o of one("units", v)[0]!.ours) expect(parseTransform(o.replace(/^transform=/, ""))).not.toBeNull();
    }
  });

  test("units with a value FRED does not have names the parameter and does not repeat the value", () => {
    const [t] = one("units", "<script>");
    expect(t).toEqual({
      fred: "units",
      ours: ["transform"],
      message: "FRED's units is transform here (yoy, mom, qoq, index:YYYY-MM-DD or log).",
    });
    expect(JSON.stringify(t)).not.toContain("script");
  });

  test("units given twice translates each FRED value once", () => {
    expect(one("units", "pc1", "log", "pc1").map((t) => t.fred)).toEqual(["units=pc1", "units=log"]);
  });

  test("aggregation_method avg, eop, sum -> resample_method mean, last, sum", () => {
    expect(one("aggregation_method", "avg")[0]!.ours).toEqual(["resample_method=mean"]);
    expect(one("aggregation_method", "eop")).toEqual([
      {
        fred: "aggregation_method=eop",
        ours: ["resample_method=last"],
        message: "FRED's aggregation_method=eop (end of period) is resample_method=last here.",
      },
    ]);
    expect(one("aggregation_method", "sum")[0]!.ours).toEqual(["resample_method=sum"]);
    for (const v of ["avg", "eop", "sum"])
      expect(RESAMPLE_METHODS).toContain(one("aggregation_method", v)[0]!.ours[0]!.split("=")[1] as never);
  });

  test("api_key sends the key to the headers and never carries its value", () => {
    const secret = "abcdef0123456789abcdef0123456789";
    const [t] = one("api_key", secret);
    expect(t).toEqual({
      fred: "api_key",
      ours: ["Authorization: Bearer <key>", "X-API-Key: <key>"],
      message:
        "FRED's api_key: send the key in the 'Authorization: Bearer <key>' or 'X-API-Key: <key>' header, never in the URL (URLs end up in logs and histories).",
    });
    expect(JSON.stringify(t)).not.toContain(secret);
  });

  test("a name that is not FRED's, or a FRED name whose equivalent the operation does not take, is left alone", () => {
    expect(one("start")).toEqual([]);
    expect(one("constructor")).toEqual([]);
    expect(
      translateFredParameters(new Map([["observation_start", ["2020-01-01"]]]), [
        "indicator",
        "indicators",
        "source",
        "region",
      ]),
    ).toEqual([]);
    // The key belongs in a header whatever the operation takes.
    expect(translateFredParameters(new Map([["api_key", ["k"]]]), [])[0]!.fred).toBe("api_key");
  });
});

describe("FRED values on our parameters", () => {
  test("frequency=m|q|a names monthly|quarterly|annual", () => {
    expect(translateFredValue("frequency", "m", RESAMPLE_TARGETS)).toEqual({
      fred: "frequency=m",
      ours: ["frequency=monthly"],
      message: "FRED's frequency=m (monthly) is frequency=monthly here.",
    });
    expect(translateFredValue("frequency", "q", RESAMPLE_TARGETS)!.ours).toEqual(["frequency=quarterly"]);
    expect(translateFredValue("frequency", "a", RESAMPLE_TARGETS)!.ours).toEqual(["frequency=annual"]);
  });

  test("a translation the parameter would refuse in turn is not offered", () => {
    expect(translateFredValue("frequency", "d", RESAMPLE_TARGETS)).toBeNull();
    expect(translateFredValue("frequency", "d", ["daily", "weekly", "monthly", "quarterly", "annual"])!.ours).toEqual([
      "frequency=daily",
    ]);
    expect(translateFredValue("frequency", "sa", RESAMPLE_TARGETS)).toBeNull();
  });

  test("transform and resample_method read FRED's units and aggregation_method codes", () => {
    expect(translateFredValue("transform", "pc1")).toEqual({
      fred: "transform=pc1",
      ours: ["transform=yoy"],
      message: "FRED's units=pc1 (percent change from a year ago) is transform=yoy here.",
    });
    expect(translateFredValue("resample_method", "avg")!.message).toBe(
      "FRED's aggregation_method=avg (average) is resample_method=mean here.",
    );
  });

  test("values and parameters that are not FRED's give nothing", () => {
    expect(translateFredValue("frequency", "hourly")).toBeNull();
    expect(translateFredValue("frequency", "toString")).toBeNull();
    expect(translateFredValue("order", "m")).toBeNull();
  });
});
