// A catalog series described in FRED's fred/series fields.
// - title: the indicator's name, with the region's name after "in" for any region but the US as a whole;
// - frequency: FRED's word ("Monthly", "Weekly, Ending Saturday") and short code ("M", "W");
// - units and units_short: the catalog's unit (FRED's short forms such as "%" are not derived from it);
// - seasonal_adjustment from the upstream's flag: SA "Seasonally Adjusted", SAAR "Seasonally Adjusted Annual
//   Rate", NSA "Not Seasonally Adjusted"; a series with no flag is "Not Applicable" (NA);
// - last_updated: when its data last changed, written as FRED writes it ("2026-06-05 07:44:02-05"), in UTC (+00);
// - popularity: 0, as the service keeps no popularity measure;
// - notes: the indicator's description.
import { FREQUENCY_NAMES, frequencyTitle, type FredFrequency } from "./frequency";
import type { FredSeriesMeta } from "./render";

const ADJUSTMENTS: Record<string, [string, string]> = {
  SA: ["Seasonally Adjusted", "SA"],
  SAAR: ["Seasonally Adjusted Annual Rate", "SAAR"],
  NSA: ["Not Seasonally Adjusted", "NSA"],
};

export type MetaInput = {
  id: string;
  name: string;
  description: string | null;
  unit: string | null;
  adjustment: string | null;
  frequency: FredFrequency;
  region: { code: string; name: string };
  observationStart: string | null;
  observationEnd: string | null;
  lastUpdated: Date | string | null;
  realtime: { start: string; end: string };
};

/** "2026-06-05 07:44:02+00" from an instant; "" when unknown. */
export function fredTimestamp(at: Date | string | null): string {
  if (at === null) return "";
  const iso = (typeof at === "string" ? new Date(at) : at).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}+00`;
}

export function fredSeriesMeta(m: MetaInput): FredSeriesMeta {
  const [adjustment, adjustmentShort] = (m.adjustment && ADJUSTMENTS[m.adjustment]) || ["Not Applicable", "NA"];
  return {
    id: m.id,
    realtime_start: m.realtime.start,
    realtime_end: m.realtime.end,
    title: m.region.code === "US" ? m.name : `${m.name} in ${m.region.name}`,
    observation_start: m.observationStart ?? "",
    observation_end: m.observationEnd ?? "",
    frequency: frequencyTitle(m.frequency),
    frequency_short: FREQUENCY_NAMES[m.frequency.code].short,
    units: m.unit ?? "",
    units_short: m.unit ?? "",
    seasonal_adjustment: adjustment,
    seasonal_adjustment_short: adjustmentShort,
    last_updated: fredTimestamp(m.lastUpdated),
    popularity: 0,
    notes: m.description ?? "",
  };
}
