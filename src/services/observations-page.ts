// The shape of a page of observations (GET /v1/observations): its rows and its meta, as data. Its own module (types
// only) so the rendered body (rendered.ts) can carry a page's meta without importing the read pipeline.
import type { Frequency } from "../domain/calendar";
import type { Freshness } from "../domain/freshness";
import type { ResampleMethod, ResampleTarget } from "../domain/resample";

/** The concept a read was asked by, disclosed in meta: its code and the indicator it resolved to. */
export type ConceptDisclosure = {
  code: string;
  resolved_indicator: string;
  source: string | null;
  inputs?: { role: string; concept: string; indicator: string; source: string | null }[];
};

export type ObservationRow = {
  date: string;
  value: number | null;
  indicator: string;
  region: string;
  unit: string | null;
  source: string | null;
  source_updated_at: string | null;
  is_preliminary: boolean;
  revision: number;
};

export type ResampledRow = {
  period_start: string;
  period_end: string;
  period_type: ResampleTarget;
  value: number | null;
};

export type ResampleMeta = {
  method: ResampleMethod;
  source_frequency: Frequency;
  target_frequency: ResampleTarget;
  completeness: string;
  dropped_incomplete_bucket: boolean;
  dropped_period_start: string | null;
};

export type ObservationsMeta = {
  indicator: string;
  region: string;
  unit: string | null;
  total: number;
  limit: number;
  offset: number;
  source: string | null;
  /** The frequency of the rows returned: the requested one after resampling. */
  frequency: Frequency;
  /** The series' own frequency. */
  native_frequency: Frequency;
  transform?: string;
  resample?: ResampleMeta;
  concept?: ConceptDisclosure;
  /** How current the series is as of the request (src/domain/freshness.ts). */
  freshness?: Freshness;
};

export type ObservationsPage = { data: (ObservationRow | ResampledRow)[]; meta: ObservationsMeta };
