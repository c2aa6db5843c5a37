// Briefings (spec "Briefing", "Briefings", "Limits"): a saved question asked again every week at the briefing
// depth, each run stored. Definitions:
// - cadence: `weekly` only. A briefing runs once a week in a slot of its own, Monday between 06:00 and 11:59 UTC
//   (after the previous week's releases: the jobs report comes out on Friday), at a minute chosen by a hash of the
//   briefing's id (FNV-1a, 32 bits), so briefings spread over 360 minutes instead of all starting at once, and a
//   briefing keeps its slot in every process and across restarts.
// - occurrence: a run answers for the slot's latest occurrence at or before its start (`scheduled_for`); one good
//   run per briefing and occurrence is kept, whichever process ran it.
// - a good run is one whose ask answered (ok, no_coverage or no_data); a failed run (the ask threw: a database or
//   internal fault) is stored with its error and never replaces the last good one.
export const BRIEFING_NAME_MAX = 120;
export const BRIEFING_QUESTION_MAX = 500;
export const BRIEFING_CADENCES = ["weekly"] as const;
export type BriefingCadence = (typeof BRIEFING_CADENCES)[number];

/** `limit` of GET /v1/briefings/{id}/runs. */
export const BRIEFING_RUNS_LIMIT = { min: 1, max: 100, default: 20 } as const;
/** Saved briefings one key may keep: each runs every week at the briefing depth. */
export const MAX_BRIEFINGS_PER_KEY = 100;

export const RUN_STATUSES = ["ok", "no_coverage", "no_data", "failed"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
/** Statuses of a run whose ask answered: the runs a reader is served (the latest of them). */
export const GOOD_RUN_STATUSES: readonly RunStatus[] = ["ok", "no_coverage", "no_data"];

export const isGoodRun = (status: RunStatus): boolean => GOOD_RUN_STATUSES.includes(status);

/** A weekly slot in UTC: day of the week (0 Sunday .. 6 Saturday), hour and minute. */
export type WeeklySlot = { weekday: number; hour: number; minute: number };

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
const SLOT_WEEKDAY = 1;
const SLOT_FIRST_HOUR = 6;
const SLOT_HOURS = 6;

/** FNV-1a over the UTF-16 code units of `s`, as an unsigned 32-bit integer. */
export function fnv1a32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** The weekly slot of a briefing: Monday, 06:00 to 11:59 UTC, minute by the hash of its id. */
export function weeklySlot(briefingId: string): WeeklySlot {
  const minuteOfWindow = fnv1a32(briefingId) % (SLOT_HOURS * 60);
  return {
    weekday: SLOT_WEEKDAY,
    hour: SLOT_FIRST_HOUR + Math.floor(minuteOfWindow / 60),
    minute: minuteOfWindow % 60,
  };
}

/** The slot as a five-field cron expression (minute hour day-of-month month day-of-week), read in UTC. */
export function slotCron(s: WeeklySlot): string {
  return `${s.minute} ${s.hour} * * ${s.weekday}`;
}

/** The slot's latest occurrence at or before `at`. */
export function previousOccurrence(s: WeeklySlot, at: Date): Date {
  const t = at.getTime();
  const midnight = Math.floor(t / DAY_MS) * DAY_MS;
  const weekday = new Date(midnight).getUTCDay();
  const daysBack = (weekday - s.weekday + 7) % 7;
  const candidate = midnight - daysBack * DAY_MS + (s.hour * 60 + s.minute) * 60_000;
  return new Date(candidate <= t ? candidate : candidate - WEEK_MS);
}

/** The slot's first occurrence after `at`. */
export function nextOccurrence(s: WeeklySlot, at: Date): Date {
  return new Date(previousOccurrence(s, at).getTime() + WEEK_MS);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `s` is a uuid as the database stores ids (any version): anything else names no briefing. */
export function isUuid(s: string): boolean {
  return UUID.test(s);
}
