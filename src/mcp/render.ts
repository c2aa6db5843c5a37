// The text of a tool result, for models that read `content` rather than `structuredContent`: the same body laid out
// to be read instead of JSON that repeats every key on every row. A summary line first; then each top-level field:
// an array of records as a Markdown table, with the columns whose value is the same on every row written once above
// it ("unit: percent"); an object as `path: value` lines; anything else as `name: value`. Values print as JSON
// scalars would (null, true, 4.6) except strings, which print bare; a record nested in a table cell prints as
// compact JSON. Nothing is dropped, so the text answers what the structured content answers.

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonRecord = { [k: string]: Json };

const isRecord = (v: unknown): v is JsonRecord => typeof v === "object" && v !== null && !Array.isArray(v);
const isRecordArray = (v: unknown): v is JsonRecord[] => Array.isArray(v) && v.length > 0 && v.every(isRecord);

/** One value on one line. */
function scalar(v: Json | undefined): string {
  if (v === undefined) return "";
  if (typeof v === "string") return v.replace(/\s*\n\s*/g, " ");
  if (Array.isArray(v) && v.every((x) => x === null || typeof x !== "object"))
    return v.map((x) => scalar(x)).join(", ");
  return JSON.stringify(v);
}

/** A table cell: one line, with the column separator escaped. */
const cell = (v: Json | undefined) => scalar(v).replace(/\|/g, "\\|");

/** `path: value` lines of an object, nested objects flattened to dotted paths. */
function objectLines(obj: JsonRecord, path: string): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(obj)) {
    const p = `${path}.${k}`;
    if (isRecord(v) && Object.keys(v).length > 0) out.push(...objectLines(v, p));
    else if (isRecordArray(v)) out.push(...tableLines(p, v));
    else out.push(`${p}: ${scalar(v)}`);
  }
  return out;
}

/** A Markdown table of records, the columns equal on every row (of two or more) written once above it. */
function tableLines(name: string, rows: JsonRecord[]): string[] {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const shared =
    rows.length > 1 ? columns.filter((c) => rows.every((r) => c in r && scalar(r[c]) === scalar(rows[0]![c]))) : [];
  const varying = columns.filter((c) => !shared.includes(c));
  const out = [`${name}: ${rows.length} ${rows.length === 1 ? "row" : "rows"}`];
  if (shared.length) out.push(`(every row) ${shared.map((c) => `${c}: ${scalar(rows[0]![c])}`).join("; ")}`);
  if (varying.length) {
    out.push(`| ${varying.join(" | ")} |`, `|${varying.map(() => "---").join("|")}|`);
    for (const r of rows) out.push(`| ${varying.map((c) => cell(r[c])).join(" | ")} |`);
  }
  return out;
}

/** The text of a JSON body: `summary`, then every top-level field. */
export function renderBody(summary: string, body: JsonRecord): string {
  const lines = [summary];
  for (const [k, v] of Object.entries(body)) {
    if (isRecordArray(v)) lines.push(...tableLines(k, v));
    else if (Array.isArray(v) && v.length === 0) lines.push(`${k}: none`);
    else if (isRecord(v)) lines.push(...(Object.keys(v).length ? objectLines(v, k) : [`${k}: {}`]));
    else lines.push(`${k}: ${scalar(v)}`);
  }
  return lines.join("\n");
}
