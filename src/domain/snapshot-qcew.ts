// BLS QCEW annual averages ("YYYY.annual 10 10 Total, all industries.csv", the standard 45-column annual CSV) ->
// catalog series ENU10010 (annual average employment), ENU20010 (establishments) and ENU50010 (average annual pay),
// by state (aggregation level 50, area_fips SS000) and county (level 70), total covered (own_code 0), dated
// YYYY-01-01. Other levels (the nation, metro areas, ownership breakdowns) are skipped. A cell BLS does not disclose
// (disclosure_code "N") is written as 0 in the file: it is missing, never zero. Pure: file text in, series out.
import { parseCsvRecords } from "./csv-observations";
import { parseUpstreamNumber } from "./upstream-numbers";
import type { SnapshotSeries } from "./snapshot-files";
import { columnFinder } from "./snapshot-laus";

const QCEW_COLUMNS = [
  { code: "ENU10010", column: "annual_avg_emplvl" },
  { code: "ENU20010", column: "annual_avg_estabs_count" },
  { code: "ENU50010", column: "avg_annual_pay" },
] as const;

export function qcewAnnualTotals(
  text: string,
  sourceUpdatedAt?: string,
): { series: SnapshotSeries[]; undisclosed: number } {
  const [head, ...records] = parseCsvRecords(text);
  const header = head.fields.map((h) => h.trim());
  const at = columnFinder(header, "QCEW annual file");
  const [area, own, industry, level, year, disclosure] = [
    "area_fips",
    "own_code",
    "industry_code",
    "agglvl_code",
    "year",
    "disclosure_code",
  ].map(at);
  const cols = QCEW_COLUMNS.map((c) => ({ ...c, col: at(c.column) }));
  const series: SnapshotSeries[] = [];
  let undisclosed = 0;
  for (const { fields: f, line } of records) {
    if (f.length < header.length) continue;
    if (f[own] !== "0" || f[industry] !== "10" || (f[level] !== "50" && f[level] !== "70")) continue;
    const fips = f[area].trim();
    if (!/^\d{5}$/.test(fips) || !/^\d{4}$/.test(f[year]))
      throw new Error(`QCEW line ${line}: area ${fips} year ${f[year]}`);
    const region = f[level] === "50" ? fips.slice(0, 2) : fips;
    const hidden = f[disclosure].trim() === "N";
    if (hidden) undisclosed++;
    for (const c of cols) {
      let value: number | null;
      try {
        value = hidden ? null : parseUpstreamNumber(f[c.col]);
      } catch {
        throw new Error(`QCEW line ${line} ${c.column}: not a number: ${JSON.stringify(f[c.col])}`);
      }
      series.push({
        dataset: "bls-qcew-annual",
        source: "bls",
        code: c.code,
        region,
        rows: [{ date: `${f[year]}-01-01`, value }],
        sourceUpdatedAt,
      });
    }
  }
  return { series, undisclosed };
}
