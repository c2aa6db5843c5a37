// CSV text (RFC 4180): a header row, then one line per row, CRLF line ends. A field is quoted when it holds a comma,
// a double quote (doubled inside), CR or LF, or starts or ends with a space; null and undefined are empty fields;
// numbers are written as JavaScript writes them (shortest round-trip form); booleans as true/false.
export function toCsv(columns: readonly string[], rows: readonly Record<string, unknown>[]): string {
  const lines = [columns.map(field).join(",")];
  for (const row of rows) lines.push(columns.map((c) => field(row[c])).join(","));
  return `${lines.join("\r\n")}\r\n`;
}

function field(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = typeof value === "string" ? value : String(value);
  return /[",\r\n]|^ | $/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
