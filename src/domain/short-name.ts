// A catalog entry's short name: what a landing card, a legend or a title short of room calls it ("Consumer Price
// Index" for FRED's "Consumer Price Index for All Urban Consumers: All Items in U.S. City Average"). Pure.
// - An entry that states one (meta.short_name, curated in db/seed/catalog-data) is called that.
// - Otherwise it is derived from the name: the name itself when at most SHORT_NAME_MAX characters; else the name
//   without its parenthesised parts, when that is short enough; else the whole name (a long name wraps where it is
//   shown: it is never cut, and never shortened to a part that could name another series, such as the "Assets" of
//   "Assets: Total Assets: ...").

export const SHORT_NAME_MAX = 40;

const fits = (s: string) => s.length > 0 && s.length <= SHORT_NAME_MAX;

/** The short name derived from a name (for an entry that states none). */
export function deriveShortName(name: string): string {
  if (fits(name)) return name;
  const bare = name
    .replace(/\s*\([^()]*\)/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return fits(bare) ? bare : name;
}

/** The entry's short name: the one it states, else the derived one. */
export function shortNameOf(entry: { name: string; meta?: Record<string, unknown> | null }): string {
  const stated = entry.meta?.short_name;
  return typeof stated === "string" && stated.trim() ? stated : deriveShortName(entry.name);
}
