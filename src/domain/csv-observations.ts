// CSV text -> dated observations for one series. Definitions:
// - Records follow RFC 4180: fields separated by commas, a quoted field may hold commas, CR/LF and "" for a quote.
//   LF, CRLF and CR all end a record; a leading UTF-8 BOM is ignored; blank records are skipped.
// - Line numbers are 1-based physical lines of the text (the header is line 1 in a usual file); a record's line is
//   the line it starts on.
// - Header: the first record is a header unless one of its fields is a date (then columns are numbered 1, 2, ...).
// - Date column: the one asked for, else a header named `observation_date` or `date` (any case: FRED's new and old
//   downloads, most data packages), else the first column.
// - Value column: the one asked for, else a header named `value` (any case), else the second column of a
//   two-column file (FRED's `observation_date,UNRATE`). With more columns it must be named.
//   A column is asked for by header name (exact, then any case) or by 1-based number.
// - Dates: `YYYY-MM-DD`, `YYYY-MM` and `YYYY`, the last two meaning the first day of that month or year.
// - Values: an empty field or FRED's `.` is a missing observation (null). Otherwise a decimal number with an optional
//   sign, optional comma thousands groups (`1,234.5`, which must be quoted in CSV), optional fraction and exponent.
//   Anything else is an error naming the line and column.
// - A date may appear once: `2020-01` and `2020-01-01` are the same date.

export type CsvObservation = { date: string; value: number | null; line: number };

export type ParsedObservationsCsv = {
  /** Header names of the chosen columns, or `column N` for a file without a header. */
  dateColumn: string;
  valueColumn: string;
  hasHeader: boolean;
  rows: CsvObservation[];
};

export class CsvObservationsError extends Error {
  constructor(
    readonly reason: string,
    readonly line: number | null = null,
    readonly column: string | null = null,
  ) {
    super(line === null ? reason : `line ${line}${column ? `, column ${column}` : ""}: ${reason}`);
  }
}

type CsvRecord = { fields: string[]; line: number };

