// Indicator catalog search, filters and ordering over an in-memory list, with the semantics the SQL version had
// (db/repos/catalog.ts listIndicatorPage):
// - visible: the indicator is active and its source (if any) is active, unless inactive rows are asked for;
// - source, category, frequency: exact equality;
// - search: a case-insensitive substring (wildcards are plain characters) of the name, the code or the description;
// - order: the base list's order (code, then source, byte order), and with a search, first the codes equal to the
//   term ignoring case, then codes starting with it, then names containing it, then the rest (a stable sort keeps
//   the base order within each group);
// - standing (when the caller says what is held, from the coverage table and the clock): what a reader can use now
//   comes first. Without a search: held with current data, then held but stale (src/domain/freshness.ts), then not
//   held. With a search, within each text group: held before not held, then the closer name match (the shorter name
//   containing the term: the term is more of it, so "Unemployment Rate" before "U-6 Unemployment Rate"), then current
//   before stale, then the newest period ending later;
// - total counts every match; a page is `limit` rows from `offset`.
// Case folding is JavaScript's toLowerCase (Unicode), which agrees with PostgreSQL's lower() on ASCII.

export type SearchableIndicator = {
  code: string;
  name: string;
  description: string | null;
  sourceSlug: string | null;
  category: string | null;
  frequency: string | null;
  isActive: boolean;
  sourceIsActive: boolean | null;
};

/** What the caller holds of an indicator: any region, whether that data is current, and where its newest period ends. */
export type Standing = { held: boolean; current: boolean; newestEnd: string | null };

const classOf = (s: Standing) => (s.held ? (s.current ? 0 : 1) : 2);

export type IndicatorFilter = {
  source?: string;
  category?: string;
  frequency?: string;
  search?: string;
  includeInactive: boolean;
};

/** The rows with their folded text, computed once per catalog. */
export type IndicatorSearchIndex<T extends SearchableIndicator> = {
  rows: readonly T[];
  code: readonly string[];
  name: readonly string[];
  description: readonly (string | null)[];
};

export function buildIndicatorSearch<T extends SearchableIndicator>(rows: readonly T[]): IndicatorSearchIndex<T> {
  return {
    rows,
    code: rows.map((r) => r.code.toLowerCase()),
    name: rows.map((r) => r.name.toLowerCase()),
    description: rows.map((r) => r.description?.toLowerCase() ?? null),
  };
}

export function isVisible(r: SearchableIndicator): boolean {
  return r.isActive && (r.sourceIsActive ?? true);
}

/** Every row matching the filter, in the order of the file comment. */
export function findIndicators<T extends SearchableIndicator>(
  index: IndicatorSearchIndex<T>,
  f: IndicatorFilter,
  standing?: (row: T) => Standing,
): T[] {
  const term = f.search?.toLowerCase();
  const hits: { row: T; rank: number; nameLength: number }[] = [];
  for (let i = 0; i < index.rows.length; i++) {
    const r = index.rows[i];
    if (!f.includeInactive && !isVisible(r)) continue;
    if (f.source !== undefined && r.sourceSlug !== f.source) continue;
    if (f.category !== undefined && r.category !== f.category) continue;
    if (f.frequency !== undefined && r.frequency !== f.frequency) continue;
    if (term === undefined) {
      hits.push({ row: r, rank: 0, nameLength: 0 });
      continue;
    }
    const code = index.code[i];
    const inName = index.name[i].includes(term);
    if (!inName && !code.includes(term) && !(index.description[i]?.includes(term) ?? false)) continue;
    // Lower rank first: exact code, code prefix, name match, the rest.
    const rank = (code === term ? 0 : 4) + (code.startsWith(term) ? 0 : 2) + (inName ? 0 : 1);
    hits.push({ row: r, rank, nameLength: inName ? r.name.length : 0 });
  }
  if (standing) {
    const st = new Map(hits.map((h) => [h.row, standing(h.row)]));
    const by = (h: { row: T }) => st.get(h.row)!;
    if (term === undefined) hits.sort((a, b) => classOf(by(a)) - classOf(by(b)));
    else hits.sort((a, b) => a.rank - b.rank || bySearchStanding(by(a), by(b), a.nameLength, b.nameLength));
  } else if (term !== undefined) hits.sort((a, b) => a.rank - b.rank); // stable: base order within a rank
  return hits.map((h) => h.row);
}

function bySearchStanding(a: Standing, b: Standing, aLength: number, bLength: number): number {
  if (a.held !== b.held) return a.held ? -1 : 1;
  if (aLength !== bLength) return aLength - bLength;
  if (a.current !== b.current) return a.current ? -1 : 1;
  const ea = a.newestEnd ?? "";
  const eb = b.newestEnd ?? "";
  return ea === eb ? 0 : ea > eb ? -1 : 1;
}

export function pageOf<T>(rows: readonly T[], page: { limit: number; offset: number }): T[] {
  return page.limit === 0 ? [] : rows.slice(page.offset, page.offset + page.limit);
}
