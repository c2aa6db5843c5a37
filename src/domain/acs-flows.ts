// The Census "State-to-State Migration Flows" matrix (ACS 1-year) as flow records (src/domain/flows.ts).
// Layout: a header `name,<state>,<state>,...` (a UTF-8 BOM before it is ignored), then one row per state: the first
// field names the state of CURRENT residence (the destination), each other column the state of residence ONE YEAR
// AGO (the origin); the cell is the number of persons who moved from that origin to that destination. The diagonal
// (people who stayed, or moved within the state) is `N/A` and is not a flow; an `N/A` elsewhere is a suppressed
// cell (value null). States are named in full; `stateCode` maps a name to its region code (FIPS), and a name it does
// not know is an error rather than a silently dropped state. The table carries no margins of error (moe null).
import { CsvObservationsError, parseCsvRecords } from "./csv-observations";
import { FlowFileError, type FlowRecord } from "./flows";

export const ACS_STATE_DATASET = "acs-state-to-state-1y" as const;

function records(text: string) {
  try {
    return parseCsvRecords(text);
  } catch (e) {
    if (e instanceof CsvObservationsError) throw new FlowFileError(e.reason, e.line);
    throw e;
  }
}

export function parseAcsStateMatrix(
  text: string,
  opts: { year: number; stateCode: (name: string) => string | null },
): FlowRecord[] {
  const rows = records(text);
  if (rows.length === 0) throw new FlowFileError("empty file");
  const header = rows[0]!;
  if (header.fields[0]?.trim().toLowerCase() !== "name")
    throw new FlowFileError(
      `the first column must be 'name' (the destination state), found '${header.fields[0] ?? ""}'`,
      header.line,
    );
  const code = (name: string, line: number) => {
    const c = opts.stateCode(name.trim());
    if (!c) throw new FlowFileError(`unknown state '${name.trim()}'`, line);
    return c;
  };
  const origins = header.fields.slice(1).map((n) => code(n, header.line));
  if (new Set(origins).size !== origins.length)
    throw new FlowFileError("a state is named twice among the columns", header.line);
  const period = { periodStart: `${opts.year}-01-01`, periodEnd: `${opts.year}-12-31` };
  const seen = new Set<string>();
  const out: FlowRecord[] = [];
  for (const row of rows.slice(1)) {
    if (row.fields.length !== header.fields.length)
      throw new FlowFileError(`expected ${header.fields.length} fields, found ${row.fields.length}`, row.line);
    const destination = code(row.fields[0]!, row.line);
    if (seen.has(destination)) throw new FlowFileError(`state '${row.fields[0]!.trim()}' has two rows`, row.line);
    seen.add(destination);
    origins.forEach((origin, k) => {
      const cell = row.fields[k + 1]!.trim();
      if (origin === destination) {
        if (cell !== "N/A" && cell !== "")
          throw new FlowFileError(
            `the diagonal cell of '${row.fields[0]!.trim()}' holds '${cell}', expected N/A`,
            row.line,
          );
        return;
      }
      let value: number | null;
      if (cell === "N/A") value = null;
      else if (/^\d+$/.test(cell)) value = Number(cell);
      else
        throw new FlowFileError(
          `column '${header.fields[k + 1]!.trim()}': '${cell}' is not a count of persons`,
          row.line,
        );
      out.push({ dataset: ACS_STATE_DATASET, measure: "movers", origin, destination, ...period, value, moe: null });
    });
  }
  return out;
}
