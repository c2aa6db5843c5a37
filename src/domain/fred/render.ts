// FRED's JSON and XML documents for the four series endpoints, byte-shaped as FRED writes them: JSON fields in
// FRED's order, every observation value a string; XML as one root element whose attributes are the header fields
// and one empty child element per row (values in attributes), after an XML declaration.
//   observations  {realtime_start, realtime_end, observation_start, observation_end, units, output_type, file_type,
//                  order_by, sort_order, count, offset, limit, observations: [{realtime_start, realtime_end, date, value}]}
//                 output types 2 and 3: rows {date, SERIES_YYYYMMDD: value, ...} (type 2 prints "." where a vintage
//                 lacks the date, type 3 leaves the column out)
//   series        {realtime_start, realtime_end, seriess: [series]}
//   search        {realtime_start, realtime_end, order_by, sort_order, count, offset, limit, seriess: [series]}
//   vintagedates  {realtime_start, realtime_end, order_by: "vintage_date", sort_order, count, offset, limit, vintage_dates}
import { xmlAttribute, type FredFileType } from "./errors";
import { vintageColumn, type ObservationsAnswer } from "./observations";

export type FredSeriesMeta = {
  id: string;
  realtime_start: string;
  realtime_end: string;
  title: string;
  observation_start: string;
  observation_end: string;
  frequency: string;
  frequency_short: string;
  units: string;
  units_short: string;
  seasonal_adjustment: string;
  seasonal_adjustment_short: string;
  last_updated: string;
  popularity: number;
  notes: string;
};
export type SeriesAnswer = { realtime_start: string; realtime_end: string; seriess: FredSeriesMeta[] };
export type SearchAnswer = {
  realtime_start: string;
  realtime_end: string;
  order_by: string;
  sort_order: string;
  count: number;
  offset: number;
  limit: number;
  seriess: FredSeriesMeta[];
};
export type VintageDatesAnswer = {
  realtime_start: string;
  realtime_end: string;
  order_by: "vintage_date";
  sort_order: string;
  count: number;
  offset: number;
  limit: number;
  vintage_dates: string[];
};
export type Rendered = { body: string; contentType: string };

const JSON_TYPE = "application/json; charset=UTF-8";
const XML_TYPE = "text/xml; charset=UTF-8";
const DECLARATION = '<?xml version="1.0" encoding="utf-8" ?>\n';

function attributes(fields: Record<string, string | number>): string {
  let out = "";
  for (const [k, v] of Object.entries(fields)) out += ` ${k}="${xmlAttribute(String(v))}"`;
  return out;
}

function element(name: string, head: Record<string, string | number>, children: string[]): string {
  return `${DECLARATION}<${name}${attributes(head)}>\n${children.join("")}</${name}>\n`;
}

function observationRows(a: ObservationsAnswer): Record<string, string>[] {
  if (a.kind === "periods") return a.rows;
  const columns = a.vintages.map((v) => [v, vintageColumn(a.seriesId, v)] as const);
  return a.rows.map((r) => {
    const row: Record<string, string> = { date: r.date };
    for (const [v, name] of columns) {
      const value = r.values.get(v);
      if (value !== undefined) row[name] = value;
      else if (a.output_type === 2) row[name] = ".";
    }
    return row;
  });
}

export function renderObservations(a: ObservationsAnswer, fileType: FredFileType): Rendered {
  const {
    kind: _kind,
    rows: _rows,
    ...withExtras
  } = a as ObservationsAnswer & { seriesId?: string; vintages?: string[] };
  const { seriesId: _id, vintages: _v, ...head } = withExtras;
  const rows = observationRows(a);
  if (fileType === "json") return { body: JSON.stringify({ ...head, observations: rows }), contentType: JSON_TYPE };
  return {
    body: element(
      "observations",
      head,
      rows.map((r) => `  <observation${attributes(r)}/>\n`),
    ),
    contentType: XML_TYPE,
  };
}

function seriesElements(list: FredSeriesMeta[]): string[] {
  return list.map((s) => `  <series${attributes(s)}/>\n`);
}

export function renderSeries(a: SeriesAnswer, fileType: FredFileType): Rendered {
  if (fileType === "json") return { body: JSON.stringify(a), contentType: JSON_TYPE };
  const { seriess, ...head } = a;
  return { body: element("seriess", head, seriesElements(seriess)), contentType: XML_TYPE };
}

export function renderSearch(a: SearchAnswer, fileType: FredFileType): Rendered {
  if (fileType === "json") return { body: JSON.stringify(a), contentType: JSON_TYPE };
  const { seriess, ...head } = a;
  return { body: element("seriess", head, seriesElements(seriess)), contentType: XML_TYPE };
}

export function renderVintageDates(a: VintageDatesAnswer, fileType: FredFileType): Rendered {
  if (fileType === "json") return { body: JSON.stringify(a), contentType: JSON_TYPE };
  const { vintage_dates, ...head } = a;
  return {
    body: element(
      "vintage_dates",
      head,
      vintage_dates.map((d) => `  <vintage_date>${d}</vintage_date>\n`),
    ),
    contentType: XML_TYPE,
  };
}
