// The faults bench's report (bench/faults.ts): a row per fault, printed as a table and written to
// bench/out/faults-<time>.json.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "./load";

export type FaultRow = {
  fault: string;
  sent: number;
  statuses: Record<string, number>;
  noAnswer: number;
  lost: number | null;
  recoverMs: number | null;
  note: string;
};

/** Prints the table and writes the JSON; the number of faults with requests unanswered or metered requests lost. */
export function reportFaults(rows: FaultRow[], clients: number, holdMs: number): number {
  const fmtStatuses = (s: Record<string, number>) =>
    Object.entries(s)
      .map(([k, v]) => `${k}: ${v}`)
      .join(", ") || "-";
  const table = [
    ["fault", "sent", "answers by status", "no answer", "lost", "recovered in", "notes"],
    ...rows.map((r) => [
      r.fault,
      String(r.sent),
      fmtStatuses(r.statuses),
      String(r.noAnswer),
      r.lost === null ? "-" : String(r.lost),
      r.recoverMs === null ? "-" : `${Math.round(r.recoverMs)} ms`,
      r.note,
    ]),
  ];
  console.log(
    `\nfaults under load: ${clients} keyed clients, each fault held ${holdMs / 1000} s (lost = 200 answers - usage in the database after a clean stop)\n`,
  );
  console.log(
    table
      .map((r) => `| ${r.join(" | ")} |`)
      .join("\n")
      .replace(/\n/, `\n|${table[0]!.map(() => "---").join("|")}|\n`),
  );
  mkdirSync(join(REPO_ROOT, "bench/out"), { recursive: true });
  const file = join(REPO_ROOT, `bench/out/faults-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, JSON.stringify({ clients: clients, holdMs: holdMs, rows }, null, 2));
  console.error(`written ${file}`);
  return rows.filter((r) => r.noAnswer > 0 || (r.lost !== null && r.lost !== 0)).length;
}
