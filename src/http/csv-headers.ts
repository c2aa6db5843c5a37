// A CSV page's metadata as headers (README "CSV"): the service returns the page's meta beside its rendered body;
// what JSON carries in `meta`, a CSV answer carries in `X-` headers, decided here, in the http layer.
import type { ObservationsMeta } from "../services/observations-page";
import type { RenderedJson } from "../services/rendered";

/** The headers of a CSV page's meta (the order is the order they go out in). */
export function csvMetaHeaders(m: ObservationsMeta): Record<string, string> {
  const headers: Record<string, string> = {
    "X-Total-Count": String(m.total),
    "X-Limit": String(m.limit),
    "X-Offset": String(m.offset),
    "X-Indicator": m.indicator,
    "X-Region": m.region,
    "X-Frequency": m.frequency,
  };
  if (m.unit !== null) headers["X-Unit"] = m.unit;
  if (m.transform) headers["X-Transform"] = m.transform;
  if (m.concept) headers["X-Concept"] = `${m.concept.code}=${m.concept.resolved_indicator}`;
  if (m.freshness) {
    headers["X-Newest-Period"] = m.freshness.newest_period;
    headers["X-Stale"] = String(m.freshness.stale);
  }
  return headers;
}

const NONE: Readonly<Record<string, string>> = Object.freeze({});

/** The headers a rendered body's meta becomes: none for a body that carries its meta itself (JSON, SVG). */
export function bodyMetaHeaders(page: RenderedJson): Readonly<Record<string, string>> {
  return page.meta ? csvMetaHeaders(page.meta) : NONE;
}
