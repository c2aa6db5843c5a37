// The ask question grid (test/ask/README.md): rows of intent x topic x place kind cells, several phrasings each, with
// labels in the rule language of answer-rules.ts. The first split held out one phrasing per cell, chosen by
// heldPhrasing() from the cell's name alone, so it is reproducible: test/ask/grid.tsv kept the rest, and the held third,
// once run, became tuning rows too (test/ask/grid-round1.tsv). Held rows written since live outside every repository
// the resolver is tuned in (see the README).
//
// Run as a script to split a full authoring file: `bun test/ask/grid.ts FULL.tsv TUNE.tsv HELD.tsv`.
import { readFileSync, writeFileSync } from "node:fs";

export const GRID_HEADER = ["cell", "class", "phrasing", "question", "status", "places", "expect", "note"];

export type GridRow = {
  line: number;
  cell: string;
  cls: number;
  phrasing: number;
  question: string;
  status: string;
  places: string;
  expect: string;
  note: string;
};

export function parseGrid(text: string): GridRow[] {
  const [header, ...lines] = text.replace(/\n$/, "").split("\n");
  if (header !== GRID_HEADER.join("\t")) throw new Error(`grid header is not ${GRID_HEADER.join(", ")}`);
  return lines.map((l, i) => {
    const c = l.split("\t");
    if (c.length !== GRID_HEADER.length)
      throw new Error(`line ${i + 2}: ${c.length} cells, expected ${GRID_HEADER.length}`);
    return {
      line: i + 2,
      cell: c[0],
      cls: Number(c[1]),
      phrasing: Number(c[2]),
      question: c[3],
      status: c[4],
      places: c[5],
      expect: c[6],
      note: c[7],
    };
  });
}

export const formatGrid = (rows: GridRow[]) =>
  [
    GRID_HEADER.join("\t"),
    ...rows.map((r) => [r.cell, r.cls, r.phrasing, r.question, r.status, r.places, r.expect, r.note].join("\t")),
  ].join("\n") + "\n";

/** FNV-1a, 32 bits: a fixed hash of the cell's name. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) h = Math.imul(h ^ byte, 0x01000193) >>> 0;
  return h;
}
/** The held-out phrasing (1-based) of a cell of `phrasings` rows. */
export const heldPhrasing = (cell: string, phrasings: number) => (fnv1a(cell) % phrasings) + 1;

export function splitGrid(rows: GridRow[]): { tune: GridRow[]; held: GridRow[] } {
  const count = new Map<string, number>();
  for (const r of rows) count.set(r.cell, (count.get(r.cell) ?? 0) + 1);
  const isHeld = (r: GridRow) => r.phrasing === heldPhrasing(r.cell, count.get(r.cell)!);
  return { tune: rows.filter((r) => !isHeld(r)), held: rows.filter(isHeld) };
}

if (import.meta.main) {
  const [full, tunePath, heldPath] = process.argv.slice(2);
  if (!heldPath) throw new Error("usage: bun test/ask/grid.ts FULL.tsv TUNE.tsv HELD.tsv");
  const { tune, held } = splitGrid(parseGrid(readFileSync(full, "utf8")));
  writeFileSync(tunePath, formatGrid(tune));
  writeFileSync(heldPath, formatGrid(held));
  console.log(`${tune.length} tuning rows -> ${tunePath}, ${held.length} held rows -> ${heldPath}`);
}
