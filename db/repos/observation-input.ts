// What the observation write path accepts (db/repos/observations.ts): the input shapes, the refusals, and the one
// normalisation every row goes through before it is compared with what is stored (calendar dates, finite values or
// null, no date twice in one write, -0 stored as 0).
export type ObservationInput = {
  date: string /* YYYY-MM-DD */;
  value: number | null;
  isPreliminary?: boolean;
  sourceUpdatedAt?: Date | null;
};

export type SeriesWrite = { indicatorId: string; regionCode: string; rows: ObservationInput[] };
/** A row the write path refuses; `item` and `index` locate it in the input (index into that item's rows). */
export class ObservationInputError extends Error {
  constructor(
    message: string,
    readonly item: number,
    readonly index: number | null,
  ) {
    super(message);
  }
}

export class DuplicateObservationDateError extends ObservationInputError {
  constructor(
    readonly date: string,
    item: number,
    readonly firstIndex: number,
    index: number,
  ) {
    super(`duplicate date ${date} in one write (rows ${firstIndex + 1} and ${index + 1})`, item, index);
  }
}

export type Row = { date: string; value: number | null; isPreliminary: boolean; sourceUpdatedAt: string | null };
export type Item = { indicatorId: string; regionCode: string; rows: Row[] };

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isCalendarDate(s: string): boolean {
  const m = ISO_DATE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d && y >= 1;
}

export function normalise(item: SeriesWrite, i: number): Item {
  if (!item.indicatorId) throw new ObservationInputError("indicatorId is required", i, null);
  if (!item.regionCode) throw new ObservationInputError("regionCode is required", i, null);
  const firstIndex = new Map<string, number>();
  const rows = item.rows.map((r, j): Row => {
    if (typeof r.date !== "string" || !isCalendarDate(r.date)) {
      throw new ObservationInputError(
        `row ${j + 1}: date ${JSON.stringify(r.date)} is not a YYYY-MM-DD calendar date`,
        i,
        j,
      );
    }
    if (r.value !== null && (typeof r.value !== "number" || !Number.isFinite(r.value))) {
      throw new ObservationInputError(
        `row ${j + 1} (${r.date}): value ${String(r.value)} is not a finite number or null`,
        i,
        j,
      );
    }
    const seen = firstIndex.get(r.date);
    if (seen !== undefined) throw new DuplicateObservationDateError(r.date, i, seen, j);
    firstIndex.set(r.date, j);
    let sourceUpdatedAt: string | null = null;
    if (r.sourceUpdatedAt) {
      if (Number.isNaN(r.sourceUpdatedAt.getTime())) {
        throw new ObservationInputError(`row ${j + 1} (${r.date}): sourceUpdatedAt is not a valid date`, i, j);
      }
      sourceUpdatedAt = r.sourceUpdatedAt.toISOString();
    }
    // -0 and 0 compare equal in SQL; store one of them so an exact comparison never flips between the two.
    const value = r.value === null ? null : r.value === 0 ? 0 : r.value;
    return { date: r.date, value, isPreliminary: r.isPreliminary === true, sourceUpdatedAt };
  });
  return { indicatorId: item.indicatorId, regionCode: item.regionCode, rows };
}
