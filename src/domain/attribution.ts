// Source attribution (spec "GET /v1/insights" meta.source_attribution): the upstream agency and the attribution
// text it asks for, from the catalog entry (db/seed/catalog-data/types.ts):
// - FRED re-publications name the producing agency (meta.upstream.original_source) and FRED, as FRED's terms ask:
//   "Source: U.S. Bureau of Labor Statistics, retrieved from FRED, Federal Reserve Bank of St. Louis."
// - Other sources name themselves (the agency; the provider is its parent department): "Source: U.S. Bureau of Labor
//   Statistics."
// - A licence recorded in meta.license is stated: "Licensed under CC BY 4.0."
// - Derived series (svc:) name their inputs: "Computed by this service from UNRATE (U.S. Bureau of Labor
//   Statistics, retrieved from FRED)."

export type SourceAttribution = { source: string | null; agency: string; text: string; license: string | null };

type Entry = { code: string; sourceSlug: string | null; meta: Record<string, unknown> };
type SourceInfo = { name: string; provider: string | null } | null;

function upstreamAgency(e: Entry): string | null {
  const up = e.meta.upstream as { original_source?: unknown } | undefined;
  return typeof up?.original_source === "string" ? up.original_source : null;
}

export function sourceAttribution(
  e: Entry,
  source: SourceInfo,
  inputs: readonly { entry: Entry; source: SourceInfo }[] = [],
): SourceAttribution {
  const license = typeof e.meta.license === "string" ? e.meta.license : null;
  const licensed = license ? ` Licensed under ${license}.` : "";
  if (e.sourceSlug === "svc") {
    const parts = inputs.map((i) => `${i.entry.code} (${describeUpstream(i.entry, i.source)})`);
    return {
      source: e.sourceSlug,
      agency: "this service",
      text: `Computed by this service from ${parts.length ? parts.join(" and ") : "the series it names"}.${licensed}`,
      license,
    };
  }
  const agency = upstreamAgency(e) ?? source?.name ?? source?.provider ?? e.sourceSlug ?? "unknown";
  return { source: e.sourceSlug, agency, text: `Source: ${describeUpstream(e, source)}.${licensed}`, license };
}

function describeUpstream(e: Entry, source: SourceInfo): string {
  const original = upstreamAgency(e);
  if (e.sourceSlug === "fred")
    return `${original ?? "Federal Reserve Bank of St. Louis"}, retrieved from FRED, Federal Reserve Bank of St. Louis`;
  return original ?? source?.name ?? source?.provider ?? e.sourceSlug ?? "unknown";
}