/** Splits CSV text into records; blank records are dropped. */
export function parseCsvRecords(text: string): CsvRecord[] {
  const s = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = "";
  let line = 1;
  let recordLine = 1;
  let i = 0;
  const endRecord = () => {
    fields.push(field);
    if (!(fields.length === 1 && fields[0].trim() === "")) records.push({ fields, line: recordLine });
    fields = [];
    field = "";
  };
  while (i < s.length) {
    const c = s[i];
    if (c === '"' && field.trim() === "") {
      // Quoted field (whitespace before the opening quote is tolerated and dropped).
      const openLine = line;
      field = "";
      i++;
      for (;;) {
        if (i >= s.length) throw new CsvObservationsError("unterminated quoted field", openLine);
        const q = s[i];
        if (q === '"') {
          if (s[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        if (q === "\r" || q === "\n") {
          if (q === "\r" && s[i + 1] === "\n") {
            field += "\r";
            i++;
          }
          line++;
        }
        field += s[i];
        i++;
      }
      // Only spaces may follow the closing quote before the separator.
      while (i < s.length && (s[i] === " " || s[i] === "\t")) i++;
      if (i < s.length && s[i] !== "," && s[i] !== "\r" && s[i] !== "\n") {
        throw new CsvObservationsError("unexpected text after a closing quote", line);
      }
      continue;
    }
    if (c === ",") {
      fields.push(field);
      field = "";
      i++;
    } else if (c === "\r" || c === "\n") {
      endRecord();
      i += c === "\r" && s[i + 1] === "\n" ? 2 : 1;
      line++;
      recordLine = line;
    } else {
      field += c;
      i++;
    }
  }
  if (field !== "" || fields.length > 0) endRecord();
  return records;
}

const FULL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH = /^(\d{4})-(\d{2})$/;
const YEAR = /^(\d{4})$/;

/** `YYYY-MM-DD`, `YYYY-MM` or `YYYY` as a `YYYY-MM-DD` calendar date (first day of the period), else null. */
export function normaliseObservationDate(raw: string): string | null {
  const s = raw.trim();
  let m = FULL_DATE.exec(s);
  if (m) {
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return null;
    return s;
  }
  m = MONTH.exec(s);
  if (m) {
    const mo = Number(m[2]);
    if (Number(m[1]) < 1 || mo < 1 || mo > 12) return null;
    return `${s}-01`;
  }
  m = YEAR.exec(s);
  if (m) return Number(m[1]) < 1 ? null : `${s}-01-01`;
  return null;
}

function daysInMonth(y: number, m: number): number {
  return [31, (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
}

const NUMBER = /^[+-]?(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A strict decimal number (see the file comment); null for a missing value; undefined when the text is not a number. */
export function parseObservationValue(raw: string): number | null | undefined {
  const s = raw.trim();
  if (s === "" || s === ".") return null;
  if (!NUMBER.test(s)) return undefined;
  const n = Number(s.replace(/,/g, ""));
  return Number.isFinite(n) ? n : undefined;
}

function pickColumn(header: string[] | null, width: number, asked: string, flag: string): number {
  if (header) {
    const exact = header.indexOf(asked);
    if (exact >= 0) return exact;
    const folded = header.findIndex((h) => h.trim().toLowerCase() === asked.trim().toLowerCase());
    if (folded >= 0) return folded;
  }
  if (/^\d+$/.test(asked.trim())) {
    const n = Number(asked.trim());
    if (n >= 1 && n <= width) return n - 1;
  }
  const have = header
    ? `columns are ${header.map((h) => JSON.stringify(h)).join(", ")}`
    : `the file has no header and ${width} columns`;
  throw new CsvObservationsError(`${flag} ${JSON.stringify(asked)} matches no column (${have})`);
}

export function parseObservationsCsv(
  text: string,
  opts: { dateColumn?: string; valueColumn?: string } = {},
): ParsedObservationsCsv {
  const records = parseCsvRecords(text);
  if (records.length === 0) throw new CsvObservationsError("the file is empty");
  const first = records[0];
  const hasHeader = !first.fields.some((f) => normaliseObservationDate(f) !== null);
  const header = hasHeader ? first.fields.map((h) => h.trim()) : null;
  const width = first.fields.length;
  const nameOf = (i: number) => (header ? JSON.stringify(header[i]) : `${i + 1}`);

  let dateIdx: number;
  if (opts.dateColumn !== undefined) dateIdx = pickColumn(header, width, opts.dateColumn, "date column");
  else {
    const named = header ? header.findIndex((h) => ["observation_date", "date"].includes(h.toLowerCase())) : -1;
    dateIdx = named >= 0 ? named : 0;
  }
  let valueIdx: number;
  if (opts.valueColumn !== undefined) valueIdx = pickColumn(header, width, opts.valueColumn, "value column");
  else {
    const named = header ? header.findIndex((h) => h.toLowerCase() === "value") : -1;
    if (named >= 0) valueIdx = named;
    else if (width === 2) valueIdx = 1 - dateIdx;
    else {
      const cols = header ? header.map((h) => JSON.stringify(h)).join(", ") : `${width} unnamed columns`;
      throw new CsvObservationsError(
        `cannot tell which column holds the values (${cols}): name it with the value column option`,
      );
    }
  }
  if (valueIdx === dateIdx)
    throw new CsvObservationsError(`the date and value columns are the same column (${nameOf(dateIdx)})`);

  const rows: CsvObservation[] = [];
  const lineOfDate = new Map<string, number>();
  for (const rec of hasHeader ? records.slice(1) : records) {
    const need = Math.max(dateIdx, valueIdx) + 1;
    if (rec.fields.length < need) {
      throw new CsvObservationsError(`expected at least ${need} fields, found ${rec.fields.length}`, rec.line);
    }
    const rawDate = rec.fields[dateIdx];
    const date = normaliseObservationDate(rawDate);
    if (date === null) {
      throw new CsvObservationsError(
        `${JSON.stringify(rawDate.trim())} is not a date (expected YYYY-MM-DD, YYYY-MM or YYYY)`,
        rec.line,
        nameOf(dateIdx),
      );
    }
    const rawValue = rec.fields[valueIdx];
    const value = parseObservationValue(rawValue);
    if (value === undefined) {
      throw new CsvObservationsError(`${JSON.stringify(rawValue.trim())} is not a number`, rec.line, nameOf(valueIdx));
    }
    const seen = lineOfDate.get(date);
    if (seen !== undefined)
      throw new CsvObservationsError(`duplicate date ${date} (also on line ${seen})`, rec.line, nameOf(dateIdx));
    lineOfDate.set(date, rec.line);
    rows.push({ date, value, line: rec.line });
  }
  return {
    dateColumn: header ? header[dateIdx] : `column ${dateIdx + 1}`,
    valueColumn: header ? header[valueIdx] : `column ${valueIdx + 1}`,
    hasHeader,
    rows,
  };
}
